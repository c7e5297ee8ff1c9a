package walker

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
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

// referenceEnv names the reference ripgrep binary of the differential
// tests; they skip themselves when it is unset or not ripgrep 15.2.0.
const referenceEnv = "EVGREP_REFERENCE_RG"

// referenceRG returns the reference ripgrep (15.2.0) named by
// $EVGREP_REFERENCE_RG, or "" when there is none.
func referenceRG() string {
	rg := os.Getenv(referenceEnv)
	if rg == "" {
		return ""
	}
	out, err := exec.Command(rg, "--version").Output()
	if err != nil || !bytes.HasPrefix(out, []byte("ripgrep 15.2.0")) {
		return ""
	}
	return rg
}

// haveRG reports whether the reference ripgrep is available.
func haveRG() bool { return referenceRG() != "" }

// runRG runs `rg --files args...` (the reference ripgrep) in dir and
// returns its stdout lines, stderr lines and exit code.
func runRG(t *testing.T, dir string, args ...string) (files, errs []string, code int) {
	t.Helper()
	cmd := exec.Command(referenceRG(), append([]string{"--no-config", "--files"}, args...)...)
	cmd.Dir = dir
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("rg: %v", err)
	}
	errs = lines(stderr.String())
	for i, e := range errs {
		// ripgrep 15 starts every message with "rg: "; the walker's
		// error texts are what follows it.
		errs[i] = strings.TrimPrefix(e, "rg: ")
	}
	return lines(out.String()), errs, code
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
