package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/walker"
)

// stopTree is a dirTree whose files cannot be read: each read fails with
// an error that says the tree cannot be read further.
type stopTree struct {
	dirTree
	reads *int
}

func (s stopTree) ReadFile(string) ([]byte, error) {
	*s.reads++
	return nil, fmt.Errorf("budget gone: %w", walker.ErrStopTree)
}

// TestStopTreeEndsTheWalk: an error wrapping walker.ErrStopTree, from a
// line filter (Run, --changed-since) or a tree's read (RunTree, --rev),
// ends the walk after that file.
func TestStopTreeEndsTheWalk(t *testing.T) {
	dir := t.TempDir()
	for i := range 50 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), []byte("x\n"), 0o644)
	}
	m, err := matcher.Compile(matcher.Options{Patterns: []string{"x"}, LineTerminator: '\n'})
	if err != nil {
		t.Fatal(err)
	}
	newRec := func() func() Sink {
		rec := &recorder{mu: &sync.Mutex{}, lines: map[string][]string{}, errs: map[string]error{}, tapped: map[string][]byte{}}
		return func() Sink { return rec }
	}
	opts := baseOptions()
	opts.Walk.Threads = 1
	filtered := 0
	opts.Lines = func(string, []byte) ([]LineRun, error) {
		filtered++
		return nil, fmt.Errorf("at HEAD: %w", walker.ErrStopTree)
	}
	if err := Run([]string{dir}, opts, m, newRec()); err != nil {
		t.Fatal(err)
	}
	if filtered != 1 {
		t.Errorf("Run: %d files filtered after the first stop, want 1", filtered)
	}
	reads := 0
	opts = baseOptions()
	if err := RunTree(stopTree{dirTree{dir}, &reads}, []string{dir}, opts, m, newRec()); err != nil {
		t.Fatal(err)
	}
	if reads != 1 {
		t.Errorf("RunTree: %d files read after the first stop, want 1", reads)
	}
}
