package matcher

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestOccurrencesBounded checks EachOccurrenceIn, OccurrencesBounded and
// CountOccurrencesIn against OccurrencesIn, on short lines and on lines
// past eachSliceMax (where the occurrences are visited one by one), for
// every path of findAll: plain literal, exact byte-set literal, RE2 and the
// VM (word mode, empty matches, CRLF).
func TestOccurrencesBounded(t *testing.T) {
	long := strings.Repeat("foo bar baz ", eachSliceMax/12+100)
	cases := []struct {
		name string
		opts Options
		line string
	}{
		{"plain", Options{Patterns: []string{"a"}}, "banana a aa"},
		{"plain long", Options{Patterns: []string{"bar"}}, long},
		{"plain long run", Options{Patterns: []string{"aa"}}, strings.Repeat("a", eachSliceMax+3)},
		{"exact -i", Options{Patterns: []string{"bar"}, Case: Insensitive}, "BAR bar bAr"},
		{"exact -i long", Options{Patterns: []string{"bar"}, Case: Insensitive}, strings.ToUpper(long)},
		{"regex", Options{Patterns: []string{`b[a-z]+`}}, "foo bar baz"},
		{"regex long", Options{Patterns: []string{`b[a-z]+`}}, long},
		{"empty matches", Options{Patterns: []string{`x*`}}, "axxb xx"},
		{"empty matches long", Options{Patterns: []string{`a*`}}, long},
		{"word", Options{Patterns: []string{`ba.`}, Word: true}, "bar xbar baz"},
		{"word long", Options{Patterns: []string{`ba.`}, Word: true}, long},
		{"unicode class long", Options{Patterns: []string{`\w+`}}, strings.Repeat("héllo wörld ", eachSliceMax/10)},
		{"crlf", Options{Patterns: []string{`z$`}, CRLF: true}, "baz baz\r"},
		{"no match long", Options{Patterns: []string{"qux"}}, long},
	}
	for _, tc := range cases {
		tc.opts.LineTerminator = '\n'
		m, err := Compile(tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// The line sits after a context line in its buffer, as the
		// searcher hands it over.
		buf := []byte("ctx\n" + tc.line + "\n")
		start, end := 4, len(buf)-1
		want := m.OccurrencesIn(buf, start, end, nil)
		var each []Range
		m.EachOccurrenceIn(buf, start, end, func(r Range) bool { each = append(each, r); return true })
		if !slices.Equal(each, want) {
			t.Errorf("%s: EachOccurrenceIn gives %d ranges, OccurrencesIn %d (first %v / %v)", tc.name, len(each), len(want), head(each), head(want))
		}
		if got := m.CountOccurrencesIn(buf, start, end); got != len(want) {
			t.Errorf("%s: CountOccurrencesIn = %d, want %d", tc.name, got, len(want))
		}
		for _, keep := range []int{-1, 0, 1, 3, 20, len(want), len(want) + 5} {
			kept, total := m.OccurrencesBounded(buf, start, end, keep, nil)
			if total != len(want) {
				t.Errorf("%s keep %d: total %d, want %d", tc.name, keep, total, len(want))
			}
			if w := want[:min(max(keep, 0), len(want))]; !slices.Equal(kept, w) {
				t.Errorf("%s keep %d: kept %v, want %v", tc.name, keep, head(kept), head(w))
			}
		}
		// Stopping early stops.
		calls := 0
		m.EachOccurrenceIn(buf, start, end, func(Range) bool { calls++; return calls < 2 })
		if w := min(2, len(want)); calls != w {
			t.Errorf("%s: %d calls after stopping at the second, want %d", tc.name, calls, w)
		}
	}
}

func head(r []Range) string {
	if len(r) > 4 {
		return fmt.Sprint(r[:4], "…")
	}
	return fmt.Sprint(r)
}
