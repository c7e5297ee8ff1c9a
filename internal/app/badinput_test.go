package app

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestBadInput covers DESIGN.md's "Bad input" list for the plain form: each
// case must end with rg's exit code and, where rg complains, a one-line
// message in rg's style on stderr — never a panic, never an empty success.
// The exit code and stdout are also compared with rg's (live, or its
// recorded answers: internal/testref).
func TestBadInput(t *testing.T) {
	root := writeTree(t, map[string]string{
		"ok.txt":        "needle\n",
		"nul.bin":       "needle\x00\x01\x02\n",
		"badutf8.txt":   "needle \xff\xfe\xc3\n",
		"surrogate.txt": "\xff\xfe\x00\xd8n\x00e\x00e\x00d\x00l\x00e\x00\n\x00", // UTF-16LE, lone high surrogate first
		"special/a.txt": "needle\n",
	})
	os.WriteFile(filepath.Join(root, "corrupt.gz"), []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03garbage"), 0o644)
	os.MkdirAll(filepath.Join(root, "loop"), 0o755)
	os.Symlink("..", filepath.Join(root, "loop", "up"))
	// A FIFO and a socket: skipped when met in a walk, an error when named
	// (rg opens a named FIFO and would wait for a writer, so none is named).
	syscall.Mkfifo(filepath.Join(root, "special", "fifo"), 0o644)
	if ln, err := net.Listen("unix", filepath.Join(root, "special", "sock")); err == nil {
		defer ln.Close()
	}
	huge := strings.Repeat("a", 24<<20) + "needle\n" // one 24 MiB line
	os.WriteFile(filepath.Join(root, "huge.txt"), []byte(huge), 0o644)
	ref := newRefRun(t, root, nil)

	cases := []struct {
		name     string
		args     []string
		code     int
		stderrRe string // substring expected on stderr ("" = stderr must be empty)
	}{
		{"invalid regex", []string{"needle("}, 2, "regex parse error"},
		{"missing path", []string{"needle", "no-such-file"}, 2, "no-such-file: No such file or directory (os error 2)"},
		{"symlink loop", []string{"-L", "--sort", "path", "needle", "loop"}, 2, "File system loop found"},
		{"nul bytes named", []string{"needle", "nul.bin"}, 0, ""},
		{"invalid utf-8", []string{"needle", "badutf8.txt"}, 0, ""},
		{"lone utf-16 surrogate", []string{"needle", "surrogate.txt"}, 0, ""},
		{"corrupt compressed", []string{"-z", "needle", "corrupt.gz"}, 2, "corrupt.gz:"},
		{"huge line", []string{"-c", "needle", "huge.txt"}, 0, ""},
		{"fifo and socket met in a walk", []string{"--sort", "path", "needle", "special"}, 0, ""},
		{"socket named", []string{"needle", "special/sock"}, 2, "special/sock: No such device or address (os error 6)"},
		{"device named", []string{"needle", os.DevNull}, 1, ""},
		{"unknown flag", []string{"--no-such-flag", "x"}, 2, "rg: unrecognized flag --no-such-flag"},
		{"bad encoding", []string{"-E", "klingon", "needle", "ok.txt"}, 2, "unknown encoding: klingon"},
		{"bad glob", []string{"-g", "[x", "needle"}, 2, "error parsing glob"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := runEvgrepFull(t, root, tc.args)
			if got.code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", got.code, tc.code, got.stderrText)
			}
			if tc.stderrRe == "" && got.stderrText != "" {
				t.Errorf("unexpected stderr %q", got.stderrText)
			}
			if tc.stderrRe != "" && !strings.Contains(got.stderrText, tc.stderrRe) {
				t.Errorf("stderr %q lacks %q", got.stderrText, tc.stderrRe)
			}
			want, _ := runRG(t, ref, tc.name, root, tc.args, "")
			if got.code != want.code || got.stdout != want.stdout || (got.stderrText != "") != want.stderr {
				t.Errorf("differs from rg: got code=%d stdout=%.200q stderr=%v; rg code=%d stdout=%.200q stderr=%v",
					got.code, got.stdout, got.stderrText != "", want.code, want.stdout, want.stderr)
			}
		})
	}
}

type fullResult struct {
	code       int
	stdout     string
	stderrText string
}

func runEvgrepFull(t *testing.T, dir string, args []string) fullResult {
	t.Helper()
	t.Setenv("RIPGREP_CONFIG_PATH", "")
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	var out, errb strings.Builder
	code := Main(args, devnull, &out, &errb)
	return fullResult{code, normalize([]byte(out.String())), errb.String()}
}
