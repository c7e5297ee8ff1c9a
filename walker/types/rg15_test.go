package types

import (
	"errors"
	"testing"

	"github.com/evgrep/evgrep/walker/ignore"
)

// TestFromChangesRG15: type flags apply in command-line order, as in
// ripgrep 15.2 (recorded on a tree of a.rs, b.py, c.md, x.a, x.b).
func TestFromChangesRG15(t *testing.T) {
	sel := func(n string) Change { return Change{Kind: ChangeSelect, Arg: n} }
	neg := func(n string) Change { return Change{Kind: ChangeNegate, Arg: n} }
	add := func(d string) Change { return Change{Kind: ChangeAdd, Arg: d} }
	clr := func(n string) Change { return Change{Kind: ChangeClear, Arg: n} }
	files := []string{"a.rs", "b.py", "c.md", "x.a", "x.b"}
	tests := []struct {
		name    string
		changes []Change
		want    []string // files kept
		unknown string   // an *UnrecognizedError for this name
	}{
		{"negate then select", []Change{neg("rust"), sel("rust")}, []string{"a.rs"}, ""},
		{"select then negate", []Change{sel("rust"), neg("rust")}, nil, ""},
		{"negate, select two", []Change{neg("rust"), sel("rust"), sel("py")}, []string{"a.rs", "b.py"}, ""},
		{"select two, negate", []Change{sel("rust"), sel("py"), neg("rust")}, []string{"b.py"}, ""},
		{"negate then all", []Change{neg("rust"), sel("all")}, []string{"a.rs", "b.py", "c.md"}, ""},
		{"all then negate", []Change{sel("all"), neg("rust")}, []string{"b.py", "c.md"}, ""},
		{"select before add", []Change{sel("foo"), add("foo:*.a")}, []string{"x.a"}, ""},
		{"clear after select", []Change{add("foo:*.a"), sel("foo"), clr("foo")}, nil, "foo"},
		{"comma is part of the glob", []Change{add("foo:*.a,*.b"), sel("foo")}, nil, ""},
		{"braces", []Change{add("foo:*.{a,b}"), sel("foo")}, []string{"x.a", "x.b"}, ""},
	}
	for _, tc := range tests {
		b, err := FromChanges(tc.changes)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m, err := b.Build()
		if tc.unknown != "" {
			var ue *UnrecognizedError
			if !errors.As(err, &ue) || ue.Name != tc.unknown {
				t.Errorf("%s: error %v, want unrecognized %q", tc.name, err, tc.unknown)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var kept []string
		for _, f := range files {
			if m.Match(f, false) != ignore.Ignore {
				kept = append(kept, f)
			}
		}
		if len(kept) != len(tc.want) {
			t.Errorf("%s: kept %q, want %q", tc.name, kept, tc.want)
			continue
		}
		for i := range kept {
			if kept[i] != tc.want[i] {
				t.Errorf("%s: kept %q, want %q", tc.name, kept, tc.want)
				break
			}
		}
	}
	if _, err := FromChanges([]Change{add("bad")}); err == nil {
		t.Errorf("invalid --type-add accepted")
	}
}
