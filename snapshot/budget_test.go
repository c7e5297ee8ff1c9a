package snapshot

import (
	"testing"
	"time"
)

// TestMemoryBudget: MemoryBytes counts what is kept in memory, grows with
// the retained text, and EvictOldest drops the least recently used
// snapshot (its cursor then reports expiry) and returns what it freed.
func TestMemoryBudget(t *testing.T) {
	c := &clock{t: time.Now()}
	s := storeWithClock("", c)
	if n := s.MemoryBytes(); n != 0 {
		t.Fatalf("empty store: %d bytes", n)
	}
	if _, ok := s.Oldest(); ok || s.EvictOldest() != 0 {
		t.Fatal("an empty store has something to evict")
	}
	small, big := mustSnapshot(t, "small", 3), mustSnapshot(t, "big", 300)
	if small.Size() <= 0 || big.Size() < 50*small.Size() {
		t.Fatalf("sizes %d (3 files) and %d (300 files)", small.Size(), big.Size())
	}
	text := int64(0)
	for _, f := range big.Files() {
		for _, l := range big.FileLines(f.Path) {
			text += int64(len(l.Text))
		}
	}
	if big.Size() < text {
		t.Fatalf("size %d below the retained text %d", big.Size(), text)
	}
	if err := s.Put(big); err != nil {
		t.Fatal(err)
	}
	tok, err := s.NewCursor(big, KindMatches, 0, PathSelection{})
	if err != nil {
		t.Fatal(err)
	}
	c.t = c.t.Add(time.Second)
	if err := s.Put(small); err != nil {
		t.Fatal(err)
	}
	if got, want := s.MemoryBytes(), big.Size()+small.Size(); got != want {
		t.Fatalf("MemoryBytes %d, want %d", got, want)
	}
	if used, ok := s.Oldest(); !ok || !used.Equal(c.t.Add(-time.Second)) {
		t.Fatalf("Oldest = %v %v", used, ok)
	}
	if freed := s.EvictOldest(); freed != big.Size() {
		t.Fatalf("EvictOldest freed %d, want the big snapshot's %d", freed, big.Size())
	}
	if s.MemoryBytes() != small.Size() {
		t.Fatalf("after eviction: %d bytes", s.MemoryBytes())
	}
	_, _, err = s.Resolve(tok, "", "", "")
	wantCode(t, "cursor of the evicted snapshot", err, CodeExpired)
}
