package walker

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// permHelperEnv, when set, makes TestPermissionHelper walk the current
// directory with the threads and max depth it names ("threads,depth") and
// print the result; TestPermissionDenied runs it as an unprivileged user.
const permHelperEnv = "EVGREP_WALKER_PERM_HELPER"

func TestPermissionHelper(t *testing.T) {
	spec := os.Getenv(permHelperEnv)
	if spec == "" {
		t.Skip("helper for TestPermissionDenied")
	}
	a, b, _ := strings.Cut(spec, ",")
	threads, _ := strconv.Atoi(a)
	depth, _ := strconv.Atoi(b)
	opts := DefaultOptions()
	opts.Threads, opts.MaxDepth = threads, depth
	res := run(t, nil, opts)
	for _, f := range sorted(res.files) {
		fmt.Println("FILE " + f)
	}
	for _, e := range sorted(res.errs) {
		fmt.Println("ERR " + e)
	}
}

// TestPermissionDenied walks a tree with an unreadable directory. As root
// (which reads anything) it runs the walk in a copy of the test binary as
// user nobody, through setpriv.
func TestPermissionDenied(t *testing.T) {
	isolate(t)
	base, err := os.MkdirTemp("", "walkerperm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(base, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(base)
	})
	tree := filepath.Join(base, "tree")
	mkTree(t, tree, "a", "p/b", "p/q/c", "p/q/r/d")
	for _, d := range []string{base, tree} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(tree, "p/q"), 0); err != nil {
		t.Fatal(err)
	}
	var walk func(threads, depth int) []string
	var priv []string // command prefix that drops root
	if os.Geteuid() != 0 {
		t.Chdir(tree)
		walk = func(threads, depth int) []string {
			opts := DefaultOptions()
			opts.Threads, opts.MaxDepth = threads, depth
			res := run(t, nil, opts)
			var out []string
			for _, f := range res.files {
				out = append(out, "FILE "+f)
			}
			for _, e := range res.errs {
				out = append(out, "ERR "+e)
			}
			return sorted(out)
		}
	} else {
		setpriv, err := exec.LookPath("setpriv")
		if err != nil {
			t.Skip("running as root without setpriv")
		}
		bin := filepath.Join(base, "walker.test")
		if err := copyFile(os.Args[0], bin); err != nil {
			t.Fatal(err)
		}
		drop := []string{"--reuid=65534", "--regid=65534", "--clear-groups"}
		walk = func(threads, depth int) []string {
			cmd := exec.Command(setpriv, append(drop, bin, "-test.run=^TestPermissionHelper$", "-test.v=false")...)
			cmd.Dir = tree
			cmd.Env = append(os.Environ(), permHelperEnv+"="+strconv.Itoa(threads)+","+strconv.Itoa(depth))
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			var lines []string
			for _, l := range strings.Split(string(out), "\n") {
				if strings.HasPrefix(l, "FILE ") || strings.HasPrefix(l, "ERR ") {
					lines = append(lines, l)
				}
			}
			return sorted(lines)
		}
		priv = append([]string{setpriv}, drop...)
	}
	g := testref.Open(t)
	cases := []struct {
		threads, depth int
		want           []string
	}{
		{2, -1, []string{"ERR ./p/q: Permission denied (os error 13)", "FILE a", "FILE p/b"}},
		{1, -1, []string{"ERR ./p/q: IO error for operation on ./p/q: Permission denied (os error 13)", "FILE a", "FILE p/b"}},
		// Neither walk opens a directory at the depth limit (ripgrep 13's
		// parallel walk did, and reported it).
		{2, 2, []string{"FILE a", "FILE p/b"}},
		{1, 2, []string{"FILE a", "FILE p/b"}},
	}
	for _, c := range cases {
		got := walk(c.threads, c.depth)
		if !slices.Equal(got, c.want) {
			t.Errorf("threads=%d depth=%d:\n got %q\nwant %q", c.threads, c.depth, got, c.want)
		}
		args := []string{"--no-config", "--files", "-j" + strconv.Itoa(c.threads)}
		if c.depth >= 0 {
			args = append(args, "--max-depth", strconv.Itoa(c.depth))
		}
		// The tree is the same on every machine; its fingerprint would
		// not be (an unprivileged reader cannot see below p/q).
		out := g.Run(t, testref.Case{
			Name: fmt.Sprintf("threads=%d depth=%d", c.threads, c.depth), Args: args, Dir: tree, Prefix: priv,
			Vars: map[string]string{"BASE": base}, Input: "a p/b p/q/c p/q/r/d, p/q mode 0", Canon: testref.SortLines,
		})
		var rg []string
		for _, l := range lines(string(out.Stdout)) {
			rg = append(rg, "FILE "+l)
		}
		for _, l := range lines(string(out.Stderr)) {
			rg = append(rg, "ERR "+strings.TrimPrefix(l, "rg: "))
		}
		if !slices.Equal(got, sorted(rg)) {
			t.Errorf("threads=%d depth=%d: differs from rg:\n got %q\n  rg %q", c.threads, c.depth, got, sorted(rg))
		}
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
