package snapshot

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestEvictMarkRoom: after a scan, a write that fits takes its room from
// the mark without a scan; a mark without room, one past its due time and
// a snapshot directory the mark does not count each bring a scan back.
func TestEvictMarkRoom(t *testing.T) {
	dir := t.TempDir()
	clk := &clock{t: time.Now()}
	st := storeWithClock(dir, clk)
	put := func(tag string) evictMark {
		t.Helper()
		clk.t = clk.t.Add(time.Second)
		if err := st.Put(mustSnapshot(t, tag, 2)); err != nil {
			t.Fatal(err)
		}
		m, ok := st.readEvictMark()
		if !ok {
			t.Fatal("no eviction mark after a write")
		}
		return m
	}
	first := put("a")
	if first.dirs != 1 || first.live.n != MaxDiskSnapshots-1 || !first.scanned.Equal(clk.t) {
		t.Fatalf("mark after the first write: %+v", first)
	}
	second := put("b")
	if second.dirs != 2 || second.live.n != MaxDiskSnapshots-2 || !second.scanned.Equal(first.scanned) {
		t.Fatalf("the second write scanned or did not take its room: %+v", second)
	}
	if second.live.bytes >= first.live.bytes {
		t.Fatalf("the second write took no bytes: %d then %d", first.live.bytes, second.live.bytes)
	}

	full := second
	full.live.n = 0
	st.writeEvictMark(full)
	if m := put("c"); !m.scanned.Equal(clk.t) || m.dirs != 3 || m.live.n != MaxDiskSnapshots-3 {
		t.Fatalf("a mark without room did not bring a scan: %+v", m)
	}

	if m := put("d"); !m.due.After(clk.t) || m.scanned.Equal(clk.t) {
		t.Fatalf("a write within the room scanned: %+v", m)
	}
	clk.t = clk.t.Add(IdleExpiry + time.Minute)
	// The four idle ones become tombstones, still directories.
	if m := put("e"); !m.scanned.Equal(clk.t) || m.live.n != MaxDiskSnapshots-1 || m.dirs != 5 {
		t.Fatalf("past its due time, the idle snapshots stayed: %+v", m)
	}

	// A directory left by a crashed writer, which the mark does not count.
	half := filepath.Join(dir, snapDirPrefix+newToken())
	if err := os.Mkdir(half, 0o700); err != nil {
		t.Fatal(err)
	}
	put("f")
	if _, err := os.Stat(half); !os.IsNotExist(err) {
		t.Fatalf("a directory the mark does not count was not cleaned: %v", err)
	}
}
