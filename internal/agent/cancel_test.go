package agent

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/evgrep/evgrep/internal/progress"
	"github.com/evgrep/evgrep/snapshot"
)

// TestCancelAndProgress: the context's progress.Reporter is called every
// ProgressEvery files with the count so far, and cancelling the context
// stops the walk: the answer is
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
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	ctx := progress.WithReporter(context.Background(), func(n int) {
		mu.Lock()
		counts = append(counts, n)
		mu.Unlock()
	})
	a := HandleJSON(ctx, []byte(`{"pattern":"needle","mode":"summary"}`), env)
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

	env = Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	// Cancelled once a quarter is walked.
	ctx2 := cancelAfter(ProgressEvery)
	a = HandleJSON(ctx2, []byte(`{"pattern":"needle"}`), env)
	if !a.Failed || a.Details.Error == nil || a.Details.Error.Code != CodeCancelled {
		t.Fatalf("cancelled search: %s", a.Text)
	}
	if n := ctx2.polls.Load(); n > 2*ProgressEvery {
		t.Fatalf("the walk went on after the cancel: %d files polled of %d", n, nFiles)
	}
}

// pollCancel is a context that is cancelled at its (n+1)th poll: a walk
// polls once per file, so the work stops after n files.
type pollCancel struct {
	context.Context
	left  atomic.Int64
	polls atomic.Int64
	once  sync.Once
	done  chan struct{}
}

// cancelAfter returns a context cancelled at its (n+1)th poll.
func cancelAfter(n int64) *pollCancel {
	c := &pollCancel{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(n)
	return c
}

// Done implements context.Context.
func (c *pollCancel) Done() <-chan struct{} {
	c.polls.Add(1)
	if c.left.Add(-1) < 0 {
		c.once.Do(func() { close(c.done) })
	}
	return c.done
}

// Err implements context.Context.
func (c *pollCancel) Err() error {
	select {
	case <-c.done:
		return context.Canceled
	default:
		return nil
	}
}
