package rankindex

import (
	"math/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evgrep/evgrep/rank"
)

// inOrder adds every document once, in the order of positions, whichever
// worker made it and however long each took, and no worker runs more
// than the window ahead of the next document to add.
func TestInOrderAddsInOrder(t *testing.T) {
	for _, c := range []struct{ n, workers, window int }{{0, 2, 4}, {1, 3, 1}, {500, 2, 1}, {500, 4, 3}, {2000, 8, 16}} {
		var got []int
		q := newInOrder(c.n, c.window, func(k int, d *rank.FileDoc) {
			if d == nil || d.Path != string(rune('a'+k%26)) {
				t.Errorf("position %d: document %v", k, d)
			}
			got = append(got, k)
		})
		var claimed atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < c.workers; w++ {
			wg.Add(1)
			go func(seed int64) {
				defer wg.Done()
				rng := rand.New(rand.NewSource(seed))
				for {
					k := int(claimed.Add(1) - 1)
					if k >= c.n {
						return
					}
					q.wait(k)
					if ahead := k - q.added(); ahead >= c.window {
						t.Errorf("position %d made %d ahead of the next to add (window %d)", k, ahead, c.window)
					}
					if rng.Intn(10) == 0 {
						time.Sleep(time.Duration(rng.Intn(200)) * time.Microsecond)
					}
					q.put(k, &rank.FileDoc{Path: string(rune('a' + k%26))})
				}
			}(int64(w))
		}
		wg.Wait()
		if len(got) != c.n || q.added() != c.n {
			t.Fatalf("%+v: %d added (%d), want %d", c, len(got), q.added(), c.n)
		}
		for k, g := range got {
			if g != k {
				t.Fatalf("%+v: position %d added %dth", c, g, k)
			}
		}
	}
}
