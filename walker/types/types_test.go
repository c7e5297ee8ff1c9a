package types

import (
	"bytes"
	"errors"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
	"github.com/evgrep/evgrep/walker/ignore"
)

// TestTypeListRecorded: the table prints exactly the --type-list output
// recorded from ripgrep 15.2.0.
func TestTypeListRecorded(t *testing.T) {
	want, err := os.ReadFile("testdata/type-list-rg15.2.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := listOf(t, NewDefaultBuilder()); got != string(want) {
		t.Errorf("--type-list differs from testdata/type-list-rg15.2.txt")
	}
}

func listOf(t *testing.T, b *Builder) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := WriteList(&buf, b.Definitions()); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestDefaultTable(t *testing.T) {
	b := NewDefaultBuilder()
	defs := b.Definitions()
	if len(defs) != len(defaultTypes) {
		t.Fatalf("%d definitions, want %d", len(defs), len(defaultTypes))
	}
	got := map[string]string{}
	for _, d := range defs {
		got[d.Name] = strings.Join(d.Globs, ", ")
	}
	for name, want := range map[string]string{
		"rust":    "*.rs",
		"go":      "*.go",
		"make":    "*.mak, *.mk, Makefile.*, [Gg][Nn][Uu]makefile, [Gg][Nn][Uu]makefile.am, [Gg][Nn][Uu]makefile.in, [Mm]akefile, [Mm]akefile.am, [Mm]akefile.in",
		"license": "*[.-]LICEN[CS]E*, AGPL-*[0-9]*, APACHE-*[0-9]*, BSD-*[0-9]*, CC-BY-*, COPYING, COPYING[.-]*, COPYRIGHT, COPYRIGHT[.-]*, EULA, EULA[.-]*, GFDL-*[0-9]*, GNU-*[0-9]*, GPL-*[0-9]*, LGPL-*[0-9]*, LICEN[CS]E, LICEN[CS]E[.-]*, MIT-*[0-9]*, MPL-*[0-9]*, NOTICE, NOTICE[.-]*, OFL-*[0-9]*, PATENTS, PATENTS[.-]*, UNLICEN[CS]E, UNLICEN[CS]E[.-]*, agpl[.-]*, gpl[.-]*, lgpl[.-]*, licen[cs]e, licen[cs]e.*",
	} {
		if got[name] != want {
			t.Errorf("%s: %q, want %q", name, got[name], want)
		}
	}
}

// TestTypeListMatchesRG compares --type-list output, with additions and
// clears, byte for byte with rg's (live, or recorded: internal/testref).
func TestTypeListMatchesRG(t *testing.T) {
	g := testref.Open(t)
	cases := [][]string{
		nil,
		{"--type-add", "foo:*.b,*.a", "--type-add", "foo:include:rust,c", "--type-clear", "md", "--type-add", "md:x"},
		{"--type-clear", "c", "--type-add", "rust:include:rust"},
		{"--type-add", "zz:*.z", "--type-add", "zz:include:zz"},
	}
	for _, args := range cases {
		var f Flags
		for i := 0; i+1 < len(args); i += 2 {
			switch args[i] {
			case "--type-add":
				f.Add = append(f.Add, args[i+1])
			case "--type-clear":
				f.Clear = append(f.Clear, args[i+1])
			}
		}
		b, err := FromFlags(f)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		ref := g.Run(t, testref.Case{Args: append([]string{"--no-config", "--type-list"}, args...)})
		if ref.Code != 0 {
			t.Fatalf("rg %q: exit %d: %s", args, ref.Code, ref.Stderr)
		}
		if got := listOf(t, b); got != string(ref.Stdout) {
			t.Errorf("%q: output differs from rg's:\n%s", args, firstDiff(got, string(ref.Stdout)))
		}
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return "got: " + al[i] + "\n rg: " + bl[i]
		}
	}
	return "lengths differ"
}

func TestAdd(t *testing.T) {
	cases := []struct {
		def     string
		name    string // type to look at afterwards
		globs   string // its globs, sorted, ", "-joined
		invalid bool
	}{
		{def: "foo:*.foo", name: "foo", globs: "*.foo"},
		{def: "foo:*.b,*.a", name: "foo", globs: "*.b,*.a"},
		{def: "rust:*.rlib", name: "rust", globs: "*.rlib, *.rs"},
		{def: "foo:include:rust,go", name: "foo", globs: "*.go, *.rs"},
		{def: "rust:include:rust", name: "rust", globs: "*.rs, *.rs"},
		{def: "é1:*.x", name: "é1", globs: "*.x"},
		{def: "foo", invalid: true},
		{def: "foo:", invalid: true},
		{def: ":*.x", invalid: true},
		{def: "fo-o:*.x", invalid: true},
		{def: "all:*.x", invalid: true},
		{def: "foo:bar:baz", invalid: true},
		{def: "foo:include:", invalid: true},
		{def: "foo:include:nosuchtype", invalid: true},
		{def: "a:b:c:d", invalid: true},
	}
	for _, c := range cases {
		b := NewDefaultBuilder()
		err := b.Add(c.def)
		if c.invalid {
			var te *Error
			if !errors.As(err, &te) || err.Error() != "invalid definition (format is type:glob, e.g., html:*.html)" {
				t.Errorf("Add(%q) = %v, want invalid definition", c.def, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Add(%q): %v", c.def, err)
			continue
		}
		got := ""
		for _, d := range b.Definitions() {
			if d.Name == c.name {
				got = strings.Join(d.Globs, ", ")
			}
		}
		if got != c.globs {
			t.Errorf("Add(%q): %s has %q, want %q", c.def, c.name, got, c.globs)
		}
	}
}

func TestClearAndList(t *testing.T) {
	b := NewBuilder()
	for _, def := range []string{"zeta:*.z", "alpha:b*", "alpha:a*"} {
		if err := b.Add(def); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := listOf(t, b), "alpha: a*, b*\nzeta: *.z\n"; got != want {
		t.Errorf("list %q, want %q", got, want)
	}
	b.Clear("zeta")
	b.Clear("all")
	b.Clear("nosuch")
	if got, want := listOf(t, b), "alpha: a*, b*\n"; got != want {
		t.Errorf("after clear: %q, want %q", got, want)
	}
	b.Clear("alpha")
	var buf bytes.Buffer
	wrote, err := WriteList(&buf, b.Definitions())
	if err != nil || wrote || buf.Len() != 0 {
		t.Errorf("empty list: wrote=%v len=%d err=%v", wrote, buf.Len(), err)
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		name  string
		flags Flags
		path  string
		isDir bool
		want  ignore.Match
	}{
		{"select matches", Flags{Select: []string{"rust"}}, "src/main.rs", false, ignore.Whitelist},
		{"select misses", Flags{Select: []string{"rust"}}, "src/main.go", false, ignore.Ignore},
		{"select dir", Flags{Select: []string{"rust"}}, "src", true, ignore.None},
		{"negate matches", Flags{Negate: []string{"rust"}}, "a.rs", false, ignore.Ignore},
		{"negate misses", Flags{Negate: []string{"rust"}}, "a.go", false, ignore.None},
		{"negate wins", Flags{Select: []string{"rust"}, Negate: []string{"rust"}}, "a.rs", false, ignore.Ignore},
		{"other select still", Flags{Select: []string{"rust", "go"}, Negate: []string{"rust"}}, "a.go", false, ignore.Whitelist},
		{"name only", Flags{Select: []string{"rust"}}, "x.rs/main.go", false, ignore.Ignore},
		{"dotfile ext", Flags{Select: []string{"rust"}}, ".rs", false, ignore.Whitelist},
		{"literal name", Flags{Select: []string{"make"}}, "sub/Makefile", false, ignore.Whitelist},
		{"class glob", Flags{Select: []string{"make"}}, "GNUmakefile", false, ignore.Whitelist},
		{"suffix glob", Flags{Select: []string{"cmake"}}, "a/CMakeLists.txt", false, ignore.Whitelist},
		{"complex glob", Flags{Select: []string{"license"}}, "GPL-3.0", false, ignore.Whitelist},
		{"complex glob misses", Flags{Select: []string{"license"}}, "GPL-x", false, ignore.Ignore},
		{"case-sensitive", Flags{Select: []string{"rust"}}, "A.RS", false, ignore.Ignore},
		{"trailing dot has no name", Flags{Select: []string{"rust"}}, "a.rs.", false, ignore.Ignore},
		{"trailing dot, negate only", Flags{Negate: []string{"rust"}}, "a.rs.", false, ignore.None},
		{"all", Flags{Select: []string{"all"}}, "main.go", false, ignore.Whitelist},
		{"all misses", Flags{Select: []string{"all"}}, "x.nosuchext", false, ignore.Ignore},
		{"negate all", Flags{Negate: []string{"all"}}, "main.go", false, ignore.Ignore},
		{"added type", Flags{Add: []string{"foo:*.foo"}, Select: []string{"foo"}}, "a.foo", false, ignore.Whitelist},
		{"comma is literal", Flags{Add: []string{"foo:*.a,*.b"}, Select: []string{"foo"}}, "x.a", false, ignore.Ignore},
		{"comma literal matches", Flags{Add: []string{"foo:*.a,*.b"}, Select: []string{"foo"}}, "x.a,y.b", false, ignore.Whitelist},
		{"later select decides", Flags{Add: []string{"aa:*.x", "bb:*.x"}, Select: []string{"aa"}, Negate: []string{"bb"}}, "f.x", false, ignore.Ignore},
		{"cleared then added", Flags{Clear: []string{"rust"}, Add: []string{"rust:*.rust"}, Select: []string{"rust"}}, "a.rs", false, ignore.Ignore},
	}
	for _, c := range cases {
		b, err := FromFlags(c.flags)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m, err := b.Build()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := m.Match(c.path, c.isDir); got != c.want {
			t.Errorf("%s: Match(%q) = %v, want %v", c.name, c.path, got, c.want)
		}
	}
}

func TestEmptyMatcher(t *testing.T) {
	m, err := NewDefaultBuilder().Build()
	if err != nil {
		t.Fatal(err)
	}
	if !m.Empty() || m.HasSelected() || m.Match("a.rs", false) != ignore.None {
		t.Errorf("matcher without selections is not empty")
	}
	var nilM *Matcher
	if !nilM.Empty() || nilM.Match("a.rs", false) != ignore.None {
		t.Errorf("nil matcher matches")
	}
}

func TestBuildErrors(t *testing.T) {
	cases := []struct {
		flags Flags
		want  string
	}{
		{Flags{Select: []string{"nosuch"}}, "unrecognized file type: nosuch"},
		{Flags{Negate: []string{"nosuch"}}, "unrecognized file type: nosuch"},
		{Flags{Add: []string{"foo:*.[x"}, Select: []string{"foo"}}, "error parsing glob '*.[x': unclosed character class; missing ']'"},
	}
	for _, c := range cases {
		b, err := FromFlags(c.flags)
		if err == nil {
			_, err = b.Build()
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%+v: got %v, want %q", c.flags, err, c.want)
		}
	}
	// A bad glob in a type that is not selected is never compiled.
	b, err := FromFlags(Flags{Add: []string{"foo:*.[x"}, Select: []string{"rust"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(); err != nil {
		t.Errorf("unselected bad glob: %v", err)
	}
	// FromFlags stops at the first invalid --type-add.
	if _, err := FromFlags(Flags{Add: []string{"ok:*.ok", "bad"}}); err == nil {
		t.Errorf("invalid --type-add accepted")
	}
}

// TestMatchAgainstRG selects types with rg and with the matcher over the
// same file names.
func TestMatchAgainstRG(t *testing.T) {
	g := testref.Open(t)
	dir := t.TempDir()
	names := []string{"a.rs", "b.go", "Makefile", "GNUmakefile", "x.min.js", "y.js", "CMakeLists.txt",
		"LICENSE-MIT", "COPYING", "README", "README.md", "foo.h", "foo.H", "bar.hpp", "noext", "a.rs.", "Dockerfile",
		"x.Dockerfile", "build.gradle", "a.cc.in", "z.sh", "q.py", "q.pyi", "t.txt", "m.1", "m.3x"}
	for _, n := range names {
		if err := writeFile(dir + "/" + n); err != nil {
			t.Fatal(err)
		}
	}
	selections := []Flags{
		{Select: []string{"rust"}},
		{Select: []string{"make", "docker"}},
		{Select: []string{"all"}},
		{Negate: []string{"all"}},
		{Select: []string{"c", "cpp"}, Negate: []string{"c"}},
		{Select: []string{"license", "readme"}},
		{Negate: []string{"js", "py"}},
		{Select: []string{"man", "sh", "txt"}},
	}
	for _, f := range selections {
		var args []string
		for _, s := range f.Select {
			args = append(args, "-t", s)
		}
		for _, s := range f.Negate {
			args = append(args, "-T", s)
		}
		vars := map[string]string{"DIR": dir}
		ref := g.Run(t, testref.Case{Args: append([]string{"--no-config", "--files", "--sort", "path"}, args...),
			Dir: dir, Vars: vars, Input: testref.Tree(vars, dir)})
		out := ref.Stdout
		if ref.Code != 0 && len(out) != 0 {
			t.Fatalf("rg %q: exit %d", args, ref.Code)
		}
		b, err := FromFlags(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, n := range sortedNames(names) {
			if m.Match(n, false) != ignore.Ignore {
				got = append(got, n)
			}
		}
		want := strings.Fields(string(out))
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%q:\n got %q\n  rg %q", args, got, want)
		}
	}
}

func writeFile(path string) error { return os.WriteFile(path, nil, 0o644) }

func sortedNames(names []string) []string {
	s := append([]string(nil), names...)
	sort.Strings(s)
	return s
}

// singleGlobMatcher selects one type made of glob g.
func singleGlobMatcher(g string) (*Matcher, error) {
	b := NewBuilder()
	b.defs["t"] = []string{g}
	b.Select("t")
	return b.Build()
}

// agreement compares, for a type made of glob g alone, the matcher's
// answers with the glob engine's.
type agreement struct {
	g  string
	m  *Matcher
	cg *ignore.Glob
}

func newAgreement(t *testing.T, g string) *agreement {
	t.Helper()
	m, err := singleGlobMatcher(g)
	cg, gerr := ignore.CompileGlob(g, ignore.GlobOptions{LiteralSeparator: true, BackslashEscape: true})
	if (err == nil) != (gerr == nil) {
		t.Fatalf("glob %q: matcher error %v, glob error %v", g, err, gerr)
	}
	if err != nil {
		return nil
	}
	return &agreement{g: g, m: m, cg: cg}
}

func (a *agreement) check(t *testing.T, name string) {
	t.Helper()
	if a == nil {
		return
	}
	want := ignore.Ignore
	if a.cg.Match(name) {
		want = ignore.Whitelist
	}
	if got := a.m.Match(name, false); got != want {
		t.Errorf("glob %q, name %q: %v, glob engine says %v", a.g, name, got, want)
	}
}

// TestFastPathsAgreeWithGlobs checks the literal, extension and suffix
// shortcuts against the glob engine over every built-in glob.
func TestFastPathsAgreeWithGlobs(t *testing.T) {
	var names []string
	for _, d := range defaultTypes {
		for _, g := range d.Globs {
			r := strings.NewReplacer("*", "ab", "?", "x", "[", "", "]", "", "{", "", "}", "")
			names = append(names, r.Replace(g), strings.ReplaceAll(g, "*", ""), "x"+g, g+"x")
		}
	}
	names = append(names, "a", ".rs", "rs", "a.rs.bak", "Makefile", "makefile.am")
	for _, d := range defaultTypes {
		for _, g := range d.Globs {
			a := newAgreement(t, g)
			for _, n := range names {
				if n == "" || n[len(n)-1] == '.' || strings.Contains(n, "/") {
					continue
				}
				a.check(t, n)
			}
		}
	}
}

// FuzzTypeMatch checks that no definition or name panics, and that the
// shortcuts agree with the glob engine.
func FuzzTypeMatch(f *testing.F) {
	f.Add("*.rs", "main.rs")
	f.Add("*.cc.in", "x.cc.in")
	f.Add("Makefile", "Makefile")
	f.Add("*.[ch]", "a.h")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, g, name string) {
		b := NewDefaultBuilder()
		_ = b.Add("fz:" + g)
		b.Select("fz")
		if m, err := b.Build(); err == nil {
			m.Match(name, false)
			m.Match(name, true)
		}
		if g == "" || strings.ContainsAny(g, ":") || name == "" || name[len(name)-1] == '.' || strings.Contains(name, "/") {
			return
		}
		newAgreement(t, g).check(t, name)
	})
}
