package syntax

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeParse returns an index with as many declarations as the source has
// bytes, counting its calls.
func fakeParse(calls *atomic.Int32) func(Language, []byte) (*index, error) {
	return func(_ Language, src []byte) (*index, error) {
		calls.Add(1)
		if string(src) == "fail" {
			return nil, ErrSyntax
		}
		return &index{recs: make([]rec, len(src)), lines: 1}, nil
	}
}

func TestCacheHitsAndKeys(t *testing.T) {
	var calls atomic.Int32
	c := newIndexCache(4, 100)
	p := fakeParse(&calls)
	a1, _ := c.get(Go, []byte("abc"), p)
	a2, _ := c.get(Go, []byte("abc"), p)
	if a1 != a2 || calls.Load() != 1 {
		t.Fatalf("second get parsed again (%d calls)", calls.Load())
	}
	if b, _ := c.get(Python, []byte("abc"), p); b == a1 || calls.Load() != 2 {
		t.Fatal("the language is not part of the key")
	}
	if _, err := c.get(Go, []byte("fail"), p); !errors.Is(err, ErrSyntax) {
		t.Fatalf("error not passed on: %v", err)
	}
	if _, err := c.get(Go, []byte("fail"), p); !errors.Is(err, ErrSyntax) || calls.Load() != 4 {
		t.Fatalf("an error was cached (%d calls)", calls.Load())
	}
}

func TestCacheBounds(t *testing.T) {
	var calls atomic.Int32
	c := newIndexCache(3, 10)
	p := fakeParse(&calls)
	for i := 0; i < 5; i++ {
		c.get(Go, []byte(fmt.Sprint(i)), p) // one declaration each
	}
	if n, d, _ := c.stats(); n != 3 || d != 3 {
		t.Fatalf("entries %d, decls %d; want 3, 3", n, d)
	}
	// The oldest went first: "0" parses again, "4" does not.
	before := calls.Load()
	c.get(Go, []byte("4"), p)
	c.get(Go, []byte("0"), p)
	if calls.Load() != before+1 {
		t.Fatalf("LRU order wrong: %d parses", calls.Load()-before)
	}
	// The declaration bound evicts several small entries for a big one.
	c.get(Go, []byte("123456789"), p)
	if n, d, _ := c.stats(); d > 10 || n != 2 {
		t.Fatalf("entries %d, decls %d after a big entry", n, d)
	}
	// An index above the whole budget is returned but not kept.
	ix, err := c.get(Go, []byte("0123456789abc"), p)
	if err != nil || len(ix.recs) != 13 {
		t.Fatal("big index not returned")
	}
	if _, d, _ := c.stats(); d > 10 {
		t.Fatalf("decls %d above the bound", d)
	}
}

func TestCacheSharesInflightParse(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	c := newIndexCache(4, 100)
	slow := func(l Language, src []byte) (*index, error) {
		calls.Add(1)
		<-release
		return &index{lines: 1}, nil
	}
	var wg sync.WaitGroup
	got := make([]*index, 8)
	for i := range got {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			got[i], _ = c.get(Rust, []byte("same"), slow)
		}(i)
	}
	// Wait until one parse is in flight, then let it finish.
	for {
		c.mu.Lock()
		n := len(c.inflight)
		c.mu.Unlock()
		if n == 1 {
			break
		}
	}
	close(release)
	wg.Wait()
	if calls.Load() != 1 {
		t.Fatalf("%d parses for one source", calls.Load())
	}
	for _, ix := range got {
		if ix != got[0] || ix == nil {
			t.Fatal("waiters got different indexes")
		}
	}
}

func TestCacheParserPanic(t *testing.T) {
	c := newIndexCache(4, 100)
	_, err := c.get(C, []byte("x"), func(Language, []byte) (*index, error) { panic("boom") })
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("panic not turned into an error: %v", err)
	}
	if n, _, _ := c.stats(); n != 0 {
		t.Fatal("a failed parse was cached")
	}
}
