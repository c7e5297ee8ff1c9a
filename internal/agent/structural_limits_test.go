package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/syntax"
)

// TestStructuralTooLargeIsPartial: a file that may match but is larger
// than the parse limit makes a structural search, its cursor pages and a
// rewrite preview partial, with the file named in the problems; one that
// holds no literal of the pattern changes nothing.
func TestStructuralTooLargeIsPartial(t *testing.T) {
	env, root := structuralEnv(t)
	big := "package p\n\nfunc g() { panic(x) }\n" + strings.Repeat("// filler\n", syntax.MaxSource/10+1)
	if err := os.WriteFile(filepath.Join(root, "big.go"), []byte(big), 0o644); err != nil {
		t.Fatal(err)
	}
	a := askJSON(t, env, `{"mode":"structural","pattern":"panic($A)","lang":"go","limit":30}`)
	if a.Failed || a.Details.Status != "partial" || !strings.Contains(a.Text, "80 matches in 4 files") ||
		!strings.Contains(a.Text, "1 files that may match were not searched") {
		t.Fatalf("search: status %q: %s", a.Details.Status, a.Text)
	}
	if len(a.Details.Problems) != 1 || !strings.Contains(a.Details.Problems[0], "big.go: file too large") {
		t.Fatalf("problems: %q", a.Details.Problems)
	}
	if p := askJSON(t, env, `{"mode":"structural","cursor":"`+a.Details.Cursor+`"}`); p.Failed || p.Details.Status != "partial" {
		t.Fatalf("page: status %q: %s", p.Details.Status, p.Text)
	}
	rw := askJSON(t, env, `{"mode":"structural","pattern":"panic($A)","lang":"go","rewrite":"log.Fatal($A)"}`)
	if rw.Failed || rw.Details.Status != "partial" || !strings.Contains(rw.Text, "1 files that may match were not searched") {
		t.Fatalf("rewrite: status %q: %s", rw.Details.Status, rw.Text)
	}
	if a := askJSON(t, env, `{"mode":"structural","pattern":"other($A)","lang":"go"}`); a.Failed || a.Details.Status != "complete" {
		t.Fatalf("no literal in the large file: status %q: %s", a.Details.Status, a.Text)
	}
}
