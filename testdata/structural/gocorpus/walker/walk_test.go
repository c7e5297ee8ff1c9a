package walker

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evgrep/evgrep/internal/testref"
	"github.com/evgrep/evgrep/walker/ignore"
	"github.com/evgrep/evgrep/walker/types"
)

// walkCase is one walk with its expected files and error lines (both
// compared as sorted sets), checked against the expectation and against
// `rg --files` with args (live or recorded, see runRG).
type walkCase struct {
	name  string
	spec  []string // tree, see mkTree
	home  []string // files under $HOME
	cwd   string   // directory of the tree to run in ("" = its top)
	roots []string
	args  []string // rg's flags for the same walk
	opt   func(*Options)
	want  []string
	errs  []string
	// noRG marks a walk ripgrep has no flags for.
	noRG bool
}

func (c walkCase) check(t *testing.T) {
	home := isolate(t)
	mkTree(t, home, c.home...)
	dir := t.TempDir()
	mkTree(t, dir, c.spec...)
	cwd := filepath.Join(dir, c.cwd)
	t.Chdir(cwd)
	opts := DefaultOptions()
	if c.opt != nil {
		c.opt(&opts)
	}
	roots := slices.Clone(c.roots)
	for i, r := range roots {
		roots[i] = strings.ReplaceAll(r, "$TOP", dir)
	}
	got := run(t, roots, opts)
	want := slices.Clone(c.want)
	errs := slices.Clone(c.errs)
	for i := range errs {
		errs[i] = strings.ReplaceAll(errs[i], "$TOP", dir)
	}
	for i := range want {
		want[i] = strings.ReplaceAll(want[i], "$TOP", dir)
	}
	if !slices.Equal(sorted(got.files), sorted(want)) {
		t.Errorf("files:\n got %q\nwant %q", sorted(got.files), sorted(want))
	}
	if !slices.Equal(sorted(got.errs), sorted(errs)) {
		t.Errorf("errors:\n got %q\nwant %q", sorted(got.errs), sorted(errs))
	}
	if c.noRG {
		return
	}
	rgFiles, rgErrs, _ := runRG(t, cwd, append(slices.Clone(c.args), roots...)...)
	if !slices.Equal(sorted(got.files), sorted(rgFiles)) {
		t.Errorf("files differ from rg %q:\n got %q\n  rg %q", c.args, sorted(got.files), sorted(rgFiles))
	}
	if !slices.Equal(sorted(got.errs), sorted(rgErrs)) {
		t.Errorf("errors differ from rg %q:\n got %q\n  rg %q", c.args, sorted(got.errs), sorted(rgErrs))
	}
}

func TestIgnoreFiles(t *testing.T) {
	cases := []walkCase{
		{name: "gitignore in repo", spec: []string{".git/", ".gitignore = *.log", "a.log", "b.rs"},
			want: []string{"b.rs"}},
		{name: "gitignore outside repo", spec: []string{".gitignore = *.log", "a.log", "b.rs"},
			want: []string{"a.log", "b.rs"}},
		{name: "no-require-git", spec: []string{".gitignore = *.log", "a.log", "b.rs"},
			args: []string{"--no-require-git"}, opt: func(o *Options) { o.RequireGit = false },
			want: []string{"b.rs"}},
		{name: "git file counts as repo", spec: []string{".git = gitdir: elsewhere", ".gitignore = *.log", "a.log", "b.rs"},
			want: []string{"b.rs"}},
		{name: "dot ignore without git", spec: []string{".ignore = *.log", "a.log", "b.rs"},
			want: []string{"b.rs"}},
		{name: "no-ignore-dot", spec: []string{".ignore = *.log", "a.log", "b.rs"},
			args: []string{"--no-ignore-dot"}, opt: func(o *Options) { o.NoIgnoreDot = true },
			want: []string{"a.log", "b.rs"}},
		{name: "no-ignore-dot disables rgignore too (rg 15)", spec: []string{".rgignore = *.log", "a.log", "b.rs"},
			args: []string{"--no-ignore-dot"}, opt: func(o *Options) { o.NoIgnoreDot = true },
			want: []string{"a.log", "b.rs"}},
		{name: "no-ignore disables rgignore", spec: []string{".rgignore = *.log", "a.log", "b.rs"},
			args: []string{"--no-ignore"}, opt: func(o *Options) { o.NoIgnore = true },
			want: []string{"a.log", "b.rs"}},
		{name: "rgignore beats ignore", spec: []string{".ignore = *.log", ".rgignore = !keep.log", "keep.log", "x.log"},
			want: []string{"keep.log"}},
		{name: "ignore beats gitignore", spec: []string{".git/", ".gitignore = !a.log", ".ignore = *.log", "a.log"},
			want: nil},
		{name: "ignore whitelist beats gitignore", spec: []string{".git/", ".gitignore = *.log", ".ignore = !a.log", "a.log"},
			want: []string{"a.log"}},
		{name: "nearest gitignore wins", spec: []string{".git/", ".gitignore = *.log", "sub/.gitignore = !keep.log", "sub/keep.log", "keep.log"},
			want: []string{"sub/keep.log"}},
		{name: "ignored dir not entered", spec: []string{".git/", ".gitignore = build/", "build/a.rs", "sub/build = file", "c.rs"},
			want: []string{"c.rs", "sub/build"}},
		{name: "no-ignore-vcs keeps dot ignore", spec: []string{".git/", ".gitignore = *.log", ".ignore = *.txt", "a.log", "b.txt"},
			args: []string{"--no-ignore-vcs"}, opt: func(o *Options) { o.NoIgnoreVCS = true },
			want: []string{"a.log"}},
		{name: "exclude", spec: []string{".git/info/exclude = *.log", "a.log", "b.rs"},
			want: []string{"b.rs"}},
		{name: "no-ignore-exclude", spec: []string{".git/info/exclude = *.log", "a.log", "b.rs"},
			args: []string{"--no-ignore-exclude"}, opt: func(o *Options) { o.NoIgnoreExclude = true },
			want: []string{"a.log", "b.rs"}},
		{name: "gitignore beats exclude", spec: []string{".git/info/exclude = *.log", ".gitignore = !a.log", "a.log", "b.log"},
			want: []string{"a.log"}},
		{name: "case-insensitive ignore files", spec: []string{".ignore = *.log", "A.LOG", "b.rs"},
			args: []string{"--ignore-file-case-insensitive"}, opt: func(o *Options) { o.IgnoreCaseInsensitive = true },
			want: []string{"b.rs"}},
		{name: "ignore files case-sensitive by default", spec: []string{".ignore = *.log", "A.LOG", "b.rs"},
			want: []string{"A.LOG", "b.rs"}},
		{name: "ignore-file", spec: []string{"ign = *.rs", "a.rs", "b.txt"},
			args: []string{"--ignore-file", "ign"}, opt: func(o *Options) { o.IgnoreFiles = []string{"ign"} },
			want: []string{"b.txt", "ign"}},
		{name: "later ignore-file wins", spec: []string{"i1 = *.rs", "i2 = !a.rs", "a.rs", "b.rs"},
			args: []string{"--ignore-file", "i1", "--ignore-file", "i2"}, opt: func(o *Options) { o.IgnoreFiles = []string{"i1", "i2"} },
			want: []string{"a.rs", "i1", "i2"}},
		{name: "ignore-file not case-insensitive", spec: []string{"ign = *.rs", "A.RS"},
			args: []string{"--ignore-file", "ign", "--ignore-file-case-insensitive"},
			opt:  func(o *Options) { o.IgnoreFiles = []string{"ign"}; o.IgnoreCaseInsensitive = true },
			want: []string{"A.RS", "ign"}},
		{name: "ignore-file survives no-ignore", spec: []string{"ign = *.rs", "a.rs", "b.txt"},
			args: []string{"--no-ignore", "--ignore-file", "ign"},
			opt:  func(o *Options) { o.NoIgnore = true; o.IgnoreFiles = []string{"ign"} },
			want: []string{"b.txt", "ign"}},
		{name: "no-ignore-files", spec: []string{"ign = *.rs", "a.rs"},
			args: []string{"--ignore-file", "ign", "--no-ignore-files"},
			opt:  func(o *Options) { o.IgnoreFiles = []string{"ign"}; o.NoIgnoreFiles = true },
			want: []string{"a.rs", "ign"}},
		{name: "missing ignore-file", spec: []string{"a.rs"},
			args: []string{"--ignore-file", "nope"}, opt: func(o *Options) { o.IgnoreFiles = []string{"nope"} },
			want: []string{"a.rs"}, errs: []string{"nope: No such file or directory (os error 2)"}},
		{name: "bad ignore line reported", spec: []string{".ignore = a}\\n*.log", "x.log", "y.rs"},
			want: []string{"y.rs"}, errs: []string{"./.ignore: line 1: error parsing glob 'a}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"}},
		{name: "ignore-file stops at a non-UTF-8 line", spec: []string{"badutf = a\\n\xff\\nb", "a", "b"},
			args: []string{"--ignore-file", "badutf"}, opt: func(o *Options) { o.IgnoreFiles = []string{"badutf"} },
			want: []string{"b", "badutf"}, errs: []string{"badutf: line 2: stream did not contain valid UTF-8"}},
		{name: "non-UTF-8 line alone is silent", spec: []string{".ignore = a\\n\xff\\nb", "a", "b"},
			want: []string{"b"}},
		{name: "non-UTF-8 line reported with other errors", spec: []string{".ignore = a}\\n\xff", "x"},
			want: []string{"x"}, errs: []string{
				"./.ignore: line 1: error parsing glob 'a}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)",
				"./.ignore: line 2: stream did not contain valid UTF-8"}},
		{name: "bad ignore line with root", spec: []string{"d/.ignore = a}\\n*.log", "d/x.log", "d/y.rs"},
			roots: []string{"d"},
			want:  []string{"d/y.rs"}, errs: []string{"d/.ignore: line 1: error parsing glob 'a}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

// TestWorktreeExclude checks .git/info/exclude of a linked worktree: its
// .git file points into the main repository, whose commondir names the
// directory holding info/exclude.
func TestWorktreeExclude(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	gitdir := filepath.Join(dir, "main/.git/worktrees/wt")
	mkTree(t, dir,
		"main/.git/info/exclude = *.log",
		"main/.git/worktrees/wt/commondir = ../..\\n",
		"wt/.git = gitdir: "+gitdir+"\\n",
		"wt/a.log", "wt/b.rs")
	t.Chdir(filepath.Join(dir, "wt"))
	got := run(t, nil, DefaultOptions())
	if !slices.Equal(got.files, []string{"b.rs"}) {
		t.Errorf("got %q, want b.rs only", got.files)
	}
	rgFiles, _, _ := runRG(t, ".")
	if !slices.Equal(sorted(got.files), sorted(rgFiles)) {
		t.Errorf("got %q, rg %q", got.files, rgFiles)
	}
}

func TestParentAndGlobalIgnores(t *testing.T) {
	cases := []walkCase{
		{name: "parent ignore", spec: []string{"top/.ignore = *.log", "top/work/a.log", "top/work/b.rs"},
			cwd: "top/work", want: []string{"b.rs"}},
		{name: "no-ignore-parent", spec: []string{"top/.ignore = *.log", "top/work/a.log", "top/work/b.rs"},
			cwd: "top/work", args: []string{"--no-ignore-parent"}, opt: func(o *Options) { o.NoIgnoreParent = true },
			want: []string{"a.log", "b.rs"}},
		{name: "parent gitignore inside repo", spec: []string{"top/.git/", "top/.gitignore = *.log", "top/work/a.log", "top/work/b.rs"},
			cwd: "top/work", want: []string{"b.rs"}},
		{name: "parent gitignore above repo top", spec: []string{"top/.gitignore = *.log", "top/work/.git/", "top/work/a.log", "top/work/b.rs"},
			cwd: "top/work", want: []string{"a.log", "b.rs"}},
		{name: "parent repo makes child gitignore count with no-ignore-parent",
			spec: []string{"top/.git/", "top/work/.gitignore = *.log", "top/work/a.log", "top/work/b.rs"},
			cwd:  "top/work", args: []string{"--no-ignore-parent"}, opt: func(o *Options) { o.NoIgnoreParent = true },
			want: []string{"b.rs"}},
		{name: "anchored parent pattern, implicit root", spec: []string{"top/.ignore = /work/sub/a.rs", "top/work/sub/a.rs", "top/work/sub/b.rs"},
			cwd: "top/work", want: []string{"sub/b.rs"}},
		{name: "anchored parent pattern, relative root (rg 15)", spec: []string{"top/.ignore = /work/sub/a.rs", "top/work/sub/a.rs", "top/work/sub/b.rs"},
			cwd: "top/work", roots: []string{"sub"}, want: []string{"sub/b.rs"}},
		{name: "anchored parent pattern, absolute root", spec: []string{"top/.ignore = /work/sub/a.rs", "top/work/sub/a.rs", "top/work/sub/b.rs"},
			cwd: "top/work", roots: []string{"$TOP/top/work/sub"}, want: []string{"$TOP/top/work/sub/b.rs"}},
		{name: "global excludes default path", home: []string{".config/git/ignore = *.log"},
			spec: []string{".git/", "a.log", "b.rs"}, want: []string{"b.rs"}},
		{name: "global excludes needs a repo", home: []string{".config/git/ignore = *.log"},
			spec: []string{"a.log", "b.rs"}, want: []string{"a.log", "b.rs"}},
		{name: "no-ignore-global", home: []string{".config/git/ignore = *.log"},
			spec: []string{".git/", "a.log", "b.rs"}, args: []string{"--no-ignore-global"},
			opt: func(o *Options) { o.NoIgnoreGlobal = true }, want: []string{"a.log", "b.rs"}},
		{name: "core.excludesFile with tilde", home: []string{".gitconfig = [core]\\n\texcludesFile = ~/my-ignore\\n", "my-ignore = *.rs"},
			spec: []string{".git/", "a.log", "b.rs"}, want: []string{"a.log"}},
		{name: "gitignore beats global", home: []string{".config/git/ignore = *.log"},
			spec: []string{".git/", ".gitignore = !a.log", "a.log", "b.log"}, want: []string{"a.log"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

func TestHiddenGlobsTypes(t *testing.T) {
	rust := func(sel, neg []string) func(*Options) {
		return func(o *Options) {
			b, err := types.FromFlags(types.Flags{Select: sel, Negate: neg})
			if err != nil {
				panic(err)
			}
			o.Types, err = b.Build()
			if err != nil {
				panic(err)
			}
		}
	}
	tree := []string{".h.rs", ".hd/x.rs", "a.rs", "b.txt", "sub/c.rs", "sub/d.py", ".git/HEAD"}
	cases := []walkCase{
		{name: "hidden skipped", spec: tree, want: []string{"a.rs", "b.txt", "sub/c.rs", "sub/d.py"}},
		{name: "hidden shown, .git too", spec: tree, args: []string{"--hidden"}, opt: func(o *Options) { o.Hidden = true },
			want: []string{".git/HEAD", ".h.rs", ".hd/x.rs", "a.rs", "b.txt", "sub/c.rs", "sub/d.py"}},
		{name: "skip git dir", spec: tree, noRG: true, opt: func(o *Options) { o.Hidden = true; o.SkipGitDir = true },
			want: []string{".h.rs", ".hd/x.rs", "a.rs", "b.txt", "sub/c.rs", "sub/d.py"}},
		{name: "name ending in dot is not hidden", spec: []string{".x.", ".y"}, want: []string{".x."}},
		{name: "whitelist line shows a hidden file", spec: []string{".ignore = !.h.rs", ".h.rs", ".other"},
			want: []string{".h.rs"}},
		{name: "glob whitelists", spec: tree, args: []string{"-g", "*.rs"},
			opt:  func(o *Options) { o.Globs = []ignore.OverrideGlob{{Pattern: "*.rs"}} },
			want: []string{".h.rs", "a.rs", "sub/c.rs"}},
		{name: "negated glob", spec: tree, args: []string{"-g", "!*.rs"},
			opt:  func(o *Options) { o.Globs = []ignore.OverrideGlob{{Pattern: "!*.rs"}} },
			want: []string{"b.txt", "sub/d.py"}},
		{name: "glob beats ignore file", spec: []string{".ignore = *.log", "a.log", "b.rs"}, args: []string{"-g", "*.log"},
			opt:  func(o *Options) { o.Globs = []ignore.OverrideGlob{{Pattern: "*.log"}} },
			want: []string{"a.log"}},
		{name: "case-insensitive glob", spec: tree, args: []string{"--iglob", "*.RS"},
			opt:  func(o *Options) { o.Globs = []ignore.OverrideGlob{{Pattern: "*.RS", CaseInsensitive: true}} },
			want: []string{".h.rs", "a.rs", "sub/c.rs"}},
		{name: "type select", spec: tree, args: []string{"-t", "rust"}, opt: rust([]string{"rust"}, nil),
			want: []string{".h.rs", "a.rs", "sub/c.rs"}},
		{name: "type negate", spec: tree, args: []string{"-T", "rust"}, opt: rust(nil, []string{"rust"}),
			want: []string{"b.txt", "sub/d.py"}},
		{name: "type negate last wins", spec: tree, args: []string{"-t", "rust", "-t", "py", "-T", "rust"},
			opt: rust([]string{"rust", "py"}, []string{"rust"}), want: []string{"sub/d.py"}},
		{name: "ignore file beats type", spec: []string{".ignore = a.rs", "a.rs", "b.rs"}, args: []string{"-t", "rust"},
			opt: rust([]string{"rust"}, nil), want: []string{"b.rs"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

func TestRootsAndPaths(t *testing.T) {
	tree := []string{"a.rs", "sub/b.rs", ".gitignore = *.log", ".git/", "x.log", ".h"}
	cases := []walkCase{
		{name: "implicit", spec: tree, want: []string{"a.rs", "sub/b.rs"}},
		{name: "dot", spec: tree, roots: []string{"."}, want: []string{"./a.rs", "./sub/b.rs"}},
		{name: "dot slash", spec: tree, roots: []string{"./"}, want: []string{"./a.rs", "./sub/b.rs"}},
		{name: "trailing slash", spec: tree, roots: []string{"sub/"}, want: []string{"sub/b.rs"}},
		{name: "double slash", spec: tree, roots: []string{"sub//"}, want: []string{"sub//b.rs"}},
		{name: "absolute", spec: tree, roots: []string{"$TOP"}, want: []string{"$TOP/a.rs", "$TOP/sub/b.rs"}},
		{name: "several roots", spec: tree, roots: []string{".", "sub"}, want: []string{"./a.rs", "./sub/b.rs", "sub/b.rs"}},
		{name: "explicit files are not filtered", spec: tree, roots: []string{"x.log", ".h", "a.rs"},
			args: []string{"-g", "!*.rs", "-T", "rust"},
			opt: func(o *Options) {
				o.Globs = []ignore.OverrideGlob{{Pattern: "!*.rs"}}
				b, _ := types.FromFlags(types.Flags{Negate: []string{"rust"}})
				o.Types, _ = b.Build()
			},
			want: []string{"x.log", ".h", "a.rs"}},
		{name: "missing root", spec: tree, roots: []string{"nope", "a.rs"}, want: []string{"a.rs"},
			errs: []string{"nope: No such file or directory (os error 2)"}},
		{name: "missing root single-threaded", spec: tree, roots: []string{"nope"}, args: []string{"-j1"},
			opt:  func(o *Options) { o.Threads = 1 },
			errs: []string{"nope: IO error for operation on nope: No such file or directory (os error 2)"}},
		{name: "not a directory", spec: tree, roots: []string{"a.rs/x", "nope"},
			errs: []string{"a.rs/x: Not a directory (os error 20)", "nope: No such file or directory (os error 2)"}},
		// ripgrep 15 walks one root that is not a directory single-threaded.
		{name: "not a directory, one root", spec: tree, roots: []string{"a.rs/x"},
			opt:  func(o *Options) { o.Threads = 1 },
			errs: []string{"a.rs/x: IO error for operation on a.rs/x: Not a directory (os error 20)"}},
		{name: "max-depth 0", spec: tree, roots: []string{".", "a.rs"}, args: []string{"--max-depth", "0"},
			opt: func(o *Options) { o.MaxDepth = 0 }, want: []string{"a.rs"}},
		{name: "max-depth 1", spec: tree, args: []string{"--max-depth", "1"},
			opt: func(o *Options) { o.MaxDepth = 1 }, want: []string{"a.rs"}},
		{name: "max-depth 1 single-threaded", spec: tree, args: []string{"--max-depth", "1", "-j1"},
			opt: func(o *Options) { o.MaxDepth = 1; o.Threads = 1 }, want: []string{"a.rs"}},
		{name: "max-filesize", spec: []string{"small = 12345", "big = 123456", "sub/big2 = 1234567"}, roots: []string{".", "big"},
			args: []string{"--max-filesize", "5"}, opt: func(o *Options) { o.MaxFilesize = 5 },
			want: []string{"./small", "big"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

func TestSymlinks(t *testing.T) {
	tree := []string{"a.rs", "l.rs -> a.rs", "ld -> sub", "sub/b.rs", "bad -> nowhere", "sub/up -> .."}
	cases := []walkCase{
		{name: "not followed", spec: tree, want: []string{"a.rs", "sub/b.rs"}},
		{name: "followed", spec: tree, args: []string{"-L"}, opt: func(o *Options) { o.Follow = true },
			want: []string{"a.rs", "l.rs", "ld/b.rs", "sub/b.rs"},
			errs: []string{"./bad: No such file or directory (os error 2)",
				"File system loop found: ./sub/up points to an ancestor ./",
				"File system loop found: ./ld/up points to an ancestor ./"}},
		{name: "followed single-threaded", spec: tree, args: []string{"-L", "-j1"},
			opt:  func(o *Options) { o.Follow = true; o.Threads = 1 },
			want: []string{"a.rs", "l.rs", "ld/b.rs", "sub/b.rs"},
			errs: []string{"./bad: IO error for operation on ./bad: No such file or directory (os error 2)",
				"File system loop found: ./sub/up points to an ancestor ./",
				"File system loop found: ./ld/up points to an ancestor ./"}},
		{name: "root symlink followed", spec: tree, roots: []string{"ld", "l.rs"}, want: []string{"ld/b.rs", "l.rs"}},
		{name: "loop below a sub root is not a loop at first", spec: tree, roots: []string{"sub"}, args: []string{"-L"},
			opt:  func(o *Options) { o.Follow = true },
			want: []string{"sub/b.rs", "sub/up/a.rs", "sub/up/l.rs", "sub/up/sub/b.rs"},
			errs: []string{"sub/up/bad: No such file or directory (os error 2)",
				"File system loop found: sub/up/sub/up points to an ancestor sub/up",
				"File system loop found: sub/up/ld points to an ancestor sub"}},
		{name: "self loop", spec: []string{"me -> me"}, args: []string{"-L"}, opt: func(o *Options) { o.Follow = true },
			errs: []string{"./me: Too many levels of symbolic links (os error 40)"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

// listOrder returns the names of dir in the order the OS lists them.
func listOrder(t *testing.T, dir string) []string {
	t.Helper()
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestSingleThreadedOrder(t *testing.T) {
	var spec []string
	for _, n := range []string{"q", "b", "zz", "a", "m", "c9", "k", "x1", "e", "d"} {
		spec = append(spec, n+".txt", "d"+n+"/f.txt", "d"+n+"/g.txt")
	}
	dir := testTree(t, spec...)
	var want []string
	for _, n := range listOrder(t, dir) {
		if fi, err := os.Stat(filepath.Join(dir, n)); err == nil && fi.IsDir() {
			for _, m := range listOrder(t, filepath.Join(dir, n)) {
				want = append(want, n+"/"+m)
			}
		} else {
			want = append(want, n)
		}
	}
	opts := DefaultOptions()
	opts.Threads = 1
	got := run(t, nil, opts)
	if !slices.Equal(got.files, want) {
		t.Errorf("order:\n got %q\nwant %q", got.files, want)
	}
	// Live only: the order is the file system's, which differs from one
	// machine to another, so no recorded answer can stand for it.
	if _, ok := testref.Find(); ok {
		rgFiles, _, _ := runRGWith(t, nil, dir, "-j1")
		if !slices.Equal(got.files, rgFiles) {
			t.Errorf("order differs from rg -j1:\n got %q\n  rg %q", got.files, rgFiles)
		}
	}
}

// birthTimes returns the birth times of files under dir, in their order.
func birthTimes(t *testing.T, dir string, files []string) []int64 {
	t.Helper()
	keys := make([]int64, len(files))
	for i, f := range files {
		bt, ok := birthTime(filepath.Join(dir, f))
		if !ok {
			t.Skip("no birth times on this file system")
		}
		keys[i] = bt
	}
	return keys
}

func TestSort(t *testing.T) {
	dir := testTree(t, "b/z", "b/a", "a", "C", "c/x", "B2")
	old := int64(1_000_000_000)
	for i, p := range []string{"a", "b/z", "C", "b/a", "B2", "c/x", "b", "c"} {
		tm := timeAt(old + int64(i)*1000)
		if err := os.Chtimes(filepath.Join(dir, p), tm, tm); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		key  SortKey
		rev  bool
		args []string
		want []string
	}{
		{SortPath, false, []string{"--sort", "path"}, []string{"B2", "C", "a", "b/a", "b/z", "c/x"}},
		{SortPath, true, []string{"--sortr", "path"}, []string{"c/x", "b/z", "b/a", "a", "C", "B2"}},
		// ripgrep 15 sorts by time all the files at once (13 sorted
		// each directory's entries).
		{SortModified, false, []string{"--sort", "modified"}, []string{"a", "b/z", "C", "b/a", "B2", "c/x"}},
		{SortModified, true, []string{"--sortr", "modified"}, []string{"c/x", "B2", "b/a", "C", "b/z", "a"}},
		{SortAccessed, false, []string{"--sort", "accessed"}, []string{"a", "b/z", "C", "b/a", "B2", "c/x"}},
		// Birth times cannot be set: only rg knows the expected order.
		{SortCreated, false, []string{"--sort", "created"}, nil},
		{SortCreated, true, []string{"--sortr", "created"}, nil},
	}
	for _, c := range cases {
		opts := DefaultOptions()
		opts.Sort, opts.SortReverse = c.key, c.rev
		got := run(t, nil, opts)
		if c.want != nil && !slices.Equal(got.files, c.want) {
			t.Errorf("%q: got %q, want %q", c.args, got.files, c.want)
		}
		if len(got.files) != 6 {
			t.Errorf("%q: got %q, want 6 files", c.args, got.files)
		}
		// Birth times, and so the order by them, depend on the machine:
		// those are compared live only.
		g := testref.Open(t)
		if c.key == SortCreated {
			if _, ok := testref.Find(); !ok {
				continue
			}
			// Files created within one tick of the kernel's coarse
			// clock share a birth time, and rg leaves the order of
			// equal keys to its walk: the orders must agree on the
			// sequence of birth times, not on the names of ties.
			rgFiles, _, _ := runRGWith(t, nil, dir, c.args...)
			gk, rk := birthTimes(t, dir, got.files), birthTimes(t, dir, rgFiles)
			sorted := slices.IsSorted(gk)
			if c.rev {
				sorted = slices.IsSortedFunc(gk, func(a, b int64) int { return cmpInt(b, a) })
			}
			if !sorted {
				t.Errorf("%q: got %q, not in order of birth times %v", c.args, got.files, gk)
			}
			// rg reads birth times while it walks, and on this shared
			// machine the tick that separates them is coarse: its
			// order of near-equal times is reported, not asserted.
			if !slices.Equal(gk, rk) {
				t.Logf("%q: got %q (birth times %v), rg %q (%v)", c.args, got.files, gk, rgFiles, rk)
			}
			continue
		}
		rgFiles, _, _ := runRGWith(t, g, dir, c.args...)
		if !slices.Equal(got.files, rgFiles) {
			t.Errorf("%q: got %q, rg %q", c.args, got.files, rgFiles)
		}
	}
}

func TestStopAndStdin(t *testing.T) {
	testTree(t, "a", "b", "c", "d/e", "d/f")
	for _, threads := range []int{1, 2} {
		opts := DefaultOptions()
		opts.Threads = threads
		n := 0
		err := Walk([]string{"-", "."}, opts, func(e Entry) bool {
			n++
			if n == 1 && (!e.Stdin || !e.Explicit || e.Path != "-") {
				t.Errorf("first entry %+v, want stdin", e)
			}
			return n < 2
		})
		if err != nil {
			t.Fatal(err)
		}
		if threads == 1 && n != 2 {
			t.Errorf("single-threaded walk visited %d entries after stop, want 2", n)
		}
		if n > 3 {
			t.Errorf("threads=%d: %d visits after stop", threads, n)
		}
	}
}

func TestSkipFile(t *testing.T) {
	dir := testTree(t, "out.txt", "a.txt", "sub/b.txt")
	f, err := os.Open(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id, ok := FileIDOf(f)
	if !ok {
		t.Fatal("no file id")
	}
	opts := DefaultOptions()
	opts.SkipFile = &id
	got := run(t, []string{".", "out.txt"}, opts)
	want := []string{"./a.txt", "./sub/b.txt", "out.txt"}
	if !slices.Equal(sorted(got.files), want) {
		t.Errorf("got %q, want %q", sorted(got.files), want)
	}
}

func TestBadGlobIsAnError(t *testing.T) {
	testTree(t, "a")
	opts := DefaultOptions()
	opts.Globs = []ignore.OverrideGlob{{Pattern: "a["}}
	err := Walk(nil, opts, func(Entry) bool { return true })
	want := "error parsing glob 'a[': unclosed character class; missing ']'"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

func TestOneFileSystem(t *testing.T) {
	isolate(t)
	etc, err1 := statPath("/etc", true)
	proc, err2 := statPath("/proc/cpuinfo", true)
	if err1 != nil || err2 != nil || etc.id.Dev == proc.id.Dev {
		t.Skip("needs /proc on another file system than /etc")
	}
	for _, one := range []bool{false, true} {
		opts := DefaultOptions()
		opts.NoIgnore = true
		opts.Hidden = true
		opts.MaxDepth = 2
		opts.OneFileSystem = one
		got := run(t, []string{"/"}, opts)
		hasProc := slices.Contains(got.files, "/proc/cpuinfo")
		if hasProc == one {
			t.Errorf("OneFileSystem=%v: /proc/cpuinfo yielded=%v", one, hasProc)
		}
	}
}

func timeAt(sec int64) time.Time { return time.Unix(sec, 0) }
