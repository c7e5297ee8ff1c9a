package walker

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// result is what one walk produced.
type result struct {
	files []string // yielded paths, in visit order
	errs  []string // OnError and OnIgnoreError texts
}

// run walks roots from the current directory and collects the result.
func run(t *testing.T, roots []string, opts Options) result {
	t.Helper()
	var mu sync.Mutex
	var res result
	onErr := func(err error) {
		mu.Lock()
		res.errs = append(res.errs, err.Error())
		mu.Unlock()
	}
	opts.OnError = onErr
	opts.OnIgnoreError = onErr
	err := Walk(roots, opts, func(e Entry) bool {
		mu.Lock()
		res.files = append(res.files, e.Path)
		mu.Unlock()
		return true
	})
	if err != nil {
		t.Fatalf("Walk(%q): %v", roots, err)
	}
	return res
}

// sorted returns a sorted copy.
func sorted(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

var (
	tempRootsMu sync.Mutex
	tempRoots   = map[testing.TB]string{}
)

// tempRoot is the folder holding every t.TempDir() of t (its name varies
// from run to run: ${TMP} in the golden files).
func tempRoot(t testing.TB) string {
	tempRootsMu.Lock()
	defer tempRootsMu.Unlock()
	if r, ok := tempRoots[t]; ok {
		return r
	}
	r := filepath.Dir(t.TempDir())
	tempRoots[t] = r
	t.Cleanup(func() {
		tempRootsMu.Lock()
		delete(tempRoots, t)
		tempRootsMu.Unlock()
	})
	return r
}

// runRG runs `rg --no-config --files args...` in dir and returns its
// stdout lines, its stderr lines and whether the answer is rg's recorded
// one (internal/testref). The case is identified by the files of all of
// t's temporary folders (HOME, trees, ignore files above the tree).
// Recorded answers have their lines sorted, except for --sort and
// --sortr, whose order does not depend on the machine.
func runRG(t *testing.T, dir string, args ...string) (files, errs []string, recorded bool) {
	t.Helper()
	return runRGWith(t, testref.Open(t), dir, args...)
}

// runRGWith is runRG with a given golden file (nil: live only).
func runRGWith(t *testing.T, g *testref.Golden, dir string, args ...string) (files, errs []string, recorded bool) {
	t.Helper()
	tmp := tempRoot(t)
	c := testref.Case{
		Name:  t.Name(),
		Args:  append([]string{"--no-config", "--files"}, args...),
		Dir:   dir,
		Vars:  map[string]string{"TMP": tmp},
		Input: testref.Tree(map[string]string{"TMP": tmp}, tmp),
	}
	if !slices.Contains(args, "--sort") && !slices.Contains(args, "--sortr") {
		c.Canon = testref.SortLines
	}
	// Git's configuration variables change the answer (the global
	// excludes file): they are part of the case.
	for _, k := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM"} {
		if v, ok := os.LookupEnv(k); ok {
			c.Env = append(c.Env, k+"="+v)
		}
	}
	out := g.Run(t, c)
	// rg 15 starts its messages with "rg: "; the walker reports bare ones
	// (the command line adds the prefix).
	errs = lines(string(out.Stderr))
	for i, l := range errs {
		errs[i] = strings.TrimPrefix(l, "rg: ")
	}
	return lines(string(out.Stdout)), errs, out.Recorded
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// mkTree creates files under root from a spec: a path ending in '/' is a
// directory, "path -> target" a symlink, "path = text" a file with that
// content, anything else an empty file.
func mkTree(t *testing.T, root string, spec ...string) {
	t.Helper()
	for _, s := range spec {
		switch {
		case strings.Contains(s, " -> "):
			p, target, _ := strings.Cut(s, " -> ")
			mkParent(t, filepath.Join(root, p))
			if err := os.Symlink(target, filepath.Join(root, p)); err != nil {
				t.Fatal(err)
			}
		case strings.HasSuffix(s, "/") && !strings.Contains(s, " = "):
			if err := os.MkdirAll(filepath.Join(root, s), 0o755); err != nil {
				t.Fatal(err)
			}
		default:
			p, content, _ := strings.Cut(s, " = ")
			mkParent(t, filepath.Join(root, p))
			content = strings.ReplaceAll(content, `\n`, "\n")
			if err := os.WriteFile(filepath.Join(root, p), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func mkParent(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
}

// isolate points HOME and XDG_CONFIG_HOME at an empty directory, so that
// no global excludes file of the machine's user gets in, and returns it.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("RIPGREP_CONFIG_PATH", "")
	return home
}

// testTree makes a fresh directory (below an isolated HOME), changes into
// it and returns it. The directory above it holds nothing, so parent
// ignore files of the machine do not interfere... except those above the
// temporary directory, which both rg and the walker see alike.
func testTree(t *testing.T, spec ...string) string {
	t.Helper()
	isolate(t)
	dir := t.TempDir()
	mkTree(t, dir, spec...)
	t.Chdir(dir)
	return dir
}
