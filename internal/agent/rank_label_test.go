package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
)

// TestRankLabelVerified: a chunk's name, which comes from the index (and
// so maybe from a cache file), is shown only when the source read and
// verified from disk declares it; a renamed entry shows no name beside
// the real source.
func TestRankLabelVerified(t *testing.T) {
	root := t.TempDir()
	src := "package p\n\nfunc Real() {}\n\nfunc Other() {}\n"
	path := filepath.Join(root, "a.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := revisions.NewTracker(f)
	tr.Write([]byte(src))
	rev := tr.Finish()
	f.Close()
	b := snapshot.NewItemsBuilder()
	b.AddFile("a.go", rev)
	real := strings.Index(src, "func Real")
	other := strings.Index(src, "func Other")
	b.Add(snapshot.Item{Path: "a.go", Line: 3, EndLine: 3, Start: int64(real), End: int64(real + len("func Real() {}")), Group: "function", Label: "Renamed", Score: 2})
	b.Add(snapshot.Item{Path: "a.go", Line: 5, EndLine: 5, Start: int64(other), End: int64(other + len("func Other() {}")), Group: "function", Label: "Other", Score: 1})
	snap := b.Build(snapshot.Meta{Root: root, Options: map[string]string{optRankQuery: "real"}, Created: time.Now()})
	a, err := rankPage(Env{Store: snapshot.NewMemoryStore()}, snap, 0, 10)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(a.Text, "Renamed") || !strings.Contains(a.Text, "func Real() {}") {
		t.Errorf("the renamed label is shown (or the source is not):\n%s", a.Text)
	}
	if !strings.Contains(a.Text, "score 1.000  function Other\n") {
		t.Errorf("the verified label is not shown:\n%s", a.Text)
	}
	for _, c := range a.Details.Rank.Page {
		if c.Name == "Renamed" {
			t.Errorf("details name the chunk %q", c.Name)
		}
	}
}
