package ignore

import (
	"errors"
	"strings"
	"testing"
)

// These expectations were recorded from ripgrep 15.2.0 (rg --files -g GLOB,
// and .ignore files, on small trees).

// nested returns inner wrapped in n nested braces.
func nested(n int, inner string) string {
	return strings.Repeat("{", n) + inner + strings.Repeat("}", n)
}

// TestNestLimit checks where ripgrep 15's regular expression parser gives
// up on nested alternates ("error parsing pattern 0"), glob shape by glob
// shape, on -g globs.
func TestNestLimit(t *testing.T) {
	tests := []struct {
		inner string
		n     int
		fails bool
	}{
		{"a", 249, false}, {"a", 250, true},
		{"a,b", 248, false}, {"a,b", 249, true},
		{"*.c", 246, false}, {"*.c", 247, true},
		{"ab", 248, false}, {"ab", 249, true},
		{"中", 248, false}, {"中", 249, true},
		{"[a]", 248, false}, {"[a]", 249, true},
		{"[ab]", 247, false}, {"[ab]", 248, true},
		{"**/x", 244, false}, {"**/x", 245, true},
		{"a/**", 247, false},
		{"a", 100000, true}, // hostile: no deep recursion, one error
	}
	for _, tc := range tests {
		g := nested(tc.n, tc.inner)
		_, err := NewOverride("/", []OverrideGlob{{Pattern: g}})
		var ne *NestError
		switch {
		case tc.fails && (!errors.As(err, &ne) || err.Error() != "error parsing pattern 0"):
			t.Errorf("%q nested %d: error %v, want error parsing pattern 0", tc.inner, tc.n, err)
		case !tc.fails && err != nil:
			t.Errorf("%q nested %d: %v", tc.inner, tc.n, err)
		}
	}
	// The index counts the globs of the set run as regular expressions
	// (here the second; "*.c" is answered from the extension).
	_, err := NewOverride("/", []OverrideGlob{{Pattern: "*.c"}, {Pattern: "a*b"}, {Pattern: nested(300, "a")}})
	if err == nil || err.Error() != "error parsing pattern 1" {
		t.Errorf("set error = %v, want error parsing pattern 1", err)
	}
}

// TestNestLimitEmptiesIgnoreFile: one line too deep drops the whole file.
func TestNestLimitEmptiesIgnoreFile(t *testing.T) {
	gi, errs := NewGitignore(".", []byte("a.a\n"+nested(300, "a")+"\n"), false)
	if gi.Len() != 0 || gi.Match("a.a", false) != None {
		t.Errorf("matcher not empty: Len %d", gi.Len())
	}
	if len(errs) != 1 || errs[0].Error() != "error parsing pattern 0" {
		t.Errorf("errors = %v", errs)
	}
}

// TestOverrideRG15 covers the -g globs whose meaning changed in ripgrep 15.
func TestOverrideRG15(t *testing.T) {
	files := []string{"a.a", "a.b", "a.c", "a.d", "a.", "sub/x.b", "a{b", "x}", "a,b", "[abc", "ab", "asdf./foo", "asdf/foo"}
	tests := []struct {
		globs []string
		want  []string // the files kept
		err   string
	}{
		{globs: []string{"*.{a,{b,c}}"}, want: []string{"a.a", "a.b", "a.c", "sub/x.b"}},
		{globs: []string{"*.{a,{b,{c,d}}}"}, want: []string{"a.a", "a.b", "a.c", "a.d", "sub/x.b"}},
		{globs: []string{"{a.{a,b},x}"}, want: []string{"a.a", "a.b"}},
		{globs: []string{"a.{,a}"}, want: []string{"a.a"}},
		{globs: []string{"*.{}"}, want: []string{"a."}},
		{globs: []string{"*."}, want: []string{"a."}},
		{globs: []string{"a."}, want: []string{"a."}},
		{globs: []string{"!asdf./"}, want: []string{"a.a", "a.b", "a.c", "a.d", "a.", "sub/x.b", "a{b", "x}", "a,b", "[abc", "ab", "asdf/foo"}},
		{globs: []string{"a,b}"}, err: "error parsing glob 'a,b}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"},
		{globs: []string{"}"}, err: "error parsing glob '}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"},
		{globs: []string{"[abc"}, err: "error parsing glob '[abc': unclosed character class; missing ']'"},
		{globs: []string{"[abc]*["}, err: "error parsing glob '[abc]*[': unclosed character class; missing ']'"},
	}
	for _, tc := range tests {
		var ogs []OverrideGlob
		for _, g := range tc.globs {
			ogs = append(ogs, OverrideGlob{Pattern: g})
		}
		ov, err := NewOverride("/", ogs)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.globs, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.globs, err)
			continue
		}
		var kept []string
		for _, f := range files {
			if keptByOverride(ov, f) {
				kept = append(kept, f)
			}
		}
		if strings.Join(kept, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: kept %q, want %q", tc.globs, kept, tc.want)
		}
	}
}

// keptByOverride walks path's directories as the walker does: a directory
// the override ignores hides what is below it.
func keptByOverride(ov *Override, path string) bool {
	parts := strings.Split(path, "/")
	for i := 1; i < len(parts); i++ {
		if ov.Match(strings.Join(parts[:i], "/"), true) == Ignore {
			return false
		}
	}
	return ov.Match(path, false) != Ignore
}

// TestGitignoreRG15 covers .ignore lines whose meaning changed in
// ripgrep 15 (tree: abc[d, foo/x, d/foo, [中, x.c, y.b, ..., a.).
func TestGitignoreRG15(t *testing.T) {
	files := []string{"abc[d", "foo/x", "d/foo", "[中", "x.c", "y.b", "...", "a.", "[abc", "a.a"}
	tests := []struct {
		data string
		want []string // the files kept
		errs []string
	}{
		{data: "a[b]c[d\nfoo\\/\n[中\n*.{a,{b,c}}\n**/*.\n", want: []string{"d/foo", "[abc"}},
		{data: "\ufeffd\n", want: []string{"abc[d", "foo/x", "[中", "x.c", "y.b", "...", "a.", "[abc", "a.a"}},
		{data: "[abc\n", want: []string{"abc[d", "foo/x", "d/foo", "[中", "x.c", "y.b", "...", "a.", "a.a"}},
		{data: "[\n[[a\na[[b\n[!\n", want: files},
		{data: "x}\n", want: files, errs: []string{"line 1: error parsing glob 'x}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"}},
	}
	for _, tc := range tests {
		gi, errs := NewGitignore(".", []byte(tc.data), false)
		var kept []string
		for _, f := range files {
			if keptByGitignore(gi, f) {
				kept = append(kept, f)
			}
		}
		if strings.Join(kept, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%q: kept %q, want %q", tc.data, kept, tc.want)
		}
		var got []string
		for _, e := range errs {
			got = append(got, e.Error())
		}
		if strings.Join(got, "\n") != strings.Join(tc.errs, "\n") {
			t.Errorf("%q: errors %q, want %q", tc.data, got, tc.errs)
		}
	}
}

func keptByGitignore(gi *Gitignore, path string) bool {
	parts := strings.Split(path, "/")
	for i := 1; i < len(parts); i++ {
		if gi.Match(strings.Join(parts[:i], "/"), true) == Ignore {
			return false
		}
	}
	return gi.Match(path, false) != Ignore
}
