package snapshot

import (
	"bytes"
	"fmt"
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
	full.liveQ = nil
	st.writeEvictMark(full)
	if m := put("c"); !m.scanned.Equal(clk.t) || m.dirs != 3 || m.live.n != MaxDiskSnapshots-3 {
		t.Fatalf("a mark without room or queue did not bring a scan: %+v", m)
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

// TestEvictQueue: at a class's bound, a write evicts the oldest snapshot
// of the mark's queue without a scan, exactly as a scan would (LRU); a
// queued snapshot used since the scan is passed over and stays; a queue
// that runs out brings a scan back.
// markedStore is a state folder written a second apart, with each write's
// snapshot ID and time and the eviction mark it left.
type markedStore struct {
	t     *testing.T
	dir   string
	clk   *clock
	st    *Store
	ids   []string
	times []time.Time
}

func newMarkedStore(t *testing.T) *markedStore {
	dir := t.TempDir()
	clk := &clock{t: time.Now()}
	return &markedStore{t: t, dir: dir, clk: clk, st: storeWithClock(dir, clk)}
}

// put writes a snapshot tagged tag a second after the last and returns
// the mark.
func (ms *markedStore) put(tag string) evictMark {
	ms.t.Helper()
	ms.clk.t = ms.clk.t.Add(time.Second)
	snap := mustSnapshot(ms.t, tag, 2)
	if err := ms.st.Put(snap); err != nil {
		ms.t.Fatal(err)
	}
	ms.ids, ms.times = append(ms.ids, snap.ID), append(ms.times, ms.clk.t)
	m, ok := ms.st.readEvictMark()
	if !ok {
		ms.t.Fatal("no eviction mark after a write")
	}
	return m
}

// expired reports whether the i-th snapshot written is a tombstone.
func (ms *markedStore) expired(i int) bool {
	_, err := os.Stat(filepath.Join(ms.st.snapDir(ms.ids[i]), expiredName))
	return err == nil
}

func TestEvictQueue(t *testing.T) {
	ms := newMarkedStore(t)
	dir, clk, st, put := ms.dir, ms.clk, ms.st, ms.put
	for _, tag := range []string{"a", "b", "c", "d"} {
		put(tag)
	}
	// A scan queues the oldest first.
	clk.t = clk.t.Add(time.Second)
	m, _ := st.readEvictMark()
	m.live.n, m.liveQ = 0, nil
	st.writeEvictMark(m)
	scan := put("e")
	if len(scan.liveQ) != 5 || scan.liveQ[0].name != snapDirPrefix+ms.ids[0] || scan.liveQ[4].name != snapDirPrefix+ms.ids[4] {
		t.Fatalf("the scan's queue: %+v", scan.liveQ)
	}
	// As if the folder were at its bound.
	scan.live.n = 0
	st.writeEvictMark(scan)
	m = put("f")
	if !m.scanned.Equal(scan.scanned) || !ms.expired(0) || ms.expired(1) || m.live.n != 0 || len(m.liveQ) != 4 {
		t.Fatalf("the write at the bound scanned, or did not evict the oldest: %+v", m)
	}
	// The next oldest is used (its file touched): it is passed over.
	used := filepath.Join(st.snapDir(ms.ids[1]), snapFileName)
	if err := os.Chtimes(used, clk.t, clk.t); err != nil {
		t.Fatal(err)
	}
	m = put("g")
	if !m.scanned.Equal(scan.scanned) || ms.expired(1) || !ms.expired(2) || len(m.liveQ) != 2 {
		t.Fatalf("a used snapshot was evicted, or the next was not: %+v", m)
	}
	if _, tombs := countDirs(t, dir); tombs != 2 {
		t.Fatalf("%d tombstones in the folder, want 2", tombs)
	}
	for _, tag := range []string{"h", "i"} {
		put(tag)
	}
	// The queue ran out (ids 3 and 4 went): the next write scans.
	if m = put("j"); !m.scanned.Equal(clk.t) {
		t.Fatalf("an empty queue at the bound did not bring a scan: %+v", m)
	}
	if !ms.expired(3) || !ms.expired(4) || ms.expired(1) {
		t.Fatal("the queue did not evict in order")
	}
}

// TestEvictQueueIdle: snapshots that become idle after a scan are the
// heads of its queue; a write past their idle time expires them without a
// scan and keeps the rest, and the class's next due time is its new head's.
func TestEvictQueueIdle(t *testing.T) {
	ms := newMarkedStore(t)
	put, expired := ms.put, ms.expired
	for _, tag := range []string{"a", "b", "c", "d"} {
		put(tag)
	}
	os.Remove(filepath.Join(ms.dir, evictMarkName))
	// This write scans: the queue holds a to e. Then a and b are idle, c
	// not yet.
	scan := put("e")
	ms.clk.t = ms.times[1].Add(IdleExpiry + time.Second/2 - time.Second)
	m := put("f")
	if !m.scanned.Equal(scan.scanned) || !expired(0) || !expired(1) || expired(2) {
		t.Fatalf("idle heads: scanned %v (scan %v), expired a %v b %v c %v", m.scanned, scan.scanned, expired(0), expired(1), expired(2))
	}
	// (A file's time keeps microseconds.)
	if want := ms.times[2].Add(IdleExpiry); m.live.due.Sub(want).Abs() > time.Millisecond {
		t.Fatalf("the class's next due time is %v, want c's idle time %v", m.live.due, want)
	}
}

// TestEvictMarkInPlace: a mark written over a longer one is read back as
// itself, and the file holds nothing after it; a longer mark over a
// shorter one as well; and the line a crash could leave before the cut (the
// new mark, then the end of the old) reads as the new mark.
func TestEvictMarkInPlace(t *testing.T) {
	st := NewStore(t.TempDir())
	if err := st.prepareDir(true); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(st.dir, evictMarkName)
	now := time.Unix(1_800_000_000, 5)
	long := evictMark{scanned: now, due: now.Add(time.Hour), dirs: 123456, live: roomLeft{n: 400, bytes: 200 << 20, due: now.Add(time.Hour)}, aux: roomLeft{n: 30, bytes: 9 << 20}}
	short := evictMark{scanned: now, dirs: 1, live: roomLeft{n: 2, bytes: 3}, aux: roomLeft{n: 4, bytes: 5}}
	for _, m := range []evictMark{long, short, long} {
		if !st.writeEvictMark(m) {
			t.Fatal("mark not written")
		}
		got, ok := st.readEvictMark()
		if !ok || !got.scanned.Equal(m.scanned) || got.dirs != m.dirs || got.live.n != m.live.n || got.live.bytes != m.live.bytes || got.aux.bytes != m.aux.bytes {
			t.Fatalf("read back %+v (%v), wrote %+v", got, ok, m)
		}
		data, _ := os.ReadFile(path)
		if n := len(data); n == 0 || data[n-1] != '\n' || bytes.IndexByte(data, '\n') != n-1 {
			t.Fatalf("mark file %q: not one line", data)
		}
	}
	// Before the cut: the short line over the long one.
	st.writeEvictMark(long)
	longLine, _ := os.ReadFile(path)
	st.writeEvictMark(short)
	shortLine, _ := os.ReadFile(path)
	torn := append(append([]byte(nil), shortLine...), longLine[len(shortLine):]...)
	if err := os.WriteFile(path, torn, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, ok := st.readEvictMark(); !ok || got.dirs != short.dirs || got.live.bytes != short.live.bytes {
		t.Fatalf("uncut mark %q read as %+v (%v)", torn, got, ok)
	}
}

// TestEvictQueueTombstones: a busy folder holds MaxTombstones tombstones,
// and each eviction then also removes the oldest; the tombstone queue does
// that without a scan, and the folder keeps its bounds (driven with
// continuations, whose class has the small MaxAuxSnapshots bound).
func TestEvictQueueTombstones(t *testing.T) {
	dir := t.TempDir()
	clk := &clock{t: time.Now()}
	st := storeWithClock(dir, clk)
	scans := 0
	var last time.Time
	for i := range MaxAuxSnapshots + MaxTombstones + 3*evictQueue {
		clk.t = clk.t.Add(time.Second)
		empty := NewBuilder().Build(Meta{Root: "/src", Options: map[string]string{"kind": "source", "n": fmt.Sprint(i)}, Created: clk.t})
		if _, err := st.NewCursor(empty, KindMatches, 0, PathSelection{}); err != nil {
			t.Fatal(err)
		}
		m, ok := st.readEvictMark()
		if !ok {
			t.Fatal("no eviction mark")
		}
		if !m.scanned.Equal(last) {
			scans++
			last = m.scanned
		}
		if i >= MaxAuxSnapshots+MaxTombstones {
			if live, tombs := countDirs(t, dir); live != MaxAuxSnapshots || tombs != MaxTombstones || m.tombs() != tombs {
				t.Fatalf("write %d: %d live, %d tombstones (the mark counts %d)", i, live, tombs, m.tombs())
			}
		}
	}
	// The first write scans, then one per queue's worth of evictions (the
	// class's queue holds at most its MaxAuxSnapshots kept ones).
	if max := 2 + (MaxTombstones+3*evictQueue)/min(evictQueue, MaxAuxSnapshots); scans > max {
		t.Errorf("%d scans over %d writes, want at most %d", scans, MaxAuxSnapshots+MaxTombstones+3*evictQueue, max)
	}
}
