package walker

import (
	"slices"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/walker/ignore"
)

// The expectations in this file were recorded from ripgrep 15.2.0; the
// cases also run against it when EVGREP_REFERENCE_RG names it.

// TestParentIgnoresRG15: ignore files above a root match the entry path
// less the root (ripgrep 13 doubled a relative root's components), and
// each root has its own parent chain.
func TestParentIgnoresRG15(t *testing.T) {
	f1757 := []string{".ignore = rust/target", "rust/source.rs", "rust/target/rustdoc-output.html"}
	r829 := []string{".ignore = build/\\n!/some_dir/build/", "some_dir/build/foo"}
	multi := []string{".git/", ".gitignore = src/invalid", "src/invalid", "src/valid", "tests/valid"}
	cases := []walkCase{
		{name: "f1757 relative root", spec: f1757, roots: []string{"rust"}, want: []string{"rust/source.rs"}},
		{name: "f1757 dotted root", spec: f1757, roots: []string{"./rust"}, want: []string{"./rust/source.rs"}},
		{name: "f1757 root with slash", spec: f1757, roots: []string{"rust/"}, want: []string{"rust/source.rs"}},
		{name: "f1757 deeper", spec: []string{".ignore = rust1/target/onemore", "rust1/source.rs", "rust1/target/onemore/x.html"},
			roots: []string{"./rust1"}, want: []string{"./rust1/source.rs"}},
		{name: "r829 whitelist from parent", spec: r829, roots: []string{"some_dir"}, want: []string{"some_dir/build/foo"}},
		{name: "r829 anchored from parent", spec: []string{".ignore = /a/b", "a/b/test.txt", "a/c.txt"},
			roots: []string{"a"}, want: []string{"a/c.txt"}},
		{name: "multi-root order 1", spec: multi, roots: []string{"src", "tests"}, want: []string{"src/valid", "tests/valid"}},
		{name: "multi-root order 2", spec: multi, roots: []string{"tests", "src"}, want: []string{"src/valid", "tests/valid"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

// TestRepositoryMarkersRG15: .jj marks a repository as .git does, and
// --no-require-git removes the repository top as a barrier.
func TestRepositoryMarkersRG15(t *testing.T) {
	nested := []string{".git/", ".gitignore = x", "x", "y", "inner/.git/", "inner/x", "inner/y",
		"inner2/.jj/", "inner2/x", "inner2/y", "inner3/x", "inner3/y"}
	cases := []walkCase{
		{name: "jj in root", spec: []string{".jj/", ".gitignore = x", "x", "y", "sub/x"}, want: []string{"y"}},
		{name: "jj in parent", spec: []string{"p/.jj/", "p/.gitignore = x", "p/child/x", "p/child/y"},
			cwd: "p/child", want: []string{"y"}},
		{name: "jj in parent, relative root", spec: []string{"p/.jj/", "p/.gitignore = x", "p/child/x", "p/child/y"},
			cwd: "p", roots: []string{"child"}, want: []string{"child/y"}},
		{name: "no jj, no repository", spec: []string{".gitignore = x", "x", "y"}, want: []string{"x", "y"}},
		{name: "nested repositories are barriers", spec: nested,
			want: []string{"inner/x", "inner/y", "inner2/x", "inner2/y", "inner3/y", "y"}},
		{name: "no-require-git drops the barriers", spec: nested, args: []string{"--no-require-git"},
			opt:  func(o *Options) { o.RequireGit = false },
			want: []string{"inner/y", "inner2/y", "inner3/y", "y"}},
		{name: "no-require-git from inside", spec: nested, cwd: "inner", args: []string{"--no-require-git"},
			opt:  func(o *Options) { o.RequireGit = false },
			want: []string{"y"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

// TestCwdRootedIgnoresRG15: the global excludes file and --ignore-file
// files are rooted at the current directory, so anchored patterns match
// absolute paths below it.
func TestCwdRootedIgnoresRG15(t *testing.T) {
	home := []string{".gitconfig = [core]\\n\texcludesFile = ~/gi", "gi = /haystack\\n/a/h2"}
	tree := []string{".git/", "haystack", "a/haystack", "a/h2"}
	cases := []walkCase{
		{name: "global, implicit root", home: home, spec: tree, want: []string{"a/haystack"}},
		{name: "global, absolute root", home: home, spec: tree, roots: []string{"$TOP"}, want: []string{"$TOP/a/haystack"}},
		{name: "global, absolute root from below", home: home, spec: tree, cwd: "a", roots: []string{"$TOP"},
			want: []string{"$TOP/a/h2", "$TOP/haystack"}},
		{name: "global, dot-dot root", home: home, spec: tree, cwd: "a", roots: []string{".."},
			want: []string{"../a/h2", "../a/haystack", "../haystack"}},
		{name: "r3179 ignore-file rooted at cwd", spec: []string{"a/b/c/haystack", ".test.gitignore = /haystack"},
			cwd: "a/b/c", roots: []string{"$TOP"}, args: []string{"--ignore-file", "../../../.test.gitignore"},
			opt: func(o *Options) { o.IgnoreFiles = []string{"../../../.test.gitignore"} }},
		{name: "ignore-file anchored to cwd, not root", spec: []string{"a/b/c/haystack", ".test.gitignore = /haystack"},
			roots: []string{"a/b/c"}, args: []string{"--ignore-file", ".test.gitignore"},
			opt: func(o *Options) { o.IgnoreFiles = []string{".test.gitignore"} }, want: []string{"a/b/c/haystack"}},
		{name: "ignore-file with a path pattern, absolute root", spec: []string{"a/b/c/haystack", ".t3 = a/b/c/haystack"},
			roots: []string{"$TOP"}, args: []string{"--ignore-file", ".t3"},
			opt: func(o *Options) { o.IgnoreFiles = []string{".t3"} }},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

// TestGitConfigEnvRG15: where core.excludesFile is looked up, in order:
// GIT_CONFIG_GLOBAL, ~/.gitconfig, the XDG config, GIT_CONFIG_SYSTEM,
// then the XDG ignore file.
func TestGitConfigEnvRG15(t *testing.T) {
	spec := []string{".git/", "f_home", "f_glob", "f_sys", "f_xdg", "f_none",
		"cfg_glob = [core]\\n\texcludesFile = ~/ex_glob",
		"cfg_sys = [core]\\n\texcludesFile = ~/ex_sys",
		"cfg_empty = [user]\\n\tname = x",
		"cfg_quoted = excludesfile=\\n  \"~/ex_glob\"  ",
	}
	home := []string{"ex_home = f_home", "ex_glob = f_glob", "ex_sys = f_sys", ".config/git/ignore = f_xdg"}
	homeCfg := append(slices.Clone(home), ".gitconfig = [core]\\n\texcludesFile = ~/ex_home")
	xdgCfg := append(slices.Clone(home), ".config/git/config = [core]\\n\texcludesFile = ~/ex_home")
	all := []string{"cfg_empty", "cfg_glob", "cfg_quoted", "cfg_sys", "f_glob", "f_home", "f_none", "f_sys", "f_xdg"}
	without := func(names ...string) []string {
		return slices.DeleteFunc(slices.Clone(all), func(s string) bool { return slices.Contains(names, s) })
	}
	cases := []struct {
		global, system string
		home           []string
		want           []string
	}{
		{home: home, want: without("f_xdg")},
		{global: "cfg_glob", home: home, want: without("f_glob")},
		{global: "cfg_quoted", home: home, want: without("f_glob")},
		{system: "cfg_sys", home: home, want: without("f_sys")},
		{global: "cfg_empty", system: "cfg_sys", home: home, want: without("f_sys")},
		{global: "cfg_glob", system: "cfg_sys", home: home, want: without("f_glob")},
		{global: "nonexistent", system: "cfg_sys", home: home, want: without("f_sys")},
		{home: homeCfg, want: without("f_home")},
		{global: "cfg_glob", home: homeCfg, want: without("f_glob")},
		{global: "cfg_empty", home: homeCfg, want: without("f_home")},
		{global: "cfg_empty", system: "cfg_sys", home: homeCfg, want: without("f_home")},
		{system: "cfg_sys", home: xdgCfg, want: without("f_home")},
		{system: "cfg_empty", home: home, want: without("f_xdg")},
	}
	for _, c := range cases {
		t.Run("global="+c.global+",system="+c.system+","+strings.Join(c.home[len(c.home)-1:], ""), func(t *testing.T) {
			t.Setenv("GIT_CONFIG_GLOBAL", c.global)
			t.Setenv("GIT_CONFIG_SYSTEM", c.system)
			walkCase{spec: spec, home: c.home, want: c.want}.check(t)
		})
	}
}

// TestIgnoreLinesRG15: ignore-file lines whose meaning changed in
// ripgrep 15, through the walk.
func TestIgnoreLinesRG15(t *testing.T) {
	deep := strings.Repeat("{", 300) + "a" + strings.Repeat("}", 300)
	hostile := strings.Repeat("{", 100000) + "a" + strings.Repeat("}", 100000)
	cases := []walkCase{
		{name: "r2236 escaped trailing slash", spec: []string{".ignore = foo\\/", "foo/bar", "x"}, want: []string{"x"}},
		{name: "r3127 unclosed class is literal", spec: []string{".git/", ".gitignore = [abc", "[abc", "test"}, want: []string{"test"}},
		{name: "nested alternates", spec: []string{".ignore = *.{a,{b,c}}", "x.a", "x.b", "x.c", "x.d"}, want: []string{"x.d"}},
		{name: "bom dropped", spec: []string{".ignore = \ufeffx", "x", "y"}, want: []string{"y"}},
		{name: "too deep empties the file", spec: []string{".ignore = a.a\\n" + deep, "a.a", "b"},
			want: []string{"a.a", "b"}, errs: []string{"error parsing pattern 0"}},
		// ripgrep 15.2 itself overflows its stack on this one.
		{name: "hostile nesting", spec: []string{".ignore = " + hostile, "a", "b"},
			want: []string{"a", "b"}, errs: []string{"error parsing pattern 0"}, noRG: true},
		{name: "r2990 trailing dot glob", spec: []string{"asdf/foo", "asdf./foo"}, args: []string{"-g", "!asdf./"},
			opt: func(o *Options) { o.Globs = []ignore.OverrideGlob{{Pattern: "!asdf./"}} }, want: []string{"asdf/foo"}},
		{name: "trailing dot basename", spec: []string{".ignore = foo.", "foo.", "a/foo.", "foo"}, want: []string{"foo"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.check)
	}
}

// TestSortRG15: --sortr path sorts every file found, component by
// component, after the walk ("./x" sorts before any name).
func TestSortRG15(t *testing.T) {
	dir := testTree(t, "a = test", "b = test", "dir/c = test", "dir/d = test")
	opts := DefaultOptions()
	opts.Sort, opts.SortReverse = SortPath, true
	roots := []string{".", "dir/d", "a"}
	got := run(t, roots, opts)
	want := []string{"dir/d", "a", "./dir/d", "./dir/c", "./b", "./a"}
	if !slices.Equal(got.files, want) {
		t.Errorf("got %q, want %q", got.files, want)
	}
	{
		rgFiles, _, _ := runRG(t, dir, append([]string{"--sortr", "path"}, roots...)...)
		if !slices.Equal(got.files, rgFiles) {
			t.Errorf("got %q, rg %q", got.files, rgFiles)
		}
	}
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"a/b", "a.txt", -1}, // component order, not byte order
		{"./a", "a", -1},
		{"a//b", "a/b", 0},
		{"a/./b", "a/b", 0},
		{"/a", "a", -1},
		{"../a", "a", -1},
		{"a", "a/b", -1},
	} {
		if got := comparePaths(tc.a, tc.b); (got > 0) != (tc.want > 0) || (got < 0) != (tc.want < 0) {
			t.Errorf("comparePaths(%q, %q) = %d, want sign %d", tc.a, tc.b, got, tc.want)
		}
	}
}
