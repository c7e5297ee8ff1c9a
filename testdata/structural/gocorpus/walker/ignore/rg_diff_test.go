package ignore

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// The differential tests build a small tree, run `rg --files` on it and
// compare with a tiny walk of our own that applies this package's
// matchers the way rg's walker does: overrides first, then the ignore
// files from the deepest directory up, the first verdict winning; an
// ignored directory is not entered. rg is the reference of
// internal/testref: run live, or its answers recorded under testdata/golden.

// runRG answers `rg args...` in dir, the case identified by the files of
// the folders of vars (placeholders in the golden file). rg lists files in
// no fixed order: answers are recorded with their entries sorted.
func runRG(t *testing.T, name, dir string, vars map[string]string, args ...string) testref.Output {
	t.Helper()
	var names, folders []string
	for n := range vars {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		folders = append(folders, vars[n])
	}
	out := testref.Open(t).Run(t, testref.Case{Name: name, Args: args, Dir: dir, Vars: vars,
		Input: testref.Tree(vars, folders...), Canon: sortEntries})
	// rg 15 starts its messages with "rg: "; the package reports bare
	// ones (the command line adds the prefix).
	out.Stderr = []byte(strings.ReplaceAll("\n"+string(out.Stderr), "\nrg: ", "\n")[1:])
	return out
}

// sortEntries sorts the NUL-terminated entries of stdout and the lines of
// stderr.
func sortEntries(o testref.Output) testref.Output {
	entries := strings.SplitAfter(string(o.Stdout), "\x00")
	sort.Strings(entries)
	o.Stdout = []byte(strings.Join(entries, ""))
	o.Stderr = testref.SortLines(testref.Output{Stdout: o.Stderr}).Stdout
	return o
}

// diffTree is the tree every differential case is run on. A name ending
// in '/' is an empty directory.
var diffTree = []string{
	"a.txt", "b.md", "c.rs", "foo", "foo.", "bar.", "Foo.TXT", "README",
	"#c", "!bang", "sp ", "sp", `back\slash`, "*star", "?q", "[x]", "{a}", "a,b",
	"é", "É", "éa", "ÉA", ".hidden", "x.tar.gz",
	"dir/a.txt", "dir/sub/a.txt", "dir/sub/deep/c.rs", "dir/foo/x", "dir/foo./y",
	"src/main.rs", "src/lib.rs", "src/keep/k.rs", "src/drop/d.rs", "src/README",
	"build/out.o", "build/keep/k.o", "keep/k.txt", "Build/B.o",
	"a/b/c/d.txt", "a/x/b/y.txt", "a/b/y.txt", "ab/c.txt", "axb/c.txt", "a/b.txt",
	"target/debug/t", "target/release/r", "empty/",
	"docs/one.md", "docs/two.MD", "docs/api/v1.md",
	"bad\xffname", "bad\xff\xfe2", "raw/\xe9t\xe9",
}

type diffCase struct {
	name    string
	ignores map[string]string // directory ("" is the root) → .ignore content
	ci      bool              // --ignore-file-case-insensitive
	globs   []string          // -g globs, in order
	iglobs  []string          // --iglob globs, in order (rg adds them after the -g ones)
	gci     bool              // --glob-case-insensitive
}

func root(s string) map[string]string { return map[string]string{"": s} }

var diffCases = []diffCase{
	// gitignore lines
	{name: "basename any depth", ignores: root("a.txt\n")},
	{name: "star extension", ignores: root("*.rs\n")},
	{name: "star no slash", ignores: root("a*\n")},
	{name: "star does not cross slash", ignores: root("a/*.txt\n")},
	{name: "question", ignores: root("?.txt\n")},
	{name: "question one byte", ignores: root("?\n")},
	{name: "two questions", ignores: root("??\n")},
	{name: "comment", ignores: root("#c\n# a.txt\n")},
	{name: "escaped hash", ignores: root("\\#c\n")},
	{name: "escaped bang", ignores: root("\\!bang\n")},
	{name: "comment not after space", ignores: root(" #c\nb.md\n")},
	{name: "blank lines", ignores: root("\n\n   \na.txt\n\n")},
	{name: "trailing spaces trimmed", ignores: root("a.txt   \nb.md\t\n")},
	{name: "escaped trailing space", ignores: root("sp\\ \n")},
	{name: "escaped space then more spaces", ignores: root("sp\\  \nb.md\n")},
	{name: "negation", ignores: root("*.txt\n!a.txt\n")},
	{name: "negation order", ignores: root("!a.txt\n*.txt\n")},
	{name: "negation inside ignored dir", ignores: root("dir/\n!dir/a.txt\n")},
	{name: "negation of star dirs", ignores: root("/*/\n!/src/\n")},
	{name: "star then keep dir", ignores: root("/*\n!/keep/\n!/src\n")},
	{name: "bang alone whitelists all", ignores: root("*.txt\n!\n")},
	{name: "leading slash anchors", ignores: root("/a.txt\n/foo\n")},
	{name: "middle slash anchors", ignores: root("sub/a.txt\ndir/sub/deep\n")},
	{name: "trailing slash dirs only", ignores: root("foo/\nkeep/\n")},
	{name: "trailing slash anchored", ignores: root("/dir/foo/\n")},
	{name: "doublestar prefix", ignores: root("**/b/*.txt\n")},
	{name: "doublestar prefix dir", ignores: root("**/keep\n")},
	{name: "doublestar suffix", ignores: root("src/**\n!src/keep/k.rs\n")},
	{name: "doublestar middle", ignores: root("a/**/y.txt\n")},
	{name: "doublestar middle zero", ignores: root("a/**/b.txt\n")},
	{name: "doublestar alone", ignores: root("**\n!*.md\n")},
	{name: "doublestar slash dirs", ignores: root("**/\n")},
	{name: "doublestar inside name", ignores: root("a**\nsrc**\n")},
	{name: "class", ignores: root("[ab].*\n")},
	{name: "class range", ignores: root("[a-c].rs\n[0-9]*\n")},
	{name: "negated class", ignores: root("[!a].txt\n[^b].md\n")},
	{name: "class matches slash", ignores: root("a[!z]b\n")},
	{name: "class with bracket", ignores: root("[]x[]\n")},
	{name: "class with dash", ignores: root("[-x]*\n")},
	{name: "class non-ascii one byte", ignores: root("[é]\n[é][é]a\n")},
	{name: "escapes", ignores: root("\\*star\n\\?q\n\\[x\\]\n")},
	{name: "escaped backslash", ignores: root("back\\\\slash\n")},
	{name: "alternation", ignores: root("*.{rs,md}\n")},
	{name: "alternation dirs", ignores: root("{src,build}/\n")},
	{name: "alternation with doublestar", ignores: root("{**/k.*,c.rs}\n")},
	{name: "alternation literal braces name", ignores: root("\\{a\\}\n")},
	{name: "unopened brace", ignores: root("b.md}\n")},
	{name: "comma literal", ignores: root("a,b\n")},
	{name: "trailing dot quirk", ignores: root("foo.\nbar.\n")},
	{name: "trailing dot star quirk", ignores: root("*.\n")},
	{name: "trailing dot required extension", ignores: root("b*.\nf*o.\n")},
	{name: "trailing dot anchored", ignores: root("/foo.\n")},
	{name: "trailing dot dir", ignores: root("foo./\n")},
	{name: "extension multi", ignores: root("*.tar.gz\n")},
	{name: "hidden", ignores: root(".*\n")},
	{name: "crlf", ignores: root("a.txt\r\nb.md\r\n")},
	{name: "invalid utf8 stops", ignores: root("a.txt\n\xff\nb.md\n")},
	{name: "bom is not stripped", ignores: root("\ufeffa.txt\nb.md\n")},
	{name: "bad lines skipped", ignores: root("a.txt\n[a\n{x,{y}}\nb.md\nfoo\\\n")},
	{name: "invalid utf8 names one byte", ignores: root("bad?name\nbad??2\n")},
	{name: "invalid utf8 names star", ignores: root("raw/*t*\n")},
	{name: "case sensitive", ignores: root("FOO.txt\nbuild\n")},
	{name: "case insensitive", ignores: root("FOO.txt\nbuild/\nREADME\n*.md\n[!A].TXT\n"), ci: true},
	{name: "case insensitive non-ascii", ignores: root("éa\n"), ci: true},
	{name: "case insensitive trailing dot", ignores: root("FOO.\n"), ci: true},
	{name: "nested ignore", ignores: map[string]string{"": "*.txt\n", "dir": "!a.txt\n", "dir/sub": "/a.txt\n"}},
	{name: "nested anchored", ignores: map[string]string{"src": "/keep\n/lib.rs\n", "a": "b/\n"}},
	{name: "nested doublestar", ignores: map[string]string{"a": "**/y.txt\n!b/y.txt\n"}},

	// overrides
	{name: "glob include", globs: []string{"*.rs"}},
	{name: "glob basename any depth", globs: []string{"a*b"}},
	{name: "glob star no slash", globs: []string{"src/*.rs"}},
	{name: "glob dir name only", globs: []string{"src"}},
	{name: "glob dir contents", globs: []string{"src/**"}},
	{name: "glob exclude", globs: []string{"!src"}},
	{name: "glob exclude files", globs: []string{"!*.txt"}},
	{name: "glob anchored", globs: []string{"/a.txt"}},
	{name: "glob dirs only", globs: []string{"*/"}},
	{name: "glob exclude dirs", globs: []string{"!*/"}},
	{name: "glob last wins 1", globs: []string{"*.rs", "!src/keep/*"}},
	{name: "glob last wins 2", globs: []string{"!src/keep/*", "*.rs"}},
	{name: "glob exclude dir then include", globs: []string{"!src", "*.rs"}},
	{name: "glob doublestar middle", globs: []string{"a/**/*.txt"}},
	{name: "glob alternation", globs: []string{"*.{md,MD}"}},
	{name: "glob comment", globs: []string{"#c", "*.md"}},
	{name: "glob class", globs: []string{"[ab]*"}},
	{name: "glob case", globs: []string{"*.MD"}},
	{name: "iglob", iglobs: []string{"*.MD"}},
	{name: "iglob after glob", globs: []string{"*.md"}, iglobs: []string{"!DOCS/API/*"}},
	{name: "glob case insensitive", globs: []string{"*.TXT", "!A.*"}, gci: true},
	{name: "glob with ignore", ignores: root("*.md\n"), globs: []string{"*.md", "!two*"}},
	{name: "glob exclude with ignore whitelist", ignores: root("!a.txt\n"), globs: []string{"!a.txt"}},
	{name: "glob trailing dot", globs: []string{"foo."}},
	{name: "glob invalid utf8 names", globs: []string{"bad?*", "!*2"}},
	{name: "glob empty and blank", globs: []string{"", "  "}},
	{name: "glob comment only", globs: []string{"#*.rs"}},
	{name: "glob bang alone", globs: []string{"!"}},
	{name: "glob only excludes", globs: []string{"!*.rs", "!docs"}},
}

func TestDiffRg(t *testing.T) {
	for _, tc := range diffCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			makeTree(t, dir, diffTree)
			for d, content := range tc.ignores {
				if err := os.WriteFile(filepath.Join(dir, d, ".ignore"), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"--files", "--hidden", "--null", "--no-config", "--no-ignore-parent"}
			if tc.ci {
				args = append(args, "--ignore-file-case-insensitive")
			}
			if tc.gci {
				args = append(args, "--glob-case-insensitive")
			}
			for _, g := range tc.globs {
				args = append(args, "-g", g)
			}
			for _, g := range tc.iglobs {
				args = append(args, "--iglob", g)
			}
			out := runRG(t, tc.name, dir, map[string]string{"DIR": dir}, args...) // exit 1 when nothing is listed
			want := splitNul(string(out.Stdout))

			got, gotErrs := ourWalk(t, dir, tc)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("files differ\nrg:  %q\nours: %q", want, got)
			}
			wantErrs := splitLines(string(out.Stderr))
			if strings.Join(gotErrs, "\n") != strings.Join(wantErrs, "\n") {
				t.Errorf("warnings differ\nrg:  %q\nours: %q", wantErrs, gotErrs)
			}
		})
	}
}

func makeTree(t *testing.T, dir string, paths []string) {
	t.Helper()
	for _, p := range paths {
		full := filepath.Join(dir, p)
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func splitNul(s string) []string {
	out := []string{}
	for _, p := range strings.Split(s, "\x00") {
		if p != "" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func splitLines(s string) []string {
	out := []string{}
	for _, p := range strings.Split(s, "\n") {
		if p != "" {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// levelMatcher is one directory's .ignore, built twice: rooted at the
// relative directory (matched with "./"-prefixed paths, as rg does) and
// rooted at the absolute directory (matched with absolute paths). Both
// must agree.
type levelMatcher struct {
	rel, abs *Gitignore
}

func ourWalk(t *testing.T, dir string, tc diffCase) ([]string, []string) {
	t.Helper()
	var globs []OverrideGlob
	for _, g := range tc.globs {
		globs = append(globs, OverrideGlob{Pattern: g, CaseInsensitive: tc.gci})
	}
	for _, g := range tc.iglobs {
		globs = append(globs, OverrideGlob{Pattern: g, CaseInsensitive: true})
	}
	ov, err := NewOverride(dir, globs)
	if err != nil {
		t.Fatalf("NewOverride: %v", err)
	}
	var files, warnings []string
	var visit func(rel string, chain []levelMatcher)
	visit = func(rel string, chain []levelMatcher) {
		relDir := "./" + rel
		if rel == "" {
			relDir = "."
		}
		if data, err := os.ReadFile(filepath.Join(dir, rel, ".ignore")); err == nil {
			relGi, errs := NewGitignore(relDir, data, tc.ci)
			absGi, _ := NewGitignore(filepath.Join(dir, rel), data, tc.ci)
			for _, e := range errs {
				name := "./" + rel + "/.ignore"
				if rel == "" {
					name = "./.ignore"
				}
				warnings = append(warnings, name+": "+e.Error())
			}
			chain = append(chain[:len(chain):len(chain)], levelMatcher{relGi, absGi})
		}
		entries, err := os.ReadDir(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			p := e.Name()
			if rel != "" {
				p = rel + "/" + p
			}
			isDir := e.IsDir()
			m := ov.Match(p, isDir)
			if abs := ov.Match(filepath.Join(dir, p), isDir); abs != m {
				t.Errorf("override: %q is %v, its absolute path %v", p, m, abs)
			}
			for i := len(chain) - 1; i >= 0 && m == None; i-- {
				m = chain[i].rel.Match("./"+p, isDir)
				if abs := chain[i].abs.Match(filepath.Join(dir, p), isDir); abs != m {
					t.Errorf("ignore level %d: %q is %v, its absolute path %v", i, p, m, abs)
				}
			}
			if m == Ignore {
				continue
			}
			if isDir {
				visit(p, chain)
			} else {
				files = append(files, p)
			}
		}
	}
	visit("", nil)
	sort.Strings(files)
	sort.Strings(warnings)
	if files == nil {
		files = []string{}
	}
	if warnings == nil {
		warnings = []string{}
	}
	return files, warnings
}

// TestDiffRgGlobErrors checks that a bad -g glob fails with rg's message,
// and that one rg accepts (it lists no file in an empty folder: exit 1) is
// accepted.
func TestDiffRgGlobErrors(t *testing.T) {
	for _, g := range []string{"[a", "{a,b", "{a,{b}}", `\`, "[z-a]", "!/[b", "x[中", "  [q  "} {
		dir := t.TempDir()
		out := runRG(t, g, dir, map[string]string{"DIR": dir}, "--files", "--no-config", "-g", g)
		code, stderr := out.Code, string(out.Stderr)
		_, ourErr := NewOverride(dir, []OverrideGlob{{Pattern: g}})
		if code == 1 && stderr == "" {
			if ourErr != nil {
				t.Errorf("-g %q: rg accepts it, NewOverride says %v", g, ourErr)
			}
			continue
		}
		if ourErr == nil {
			t.Errorf("-g %q: NewOverride accepts it, rg exits %d: %q", g, code, stderr)
			continue
		}
		if code != 2 || strings.TrimSuffix(stderr, "\n") != ourErr.Error() {
			t.Errorf("-g %q: rg exits %d with %q, ours %q", g, code, stderr, ourErr.Error())
		}
	}
}

// TestDiffRgOverrideOutsideCwd searches a tree by its absolute path from
// another directory: rg roots -g globs at the current directory, so the
// walked paths are not stripped and anchored globs stop matching.
func TestDiffRgOverrideOutsideCwd(t *testing.T) {
	tree, cwd := t.TempDir(), t.TempDir()
	makeTree(t, tree, diffTree)
	for _, globs := range [][]string{
		{"/a.txt"}, {"src/*.rs"}, {"*.rs"}, {"!src"}, {"**/src/*.rs"}, {"*/"}, {"!/src"},
	} {
		args := []string{"--files", "--hidden", "--null", "--no-config", "--no-ignore-parent"}
		var ogs []OverrideGlob
		for _, g := range globs {
			args = append(args, "-g", g)
			ogs = append(ogs, OverrideGlob{Pattern: g})
		}
		out := runRG(t, strings.Join(globs, " "), cwd, map[string]string{"TREE": tree, "CWD": cwd}, append(args, tree)...)
		want := splitNul(string(out.Stdout))

		ov, err := NewOverride(cwd, ogs)
		if err != nil {
			t.Fatal(err)
		}
		got := []string{}
		var visit func(dir string)
		visit = func(dir string) {
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				p := dir + "/" + e.Name()
				if ov.Match(p, e.IsDir()) == Ignore {
					continue
				}
				if e.IsDir() {
					visit(p)
				} else {
					got = append(got, p)
				}
			}
		}
		visit(tree)
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("-g %q from another directory\nrg:   %q\nours: %q", globs, want, got)
		}
	}
}
