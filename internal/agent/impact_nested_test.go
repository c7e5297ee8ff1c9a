package agent

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/syntax"
)

// impactNestedTimeout ends TestImpactNestedCalls: a hang detector, far
// above the second the classification takes (it took over 100 s when each
// occurrence walked down from the root and up its whole path).
const impactNestedTimeout = 90 * time.Second

// TestImpactNestedCalls: the occurrences of 8,000 nested calls are all
// classified (as calls) without the time growing with the square of the
// nesting.
func TestImpactNestedCalls(t *testing.T) {
	if !syntax.HasRoles(syntax.Go) {
		t.Skip("no parsers in this build")
	}
	const depth = 8000
	root := t.TempDir()
	src := "package p\n\nvar y = " + strings.Repeat("Target(", depth) + "1" + strings.Repeat(")", depth) + "\n"
	if err := os.WriteFile(filepath.Join(root, "n.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{Store: snapshot.NewStore(t.TempDir()), Cwd: root}
	done := make(chan *Answer, 1)
	go func() { done <- HandleJSON(context.Background(), []byte(`{"mode":"impact","symbol":"Target"}`), env) }()
	select {
	case a := <-done:
		if a.Failed || !strings.Contains(a.Text, "8000 occurrences in 1 files") || !strings.Contains(a.Text, "Roles: call 8000") {
			t.Fatalf("answer:\n%.600s", a.Text)
		}
	case <-time.After(impactNestedTimeout):
		t.Fatalf("the impact of %d nested calls still runs after %v", depth, impactNestedTimeout)
	}
}
