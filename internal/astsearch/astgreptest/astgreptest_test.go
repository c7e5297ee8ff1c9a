package astgreptest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDigestIgnoresOrder: a match set's digest is its sorted spans'.
func TestDigestIgnoresOrder(t *testing.T) {
	a := []Span{{"b.go", 4, 9}, {"a.go", 7, 8}, {"a.go", 1, 3}, {"a.go", 1, 2}}
	b := []Span{{"a.go", 1, 2}, {"b.go", 4, 9}, {"a.go", 1, 3}, {"a.go", 7, 8}}
	if Digest(a) != Digest(b) {
		t.Fatal("the digest depends on the order")
	}
	if a[0] != (Span{"a.go", 1, 2}) || a[3] != (Span{"b.go", 4, 9}) {
		t.Fatalf("not sorted by file, start, end: %v", a)
	}
	if Digest(a[:3]) == Digest(a) {
		t.Fatal("a smaller set has the same digest")
	}
}

// TestRunReadsMatches runs the reference ast-grep when it is installed
// (.ci/run installs it) and reads its byte ranges.
func TestRunReadsMatches(t *testing.T) {
	bin := os.Getenv("EVGREP_REFERENCE_ASTGREP")
	if bin == "" {
		t.Skip("EVGREP_REFERENCE_ASTGREP is not set")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc f() { panic(1); panic(2) }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spans, err := Run(bin, []string{"run", "--pattern", "panic($A)", "--lang", "go", "."}, dir)
	if err != nil {
		t.Fatal(err)
	}
	Sort(spans)
	if len(spans) != 2 || spans[0] != (Span{"a.go", 22, 30}) || spans[1] != (Span{"a.go", 32, 40}) {
		t.Fatalf("spans %v", spans)
	}
	if spans, err := Run(bin, []string{"run", "--pattern", "nothere($A)", "--lang", "go", "."}, dir); err != nil || len(spans) != 0 {
		t.Fatalf("no match: %v %v", spans, err)
	}
}
