package agent

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
)

// TestCancelAndProgress: Env.Progress is called every ProgressEvery files
// with the count so far, and Env.Cancelled stops the walk: the answer is
// CodeCancelled, not a result of the files walked before.
func TestCancelAndProgress(t *testing.T) {
	const nFiles = 4 * ProgressEvery
	files := map[string]string{}
	for i := 0; i < nFiles; i++ {
		files[fmt.Sprintf("d%d/f%04d.txt", i%7, i)] = "needle\n"
	}
	root := tree(t, files)

	var mu sync.Mutex
	var counts []int
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root, Progress: func(n int) {
		mu.Lock()
		counts = append(counts, n)
		mu.Unlock()
	}}
	a := ask(t, env, `{"pattern":"needle","mode":"summary"}`)
	if a.Details.Totals.Files != nFiles {
		t.Fatalf("%d files, want %d", a.Details.Totals.Files, nFiles)
	}
	seen := map[int]bool{}
	for _, n := range counts {
		seen[n] = true
	}
	if len(counts) != 4 || !seen[ProgressEvery] || !seen[nFiles] {
		t.Fatalf("progress calls %v, want every %d files up to %d", counts, ProgressEvery, nFiles)
	}

	var polled atomic.Int64
	env = Env{Store: snapshot.NewMemoryStore(), Cwd: root, Cancelled: func() bool {
		return polled.Add(1) > ProgressEvery // cancelled once a quarter is walked
	}}
	a = HandleJSON([]byte(`{"pattern":"needle"}`), env)
	if !a.Failed || a.Details.Error == nil || a.Details.Error.Code != CodeCancelled {
		t.Fatalf("cancelled search: %s", a.Text)
	}
	if n := polled.Load(); n > 2*ProgressEvery {
		t.Fatalf("the walk went on after the cancel: %d files polled of %d", n, nFiles)
	}
}
