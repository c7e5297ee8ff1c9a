package matcher

import (
	"reflect"
	"testing"
)

// TestPlainFastPath: literal patterns take the bytes.Index path, and it
// answers exactly what the regex path answers.
func TestPlainFastPath(t *testing.T) {
	hay := []byte("err error\nno match here\nxerrerr\n\xffERR err eRr\nASK ask\n")
	cases := []struct {
		opts  Options
		plain bool
	}{
		{Options{Patterns: []string{"err"}, LineTerminator: '\n'}, true},
		{Options{Patterns: []string{"(err)"}, LineTerminator: '\n'}, true},
		{Options{Patterns: []string{"e.r"}, Fixed: true, LineTerminator: '\n'}, true},
		{Options{Patterns: []string{"err"}, Case: Insensitive, LineTerminator: '\n'}, true},
		{Options{Patterns: []string{"ask"}, Case: Insensitive, LineTerminator: '\n'}, false}, // (?i)k folds to U+212A
		{Options{Patterns: []string{"e[rR]r"}, LineTerminator: '\n'}, true},
		{Options{Patterns: []string{"err"}, Word: true, LineTerminator: '\n'}, false},
		{Options{Patterns: []string{"^err"}, LineTerminator: '\n'}, false},
		{Options{Patterns: []string{"err|no"}, LineTerminator: '\n'}, false},
	}
	for _, tc := range cases {
		m, err := Compile(tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		fast := m.plain != nil || m.exact != nil
		if fast != tc.plain {
			t.Errorf("%q: fast path=%v, want %v", tc.opts.Patterns, fast, tc.plain)
		}
		if !fast {
			continue
		}
		slow, err := Compile(tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		slow.plain, slow.exact = nil, nil
		if slow.re == nil {
			// Compile skipped RE2 for the fast path: the VM answers.
		}
		if got, want := m.FindAll(hay, nil), slow.FindAll(hay, nil); !reflect.DeepEqual(got, want) {
			t.Errorf("%q FindAll: %v vs %v", tc.opts.Patterns, got, want)
		}
		for from := 0; from < len(hay); {
			s1, e1, ok1 := m.NextLine(hay, from)
			s2, e2, ok2 := slow.NextLine(hay, from)
			if s1 != s2 || e1 != e2 || ok1 != ok2 {
				t.Fatalf("%q NextLine(%d): (%d,%d,%v) vs (%d,%d,%v)", tc.opts.Patterns, from, s1, e1, ok1, s2, e2, ok2)
			}
			if !ok1 {
				break
			}
			from = e1
		}
		if got, want := m.OccurrencesIn(hay, 10, 23, nil), slow.OccurrencesIn(hay, 10, 23, nil); !reflect.DeepEqual(got, want) {
			t.Errorf("%q OccurrencesIn: %v vs %v", tc.opts.Patterns, got, want)
		}
	}
}
