// Package terms is the multi-term search shared by the CLI (--terms) and
// the agent (the request's terms field): the validation of a term list,
// the file rule (match any, all or none of the terms), and the per-file
// and per-search counts of each term, computed from the occurrences that
// matcher.TermSet finds in the lines the pipeline hands over. It walks and
// reads nothing itself.
package terms

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evgrep/evgrep/matcher"
)

// Match is the file rule of a multi-term search.
type Match string

// The file rules.
const (
	// MatchAny keeps the files that hold at least one term (the default).
	MatchAny Match = "any"
	// MatchAll keeps the files that hold every term.
	MatchAll Match = "all"
	// MatchNone keeps the files that hold none of the terms.
	MatchNone Match = "none"
)

// ParseMatch parses a file rule; "" is MatchAny.
func ParseMatch(s string) (Match, error) {
	switch Match(s) {
	case "", MatchAny:
		return MatchAny, nil
	case MatchAll, MatchNone:
		return Match(s), nil
	}
	return "", fmt.Errorf("match %s: expected any, all or none", quote(s, 32))
}

// Validate checks a term list: MinTerms to MaxTerms distinct terms, each
// non-empty valid UTF-8 of at most MaxTermBytes bytes on one line (no
// '\n', '\r' or NUL). The error is one line naming the first bad term.
func Validate(terms []string) error {
	if len(terms) < MinTerms || len(terms) > MaxTerms {
		return fmt.Errorf("terms: expected %d-%d terms, got %d", MinTerms, MaxTerms, len(terms))
	}
	seen := make(map[string]int, len(terms))
	for i, t := range terms {
		switch {
		case t == "":
			return fmt.Errorf("term %d is empty", i+1)
		case !utf8.ValidString(t):
			return fmt.Errorf("term %d is not valid UTF-8", i+1)
		case len(t) > MaxTermBytes:
			return fmt.Errorf("term %d is %d bytes long: at most %d UTF-8 bytes", i+1, len(t), MaxTermBytes)
		case strings.ContainsAny(t, "\n\r"):
			return fmt.Errorf("term %d %s holds a line break: terms are single-line literals", i+1, quote(t, 32))
		case strings.IndexByte(t, 0) >= 0:
			return fmt.Errorf("term %d %s holds a NUL byte", i+1, quote(t, 32))
		}
		if j, dup := seen[t]; dup {
			return fmt.Errorf("term %d %s repeats term %d: terms must be distinct", i+1, quote(t, 32), j+1)
		}
		seen[t] = i
	}
	return nil
}

// quote quotes s for a message, cut to about n bytes.
func quote(s string, n int) string {
	if len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}

// Compile validates terms and compiles them for mode (matcher.Smart
// applies rg's smart case to each term alone).
func Compile(terms []string, mode matcher.CaseMode) (*matcher.TermSet, error) {
	if err := Validate(terms); err != nil {
		return nil, err
	}
	return matcher.CompileTerms(terms, mode)
}

// Count is one term's counts: the lines that hold it, its occurrences and
// the files that hold it.
type Count struct {
	Lines, Occurrences, Files int64
}

// FileScan is the state of one file of a multi-term search (one per
// pipeline worker, Reset for every file): each term's counts in it.
type FileScan struct {
	ts     *matcher.TermSet
	counts []Count
	found  int // terms with an occurrence
	// lineOf[i] is the number of the last line (counted by Line, from 1)
	// in which term i occurred: no clearing per line.
	lineOf []uint64
	lineNo uint64
}

// NewFileScan returns a FileScan for ts.
func NewFileScan(ts *matcher.TermSet) *FileScan {
	return &FileScan{ts: ts, counts: make([]Count, ts.Len()), lineOf: make([]uint64, ts.Len())}
}

// Reset starts a new file.
func (f *FileScan) Reset() {
	clear(f.counts)
	f.found = 0
}

// Line counts the occurrences in one line (without its terminator) and
// calls fn (when not nil) with each, in no set order.
func (f *FileScan) Line(text []byte, fn func(matcher.TermRange)) {
	f.lineNo++
	f.ts.Each(text, func(r matcher.TermRange) bool {
		c := &f.counts[r.Term]
		c.Occurrences++
		if f.lineOf[r.Term] != f.lineNo {
			f.lineOf[r.Term] = f.lineNo
			c.Lines++
			if c.Lines == 1 {
				c.Files = 1
				f.found++
			}
		}
		if fn != nil {
			fn(r)
		}
		return true
	})
}

// Found returns how many terms occur in the file so far.
func (f *FileScan) Found() int { return f.found }

// Counts returns each term's counts in the file (valid until Reset).
func (f *FileScan) Counts() []Count { return f.counts }

// Keeps reports whether the file belongs to the answer under rule m (for
// MatchNone: no term occurs).
func (f *FileScan) Keeps(m Match) bool {
	switch m {
	case MatchAll:
		return f.found == len(f.counts)
	case MatchNone:
		return f.found == 0
	}
	return f.found > 0
}

// Totals adds up the counts of the files kept (not safe for concurrent
// use: callers add under their own lock).
type Totals struct {
	// Terms are the per-term counts over the files kept.
	Terms []Count
	// Searched is the number of files searched; Kept the number kept.
	Searched, Kept int64
}

// NewTotals returns zero totals for n terms.
func NewTotals(n int) *Totals { return &Totals{Terms: make([]Count, n)} }

// Add records one searched file; kept says whether the rule kept it.
func (t *Totals) Add(f *FileScan, kept bool) {
	t.Searched++
	if !kept {
		return
	}
	t.Kept++
	for i, c := range f.counts {
		t.Terms[i].Lines += c.Lines
		t.Terms[i].Occurrences += c.Occurrences
		t.Terms[i].Files += c.Files
	}
}
