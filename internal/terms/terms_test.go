package terms

import (
	"strings"
	"testing"

	"github.com/evgrep/evgrep/matcher"
)

// TestValidate checks each rule of a term list, and that the message
// names the first bad term on one line.
func TestValidate(t *testing.T) {
	many := make([]string, MaxTerms+1)
	for i := range many {
		many[i] = strings.Repeat("x", i+1)
	}
	cases := []struct {
		terms []string
		want  string // "" for valid
	}{
		{[]string{"a", "b"}, ""},
		{many[:MaxTerms], ""},
		{[]string{"a", strings.Repeat("é", MaxTermBytes/2)}, ""},
		{[]string{"a"}, "expected 2-64 terms, got 1"},
		{nil, "expected 2-64 terms, got 0"},
		{many, "expected 2-64 terms, got 65"},
		{[]string{"a", ""}, "term 2 is empty"},
		{[]string{"a", "b", "a"}, `term 3 "a" repeats term 1`},
		{[]string{"a", "x\ny"}, "line break"},
		{[]string{"a", "x\ry"}, "line break"},
		{[]string{"a", "x\x00"}, "NUL"},
		{[]string{"a", "\xff"}, "not valid UTF-8"},
		{[]string{"a", strings.Repeat("x", MaxTermBytes+1)}, "257 bytes long"},
		{[]string{"a", strings.Repeat("\n", 300)}, "term 2 is 300 bytes long"},
	}
	for _, c := range cases {
		err := Validate(c.terms)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%.40q: %v", c.terms, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%.40q: error %v, want one line with %q", c.terms, err, c.want)
		}
	}
}

// TestParseMatch accepts the three rules and the default.
func TestParseMatch(t *testing.T) {
	for in, want := range map[string]Match{"": MatchAny, "any": MatchAny, "all": MatchAll, "none": MatchNone} {
		if got, err := ParseMatch(in); err != nil || got != want {
			t.Errorf("ParseMatch(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"ANY", "some", "all "} {
		if _, err := ParseMatch(in); err == nil {
			t.Errorf("ParseMatch(%q) accepted", in)
		}
	}
}

// TestFileScan counts lines, occurrences and files per term and applies
// each rule to the file.
func TestFileScan(t *testing.T) {
	ts, err := Compile([]string{"ab", "b", "zz"}, matcher.Sensitive)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFileScan(ts)
	tot := NewTotals(ts.Len())
	f.Line([]byte("ab ab b"), nil)
	f.Line([]byte("xb"), nil)
	want := []Count{{1, 2, 1}, {2, 4, 1}, {0, 0, 0}}
	for i, c := range f.Counts() {
		if c != want[i] {
			t.Errorf("term %d: %+v, want %+v", i, c, want[i])
		}
	}
	if f.Found() != 2 || !f.Keeps(MatchAny) || f.Keeps(MatchAll) || f.Keeps(MatchNone) {
		t.Errorf("found %d: rules any/all/none = %v %v %v", f.Found(), f.Keeps(MatchAny), f.Keeps(MatchAll), f.Keeps(MatchNone))
	}
	tot.Add(f, true)
	f.Reset()
	if f.Found() != 0 || !f.Keeps(MatchNone) || f.Keeps(MatchAny) {
		t.Error("Reset did not start a new file")
	}
	tot.Add(f, false)
	if tot.Searched != 2 || tot.Kept != 1 || tot.Terms[1] != (Count{2, 4, 1}) {
		t.Errorf("totals %+v", tot)
	}
}
