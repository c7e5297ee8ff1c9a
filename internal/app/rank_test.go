package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --rank: ranked chunks best first, --json one object per chunk with
// path, startLine, endLine and score; a blank query is a usage error.
func TestRankCLI(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("EVGREP_STATE_DIR", t.TempDir())
	files := map[string]string{
		"net/timeout.txt": "the request timeout of the client\nis set here\n",
		"net/other.txt":   "nothing about it\n",
		"docs/notes.txt":  "timeout mentioned once\n",
	}
	for p, s := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, stderr := runEvgrepErr(t, dir, []string{"--rank", "client request timeout", "--json"}, "")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	var first struct {
		Path               string
		StartLine, EndLine int
		Score              float64
	}
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
		t.Fatal(err)
	}
	if first.Path != "net/timeout.txt" || first.StartLine != 1 || first.EndLine != 2 || first.Score <= 0 {
		t.Errorf("first chunk %+v of %q", first, r.stdout)
	}
	if len(lines) != 2 {
		t.Errorf("%d chunks, want 2 (other.txt holds no query word): %q", len(lines), r.stdout)
	}
	text := runEvgrep(t, dir, []string{"--rank", "client request timeout"}, "")
	if text.code != 0 || !strings.HasPrefix(text.stdout, rankNote+"\n") || !strings.Contains(text.stdout, "net/timeout.txt:1-2  score ") || !strings.Contains(text.stdout, "    1: the request timeout of the client\n") {
		t.Errorf("text form: %q", text.stdout)
	}
	// A warm call searches the cached index beside the walk; a file
	// changed since is still noticed, and the answer is the new index's.
	if err := os.WriteFile(filepath.Join(dir, "net/other.txt"), []byte("a client request timeout, and a client request timeout\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runEvgrep(t, dir, []string{"--rank", "client request timeout", "--json"}, ""); r.code != 0 || !strings.HasPrefix(r.stdout, `{"endLine":1,"kind":"lines","path":"net/other.txt"`) {
		t.Errorf("after a change: exit %d, %q", r.code, r.stdout)
	}
	if r := runEvgrep(t, dir, []string{"--rank", "zzzz"}, ""); r.code != 1 {
		t.Errorf("no chunk: exit %d", r.code)
	}
	if r, msg := runEvgrepErr(t, dir, []string{"--rank", "timeout", "no-such-dir"}, ""); r.code != 2 || !strings.Contains(msg, "no-such-dir") {
		t.Errorf("missing path: exit %d, %q", r.code, msg)
	}
	if r, msg := runEvgrepErr(t, dir, []string{"--rank", "  "}, ""); r.code != 2 || !strings.Contains(msg, "--rank needs a non-empty query") {
		t.Errorf("blank query: exit %d, %q", r.code, msg)
	}
}
