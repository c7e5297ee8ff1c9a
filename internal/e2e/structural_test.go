//go:build linux

package e2e

// Structural search on deeply nested code: every nested node matches, and
// each match's text is the whole subtree below it, so anything that copies
// a match's text (or keeps what it prints) grows with the square of the
// nesting. These tests run the binary under an address-space limit and a
// timeout, and check its peak RSS.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	// nestedRSS is the peak RSS allowed to a structural search of one
	// nested file: the parse alone of the 200 KB file takes about 70 MiB,
	// the searches 60-300 MiB (the agent keeps up to 32 MiB of items and
	// 100,000 matches); before, each needed more than 3 GiB.
	nestedRSS = 512 << 20
	// nestedAS is the address-space limit the child runs under.
	nestedAS = 3 << 30
	// nestedTimeout ends a child that takes longer (the searches take
	// 1-3 s).
	nestedTimeout = 120 * time.Second
	// headBytes is what a test reads of a large output before closing
	// the pipe, as `| head -c` does.
	headBytes = 64 << 10
)

// runLimited runs bin with args in dir under an address-space limit of as
// bytes (none when 0) and a timeout; it reads at most limit bytes of stdout (then closes the pipe,
// as head does) and returns them, the exit code, the child's peak RSS and
// its stderr.
func runLimited(t *testing.T, dir string, env []string, as int64, limit int, bin string, args ...string) ([]byte, int, int64, string) {
	t.Helper()
	if self := selfRSS(t); self > nestedRSS/4 {
		t.Fatalf("the test process itself peaked at %d bytes: its children's RSS would not be theirs", self)
	}
	ctx, cancel := context.WithTimeout(context.Background(), nestedTimeout)
	defer cancel()
	script := `exec "$0" "$@"`
	if as > 0 {
		script = fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, as>>10)
	}
	cmd := exec.CommandContext(ctx, "/bin/sh", append([]string{"-c", script, bin}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(io.LimitReader(stdout, int64(limit)))
	stdout.Close()
	err = cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("%q: still running after %v", args, nestedTimeout)
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%q: %v", args, err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this system")
	}
	return out, code, ru.Maxrss << 10, stderr.String()
}

// nestedFiles writes the nested sources of the issue: 200 KB of nested
// JavaScript arrays, 100 KB of nested Python parentheses, 800 KB of one
// JavaScript sum.
func nestedFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"nest.js": strings.Repeat("[", 100000) + "1" + strings.Repeat("]", 100000) + "\n",
		"nest.py": "x = " + strings.Repeat("(", 50000) + "1" + strings.Repeat(")", 50000) + "\n",
		"plus.js": "x" + strings.Repeat(" + x", 200000) + "\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestStructuralNestedMemory: structural searches whose every match is a
// nested subtree stay within nestedRSS: the agent keeps only what its
// snapshot keeps, and the CLI writes each match as it renders it (a
// closed pipe ends it early).
func TestStructuralNestedMemory(t *testing.T) {
	bin := binary(t)
	dir := nestedFiles(t)
	if out, err := exec.Command(bin, "--ast", "$A", "--lang", "go", "/dev/null").CombinedOutput(); bytes.Contains(out, []byte("cgo")) {
		t.Skipf("no grammars in this build: %s %v", out, err)
	}
	state := "EVGREP_STATE_DIR=" + t.TempDir()
	cases := []struct {
		name string
		args []string
		want string // in the first headBytes of the output
	}{
		{"agent [$$$A]", []string{"--agent", `{"mode":"structural","pattern":"[$$$A]","lang":"javascript","path":"nest.js"}`},
			"structural [$$$A] (javascript): 100000 matches in 1 files"},
		{"agent $A + $B", []string{"--agent", `{"mode":"structural","pattern":"$A + $B","lang":"javascript","path":"plus.js"}`},
			"structural $A + $B (javascript): 100000 matches in 1 files"},
		{"cli [$$$A] --json", []string{"--ast", "[$$$A]", "--lang", "javascript", "--json", "nest.js"}, `{"path":"nest.js","start":0,"end":200001,`},
		{"cli ($A)", []string{"--ast", "($A)", "--lang", "python", "nest.py"}, "nest.py:1:5:(((("},
		{"cli $A + $B", []string{"--ast", "$A + $B", "--lang", "javascript", "plus.js"}, "plus.js:1:1:x + x + x"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, code, rss, stderr := runLimited(t, dir, []string{state}, nestedAS, headBytes, bin, tc.args...)
			t.Logf("%s: peak RSS %.1f MiB", tc.name, float64(rss)/(1<<20))
			if code != 0 {
				t.Fatalf("exit %d: %.300s", code, stderr)
			}
			if !bytes.Contains(out, []byte(tc.want)) {
				t.Errorf("output lacks %q: %.300s", tc.want, out)
			}
			if rss >= nestedRSS {
				t.Errorf("peak RSS %d bytes, want < %d", rss, nestedRSS)
			}
		})
	}
}

// impactRSS is the peak RSS allowed to an impact over one file with
// millions of occurrences (the snapshot keeps 50,000 of them).
const impactRSS = 200 << 20

// TestImpactManyOccurrencesMemory: an impact over a 31.5 MB file with 3.5
// million occurrences of the name keeps only what its snapshot can keep
// (it counts the rest) and stays within impactRSS.
func TestImpactManyOccurrencesMemory(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.go"))
	if err != nil {
		t.Fatal(err)
	}
	const n = 3_500_000
	writeRepeat(f, []byte("Target()\n"), n)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	// No address-space limit: the RE2 engine (WebAssembly) reserves more
	// than one; the old code peaked at 840 MiB of RSS.
	out, code, rss, stderr := runLimited(t, dir, nil, 0, headBytes, bin, "--impact-symbol", "Target")
	t.Logf("impact, %d occurrences: peak RSS %.1f MiB", n, float64(rss)/(1<<20))
	if code != 0 {
		t.Fatalf("exit %d: %.300s", code, stderr)
	}
	if want := fmt.Sprintf("Only the first 50000 of %d occurrences are kept", n); !bytes.Contains(out, []byte(want)) {
		t.Errorf("output lacks %q: %.400s", want, out)
	}
	if rss >= impactRSS {
		t.Errorf("peak RSS %d bytes, want < %d", rss, impactRSS)
	}
}
