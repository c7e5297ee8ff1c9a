package ignore

import (
	"errors"
	"testing"
)

func TestOverrideMatch(t *testing.T) {
	type probe struct {
		path  string
		isDir bool
		want  Match
	}
	tests := []struct {
		name   string
		globs  []OverrideGlob
		probes []probe
	}{
		{"include", []OverrideGlob{{Pattern: "*.rs"}}, []probe{
			{"src/main.rs", false, Whitelist},
			{"src/main.go", false, Ignore}, // unmatched file with an include glob
			{"src", true, None},            // unmatched directory: descend
		}},
		{"exclude only", []OverrideGlob{{Pattern: "!*.rs"}}, []probe{
			{"main.rs", false, Ignore},
			{"main.go", false, None},
			{"x.rs", true, Ignore},
		}},
		{"last wins", []OverrideGlob{{Pattern: "*.rs"}, {Pattern: "!src/gen/*"}}, []probe{
			{"src/gen/a.rs", false, Ignore},
			{"src/a.rs", false, Whitelist},
		}},
		{"last wins reversed", []OverrideGlob{{Pattern: "!src/gen/*"}, {Pattern: "*.rs"}}, []probe{
			{"src/gen/a.rs", false, Whitelist},
		}},
		{"star no slash", []OverrideGlob{{Pattern: "src/*.rs"}}, []probe{
			{"src/a.rs", false, Whitelist},
			{"src/x/a.rs", false, Ignore},
		}},
		{"basename any depth", []OverrideGlob{{Pattern: "a*b"}}, []probe{
			{"x/y/azb", false, Whitelist},
			{"a/b", false, Ignore},
		}},
		{"dir only", []OverrideGlob{{Pattern: "src/"}}, []probe{
			{"src", true, Whitelist},
			{"src", false, Ignore},
		}},
		{"case", []OverrideGlob{{Pattern: "*.MD"}}, []probe{{"a.md", false, Ignore}}},
		{"case insensitive", []OverrideGlob{{Pattern: "*.MD", CaseInsensitive: true}}, []probe{{"a.md", false, Whitelist}}},
		{"root stripped", []OverrideGlob{{Pattern: "/a/*.rs"}}, []probe{
			{"/cwd/a/x.rs", false, Whitelist},
			{"./a/x.rs", false, Whitelist},
			{"a/x.rs", false, Whitelist},
		}},
		{"comment and empty skipped", []OverrideGlob{{Pattern: "#x"}, {Pattern: ""}, {Pattern: "  "}}, []probe{
			{"#x", false, None},
		}},
	}
	for _, tc := range tests {
		o, err := NewOverride("/cwd", tc.globs)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, p := range tc.probes {
			if got := o.Match(p.path, p.isDir); got != p.want {
				t.Errorf("%s: Match(%q, %v) = %v, want %v", tc.name, p.path, p.isDir, got, p.want)
			}
		}
	}
}

func TestOverrideEmptyAndErrors(t *testing.T) {
	o, err := NewOverride(".", nil)
	if err != nil || !o.Empty() || o.Match("x", false) != None {
		t.Errorf("no globs: err %v, Empty %v, Match %v", err, o.Empty(), o.Match("x", false))
	}
	o, err = NewOverride(".", []OverrideGlob{{Pattern: "# only a comment"}})
	if err != nil || !o.Empty() {
		t.Errorf("comment glob: err %v, Empty %v", err, o.Empty())
	}
	var nilO *Override
	if !nilO.Empty() || nilO.Match("x", false) != None {
		t.Errorf("a nil *Override must be empty")
	}
	_, err = NewOverride(".", []OverrideGlob{{Pattern: "*.rs"}, {Pattern: "!{a,b"}, {Pattern: "[x"}})
	var ge *GlobError
	if !errors.As(err, &ge) || ge.Kind != ErrUnclosedAlternates {
		t.Fatalf("error = %v, want the first bad glob's *GlobError", err)
	}
	want := "error parsing glob '!{a,b': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)"
	if err.Error() != want {
		t.Errorf("error = %q, want %q", err.Error(), want)
	}
}
