package agent

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/evgrep/evgrep/snapshot"
)

// formatLine renders "path:line:cols {match #N}  text".
func formatLine(l snapshot.Line, maxChars int) string {
	text, excerpt := lineText(l, maxChars)
	cols := formatRanges(l)
	mark := ""
	if excerpt {
		mark = " (excerpt)"
	}
	return fmt.Sprintf("%s:%d:%s {match #%d}%s  %s\n", l.Path, l.Number, cols, l.Match, mark, text)
}

func formatRanges(l snapshot.Line) string {
	rs := rangesJSON(l)
	var parts []string
	for _, r := range rs {
		suffix := ""
		if r.Unit == "byte" {
			suffix = "b"
		}
		parts = append(parts, fmt.Sprintf("%d-%d%s", r.Start, r.End, suffix))
	}
	s := strings.Join(parts, ",")
	if more := l.Occurrences - len(rs); more > 0 {
		s += fmt.Sprintf("(+%d more)", more)
	}
	return s
}

// rangesJSON gives up to MaxRangesShown occurrences, 1-based, end
// exclusive, in UTF-16 units for UTF-8 lines and bytes otherwise.
func rangesJSON(l snapshot.Line) []RangeJSON {
	utf16 := utf8.Valid(l.Text)
	var out []RangeJSON
	for i, r := range l.Ranges {
		if i == snapshot.MaxRangesShown {
			break
		}
		if utf16 {
			out = append(out, RangeJSON{Start: r.StartUTF16 + 1, End: r.EndUTF16 + 1, Unit: "utf16"})
		} else {
			out = append(out, RangeJSON{Start: r.Start + 1, End: r.End + 1, Unit: "byte"})
		}
	}
	return out
}

func matchJSON(l snapshot.Line, maxChars int) MatchJSON {
	text, excerpt := lineText(l, maxChars)
	rs := rangesJSON(l)
	return MatchJSON{Match: l.Match, Path: l.Path, Line: l.Number, Text: text, Excerpt: excerpt, Ranges: rs, MoreRanges: max(0, l.Occurrences-len(rs))}
}

// lineText returns the line as shown: whole, or an excerpt of maxChars
// characters around the first occurrence. Invalid UTF-8 is shown with
// U+FFFD for each bad byte (the ranges then count bytes).
func lineText(l snapshot.Line, maxChars int) (string, bool) {
	text := strings.ToValidUTF8(string(l.Text), "\uFFFD")
	if utf8.RuneCountInString(text) <= maxChars && !l.Clipped() {
		return text, false
	}
	runes := []rune(text)
	start := 0
	if len(l.Ranges) > 0 {
		first := utf8.RuneCount(l.Text[:min(len(l.Text), max(0, l.Ranges[0].Start-l.TextStart))])
		start = max(0, first-maxChars/4)
	}
	end := min(len(runes), start+maxChars)
	start = max(0, end-maxChars)
	return "…" + string(runes[start:end]) + "…", true
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
