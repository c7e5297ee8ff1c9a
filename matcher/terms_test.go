package matcher

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// termReference lists every term's occurrences in line as a search for
// that term alone (its own compiled matcher) finds them.
func termReference(t *testing.T, terms []string, mode CaseMode, line []byte) []string {
	return termReferenceOf(termMatchers(t, terms, mode), line)
}

// termMatchers compiles each term alone with its case rule.
func termMatchers(t *testing.T, terms []string, mode CaseMode) []*Matcher {
	t.Helper()
	var ms []*Matcher
	for _, s := range terms {
		c := Sensitive
		if TermFolds(s, mode) {
			c = Insensitive
		}
		m, err := Compile(Options{Patterns: []string{s}, Fixed: true, Case: c, LineTerminator: '\n'})
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	return ms
}

func termReferenceOf(ms []*Matcher, line []byte) []string {
	var out []string
	for i, m := range ms {
		m.EachOccurrenceIn(line, 0, len(line), func(r Range) bool {
			out = append(out, fmt.Sprintf("%d@%d-%d", i, r.Start, r.End))
			return true
		})
	}
	slices.Sort(out)
	return out
}

func termsGot(ts *TermSet, line []byte) []string {
	var out []string
	ts.Each(line, func(r TermRange) bool {
		out = append(out, fmt.Sprintf("%d@%d-%d", r.Term, r.Start, r.End))
		return true
	})
	slices.Sort(out)
	return out
}

// TestTermSetTable checks hand-picked cases: overlaps of different terms
// are all kept, a term's own occurrences do not overlap (as rg counts
// them), case modes per term (smart case looks at each term alone) and
// Unicode folding (the Kelvin sign, the long s) on non-ASCII lines.
func TestTermSetTable(t *testing.T) {
	cases := []struct {
		terms []string
		mode  CaseMode
		line  string
		want  []string
	}{
		{[]string{"he", "she", "hers"}, Sensitive, "ushers", []string{"0@2-4", "1@1-4", "2@2-6"}},
		{[]string{"aa", "a"}, Sensitive, "aaaa", []string{"0@0-2", "0@2-4", "1@0-1", "1@1-2", "1@2-3", "1@3-4"}},
		{[]string{"Foo", "bar"}, Smart, "foo FOO Foo BAR bar", []string{"0@8-11", "1@12-15", "1@16-19"}},
		{[]string{"foo", "Foo"}, Insensitive, "FOO", []string{"0@0-3", "1@0-3"}},
		{[]string{"foo", "Foo"}, Sensitive, "FOO foo", []string{"0@4-7"}},
		{[]string{"k", "S"}, Smart, "\u212a k K S s \u017f", []string{"0@0-3", "0@4-5", "0@6-7", "1@8-9"}},
		{[]string{"straße", "x"}, Smart, "STRASSE Straße STRAẞE", []string{"0@8-15", "0@16-24"}},
		{[]string{"len(", "}"}, Smart, "len(x)}", []string{"0@0-4", "1@6-7"}},
		{[]string{"ab", "b"}, Sensitive, "", nil},
	}
	for _, c := range cases {
		ts, err := CompileTerms(c.terms, c.mode)
		if err != nil {
			t.Fatal(err)
		}
		got := termsGot(ts, []byte(c.line))
		want := append([]string(nil), c.want...)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q mode %d in %q: got %v, want %v", c.terms, c.mode, c.line, got, want)
		}
		if ref := termReference(t, c.terms, c.mode, []byte(c.line)); !slices.Equal(got, ref) {
			t.Errorf("%q mode %d in %q: got %v, each term alone finds %v", c.terms, c.mode, c.line, got, ref)
		}
	}
}

// TestTermSetDifferential compares Each with each term searched alone,
// and Lines with "some term occurs", over generated terms and lines
// (ASCII and not, every case mode, sets of 2-64 terms).
func TestTermSetDifferential(t *testing.T) {
	seed := uint32(3)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	alpha := []string{"a", "b", "A", "B", "k", "K", "s", "S", "\u212a", "\u017f", "é", "É", " ", "("}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alpha[rnd(len(alpha))])
		}
		return b.String()
	}
	for round := range 120 {
		seen := map[string]bool{}
		var terms []string
		for n := 2 + rnd(63); len(terms) < n; {
			w := word(1 + rnd(4))
			if !seen[w] {
				seen[w] = true
				terms = append(terms, w)
			}
		}
		mode := CaseMode(round % 3)
		ts, err := CompileTerms(terms, mode)
		if err != nil {
			t.Fatal(err)
		}
		ms := termMatchers(t, terms, mode)
		for range 20 {
			line := []byte(word(rnd(30)))
			ref := termReferenceOf(ms, line)
			if got := termsGot(ts, line); !slices.Equal(got, ref) {
				t.Fatalf("round %d: %q mode %d in %q: got %v, want %v", round, terms, mode, line, got, ref)
			}
			buf := append(line, '\n')
			_, _, ok := ts.Lines().NextLine(buf, 0)
			if ok != (len(ref) > 0) {
				t.Fatalf("round %d: %q mode %d: Lines finds %q: %v, terms occur: %v", round, terms, mode, line, ok, len(ref) > 0)
			}
		}
	}
}
