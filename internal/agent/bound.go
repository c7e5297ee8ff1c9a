package agent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/evgrep/evgrep/snapshot"
)

// Budgets of the rendered text.
const (
	// summaryTextBudget keeps a summary page readable in one glance (the
	// issue's bound for a broad search is 8,000 characters).
	summaryTextBudget = 7600
	// responseBudget is the hard bound of one answer.
	responseBudget = snapshot.MaxResponseBytes
	// sampleFiles, sampleWindows and sampleLines shape summary samples.
	sampleFiles   = 5
	sampleWindows = 2
	sampleLines   = 7
	// sampleTextChars bounds one sample line.
	sampleTextChars = 160
	// maxEchoBytes bounds a path or pattern echoed in an answer (errors,
	// status line, details); a longer one is shortened in the middle.
	maxEchoBytes = 512
	// summaryReserve is what a summary page keeps, after its file list,
	// for its cursor and hint lines.
	summaryReserve = 1600
	// contextLineBytes is what one context row is estimated to take when
	// auto mode decides whether a whole result fits (the page itself
	// measures the rows it writes).
	contextLineBytes = 100
	// maxErrorBytes bounds the message of an error answer.
	maxErrorBytes = 2048
	// cutReserve is what the last guard keeps for its note when it cuts
	// an answer's text.
	cutReserve = 200
)

// shorten returns s when it has at most n bytes, else its head and tail
// around a note of how many bytes were left out, cut at UTF-8 boundaries.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	keep := max(0, n-40) / 2
	head, tail := s[:keep], s[len(s)-keep:]
	for len(head) > 0 && !utf8.RuneStart(s[len(head)]) {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s…(%d bytes)…%s", head, len(s)-len(head)-len(tail), tail)
}

// shortenAll returns list with each string shortened to maxEchoBytes, in a
// new slice when one changes (list may belong to a stored cursor).
func shortenAll(list []string) []string {
	var out []string
	for i, s := range list {
		if jsonCost(s)-2 > maxEchoBytes && out == nil {
			out = append([]string(nil), list...)
		}
		if out != nil {
			out[i] = shortenJSON(s, maxEchoBytes)
		}
	}
	if out == nil {
		return list
	}
	return out
}

// bound is the last guard of every answer: the text is at most
// responseBudget bytes (cut at a line end, with a note), the details echo
// no path or pattern longer than maxEchoBytes (as JSON), and they are at
// most MaxDetailsBytes (boundDetails).
func bound(a *Answer) *Answer {
	d := &a.Details
	d.Pattern = shortenJSON(d.Pattern, maxEchoBytes)
	d.Root = shortenJSON(d.Root, maxEchoBytes)
	d.Paths = shortenAll(d.Paths)
	d.Selection = shortenAll(d.Selection)
	d.Problems = shortenAll(d.Problems)
	for i := range d.UnverifiedFiles {
		d.UnverifiedFiles[i].Path = shortenJSON(d.UnverifiedFiles[i].Path, maxEchoBytes)
	}
	if d.Retried != nil {
		r := *d.Retried
		r.Paths = shortenAll(r.Paths)
		r.Root = shortenJSON(r.Root, maxEchoBytes)
		d.Retried = &r
	}
	for i := range d.Targets {
		d.Targets[i].Path = shortenJSON(d.Targets[i].Path, maxEchoBytes)
		d.Targets[i].Error = shortenJSON(d.Targets[i].Error, maxEchoBytes)
	}
	if e := d.Error; e != nil {
		e.Message = shortenJSON(e.Message, maxErrorBytes)
	}
	if len(a.Text) > responseBudget {
		cut := a.Text[:responseBudget-cutReserve]
		if i := strings.LastIndexByte(cut, '\n'); i > 0 {
			cut = cut[:i+1]
		} else {
			cut = strings.ToValidUTF8(cut, "") + "\n"
		}
		a.Text = cut + fmt.Sprintf("… %d more bytes of this answer not shown (16 KiB bound); narrow the request.\n", len(a.Text)-len(cut))
		if d.Status == "complete" {
			d.Status = "partial"
		}
	}
	boundDetails(d)
	return a
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
