package snapshot

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The eviction mark: what the last scan of the state folder (evictDisk)
// left, so that the next writes need not scan it again. A scan reads the
// folder and stats two files in each of its up to MaxDiskSnapshots +
// MaxTombstones snapshot directories; an agent call on a small tree spent
// more on it than on its search. After a scan the mark records, for the
// snapshots with match lines and for the aux ones, how many more and how
// many more bytes fit in their bounds, and the earliest time at which any
// kept snapshot can become idle or any tombstone too old. A write that fits
// in the room left before that time evicts nothing — the new snapshot is
// the newest, the others keep their order, and the use of a snapshot only
// makes it newer — so it takes its room from the mark instead of
// scanning. The folder's names are still read (one listing, no stat), so
// that the leftovers of a crashed or foreign write (a temporary file, a
// snapshot directory the mark does not count) are cleaned at once, as a
// scan would.
//
// A class at its bound (the usual state of a folder that agents use
// hard: MaxDiskSnapshots searches within IdleExpiry) has no room, and
// every write then scanned the whole folder to find the one to evict: a
// quarter of an agent call's CPU. The mark therefore also keeps, per
// class, the oldest evictQueue snapshots the scan kept, oldest first. A
// write that does not fit evicts from the head of that queue instead of
// scanning, which is the scan's own choice: the snapshots not in the
// queue were newer than all of it at the scan, and a use or a write only
// makes one newer. A queued snapshot whose file changed since (it was
// used) is newer than the rest and is passed over; one that is gone, a
// queue that runs out or the tombstone bound mean a scan.
//
// The same queues take the snapshots that become idle: those are the
// oldest too, so a write past a class's due time expires the heads of its
// queue that are idle, and the class's next due time is its new head's.
// Tombstones have a queue of their own, as a busy folder keeps
// MaxTombstones of them: an eviction past that bound, or past the oldest
// one's TombstoneTTL, removes the head.
//
// The mark is one line, `evict v2 <scanned> <live due> <aux due> <tomb
// due> <dirs> <live n> <live bytes> <aux n> <aux bytes> <k> k×(<name>
// <mtime> <size>) <k> k×(...) <k> k×(...) end` (times in Unix
// nanoseconds, 0 for none; dirs the snapshot directories; the queues: live,
// aux, then tombstones), overwritten in place under the exclusive lock
// (writeInPlace). A mark that is missing, unreadable, older than
// IdleExpiry, from a later scan time than now (a clock that went back) or
// due further ahead than any bound allows, means a scan.
const (
	evictMarkName    = ".evict"
	evictMarkVersion = "v2"
	// maxEvictMarkSize holds the counts and two full queues (a snapshot
	// directory's name is 35 bytes, each time and size at most 20).
	maxEvictMarkSize = 256 + 3*evictQueue*80
)

// roomLeft is what one class of snapshots keeps after a scan: first how
// many and how many bytes were kept, then (room) how many more fit.
type roomLeft struct {
	n     int
	bytes int64
	due   time.Time // earliest time a kept one becomes due; zero: none
}

// add counts one kept snapshot of size bytes that becomes due at due.
func (r *roomLeft) add(size int64, due time.Time) {
	r.n++
	r.bytes += size
	r.due = earliest(r.due, due)
}

// room turns the kept counts into the room left under bound snapshots and
// maxBytes bytes.
func (r roomLeft) room(bound int, maxBytes int64) roomLeft {
	return roomLeft{n: bound - r.n, bytes: maxBytes - r.bytes, due: r.due}
}

// fits reports whether one more snapshot of size bytes fits.
func (r roomLeft) fits(size int64) bool { return r.n >= 1 && size <= r.bytes }

// take reports whether one more snapshot of size bytes fits, and takes
// its room.
func (r *roomLeft) take(size int64) bool {
	if r.n < 1 || size > r.bytes {
		return false
	}
	r.n--
	r.bytes -= size
	return true
}

// earliest is the earlier of two times, a zero time counting as none.
func earliest(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// evictMark is the mark's content.
type evictMark struct {
	// due is the earliest of the classes' due times and tombDue, the
	// earliest time a tombstone becomes too old.
	scanned, due, tombDue time.Time
	dirs                  int
	live, aux             roomLeft
	// liveQ and auxQ are each class's oldest kept snapshots, oldest first;
	// tombQ the oldest tombstones (mtime: when each was made).
	liveQ, auxQ, tombQ []queued
}

// queued is a snapshot in an eviction queue: its directory's name and its
// file's modification time (Unix nanoseconds) and size at the scan.
type queued struct {
	name        string
	mtime, size int64
}

// tombs is how many tombstones the folder holds by the mark: its snapshot
// directories less the kept ones of each class.
func (m *evictMark) tombs() int {
	return m.dirs - (MaxDiskSnapshots - m.live.n) - (MaxAuxSnapshots - m.aux.n)
}

// evictNotDue reports whether the write of a snapshot of size bytes (aux
// or not) fits in the room of the last scan's mark before its due time; if
// so it takes that room and writes the mark back. The caller holds the
// exclusive lock.
func (s *Store) evictNotDue(now time.Time, size int64, aux bool) bool {
	m, ok := s.readEvictMark()
	if !ok || now.Before(m.scanned) || now.Sub(m.scanned) > IdleExpiry ||
		m.due.After(m.scanned.Add(TombstoneTTL)) {
		return false
	}
	before := m.tombs()
	// Tombstones past TombstoneTTL are the oldest: the heads of their queue.
	for !m.tombDue.IsZero() && !now.Before(m.tombDue) {
		if len(m.tombQ) == 0 {
			return false
		}
		if d := time.Unix(0, m.tombQ[0].mtime).Add(TombstoneTTL); now.Before(d) {
			m.tombDue = d
			break
		}
		if !s.dropTomb(&m, now) {
			return false
		}
	}
	// Snapshots that became idle since are each class's oldest: the heads
	// of its queue.
	for _, c := range []struct {
		room *roomLeft
		q    *[]queued
	}{{&m.live, &m.liveQ}, {&m.aux, &m.auxQ}} {
		for !c.room.due.IsZero() && !now.Before(c.room.due) {
			e, ok := s.queueHead(c.q)
			if !ok {
				return false
			}
			if d := time.Unix(0, e.mtime).Add(IdleExpiry); now.Before(d) {
				c.room.due = d // the older ones were used since
				break
			}
			if !s.evictHead(&m, c.q, c.room, now) {
				return false
			}
		}
	}
	room, q := &m.live, &m.liveQ
	if aux {
		room, q = &m.aux, &m.auxQ
	}
	for !room.fits(size) {
		if !s.evictHead(&m, q, room, now) {
			return false
		}
	}
	room.take(size)
	dirs, ok := s.countSnapshotDirs()
	// The new snapshot's directory, or none when it was written again.
	if !ok || dirs != m.dirs && dirs != m.dirs+1 {
		return false
	}
	if m.tombs() > before {
		m.tombDue = earliest(m.tombDue, now.Add(TombstoneTTL))
	}
	m.dirs = dirs
	m.due = earliest(earliest(m.live.due, m.aux.due), m.tombDue)
	return s.writeEvictMark(m)
}

// queueHead drops from q the snapshots used since the scan (their files
// changed: they are newer than every other now) and returns the oldest
// left; ok is false when q runs out or a queued snapshot is gone.
func (s *Store) queueHead(q *[]queued) (e queued, ok bool) {
	for len(*q) > 0 {
		e = (*q)[0]
		fi, err := os.Lstat(filepath.Join(s.dir, e.name, snapFileName))
		if err != nil || !fi.Mode().IsRegular() {
			return e, false
		}
		if fi.ModTime().UnixNano() == e.mtime && fi.Size() == e.size {
			return e, true
		}
		*q = (*q)[1:]
	}
	return e, false
}

// evictHead evicts the oldest snapshot of a class, the head of its queue
// q, and gives its room back to room; at MaxTombstones it first removes
// the oldest tombstone (dropTomb). The class's next idle time is then its
// new head's, or, with none queued, unknown: now, which brings the next
// write to a scan. It reports false when that cannot be done without a
// scan: no head (queueHead), or no tombstone to remove.
func (s *Store) evictHead(m *evictMark, q *[]queued, room *roomLeft, now time.Time) bool {
	e, ok := s.queueHead(q)
	if !ok || m.tombs() >= MaxTombstones && !s.dropTomb(m, now) || !expireDir(filepath.Join(s.dir, e.name), now) {
		return false
	}
	*q = (*q)[1:]
	room.n++
	room.bytes += e.size
	room.due = now
	if len(*q) > 0 {
		room.due = time.Unix(0, (*q)[0].mtime).Add(IdleExpiry)
	}
	return true
}

// dropTomb removes the oldest tombstone, the head of m's tombstone queue
// (tombstones are only ever made newer than the rest), and counts its
// directory gone. The next tombstone's TTL is then the queue's new
// head's, or, with none queued, unknown: now. It reports false when the
// queue is empty or its head is no longer a tombstone.
func (s *Store) dropTomb(m *evictMark, now time.Time) bool {
	if len(m.tombQ) == 0 {
		return false
	}
	dir := filepath.Join(s.dir, m.tombQ[0].name)
	if _, err := os.Lstat(filepath.Join(dir, expiredName)); err != nil {
		return false
	}
	if _, err := os.Lstat(filepath.Join(dir, snapFileName)); err == nil {
		return false
	}
	if os.RemoveAll(dir) != nil {
		return false
	}
	m.tombQ = m.tombQ[1:]
	m.dirs--
	m.tombDue = now
	if len(m.tombQ) > 0 {
		m.tombDue = time.Unix(0, m.tombQ[0].mtime).Add(TombstoneTTL)
	}
	return true
}

// countSnapshotDirs counts the names of snapshot directories in the state
// folder; ok is false when it cannot be listed or holds a temporary file.
func (s *Store) countSnapshotDirs() (n int, ok bool) {
	f, err := os.Open(s.dir)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return 0, false
	}
	for _, name := range names {
		if strings.HasPrefix(name, tmpPrefix) {
			return 0, false
		}
		if id, ok := strings.CutPrefix(name, snapDirPrefix); ok && validToken(id) {
			n++
		}
	}
	return n, true
}

// readEvictMark reads the mark; ok is false when there is none that
// parses.
func (s *Store) readEvictMark() (m evictMark, ok bool) {
	data, err := readState(filepath.Join(s.dir, evictMarkName), maxEvictMarkSize)
	if err != nil {
		return m, false
	}
	line, _, _ := strings.Cut(string(data), "\n")
	f := strings.Fields(line)
	if len(f) < 14 || f[0] != "evict" || f[1] != evictMarkVersion || f[len(f)-1] != "end" {
		return m, false
	}
	var n [9]int64
	for i := range n {
		if n[i], err = strconv.ParseInt(f[2+i], 10, 64); err != nil {
			return m, false
		}
	}
	at := func(ns int64) time.Time {
		if ns == 0 {
			return time.Time{}
		}
		return time.Unix(0, ns)
	}
	m.scanned, m.live.due, m.aux.due, m.tombDue = time.Unix(0, n[0]), at(n[1]), at(n[2]), at(n[3])
	m.due = earliest(earliest(m.live.due, m.aux.due), m.tombDue)
	m.dirs, m.live.n, m.live.bytes, m.aux.n, m.aux.bytes = int(n[4]), int(n[5]), n[6], int(n[7]), n[8]
	rest := f[11 : len(f)-1]
	for _, q := range []*[]queued{&m.liveQ, &m.auxQ, &m.tombQ} {
		if len(rest) == 0 {
			return m, false
		}
		k, err := strconv.Atoi(rest[0])
		if err != nil || k < 0 || k > evictQueue || len(rest) < 1+3*k {
			return m, false
		}
		for i := range k {
			e := rest[1+3*i:]
			id, isSnap := strings.CutPrefix(e[0], snapDirPrefix)
			mtime, err1 := strconv.ParseInt(e[1], 10, 64)
			size, err2 := strconv.ParseInt(e[2], 10, 64)
			if !isSnap || !validToken(id) || err1 != nil || err2 != nil {
				return m, false
			}
			*q = append(*q, queued{name: e[0], mtime: mtime, size: size})
		}
		rest = rest[1+3*k:]
	}
	return m, len(rest) == 0
}

// writeEvictMark writes m; it reports whether the mark was written (a mark
// that cannot be written is removed, so that the next write scans).
func (s *Store) writeEvictMark(m evictMark) bool {
	ns := func(t time.Time) int64 {
		if t.IsZero() {
			return 0
		}
		return t.UnixNano()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "evict %s %d %d %d %d %d %d %d %d %d", evictMarkVersion, m.scanned.UnixNano(),
		ns(m.live.due), ns(m.aux.due), ns(m.tombDue), m.dirs, m.live.n, m.live.bytes, m.aux.n, m.aux.bytes)
	for _, q := range [][]queued{m.liveQ, m.auxQ, m.tombQ} {
		q = q[:min(len(q), evictQueue)]
		fmt.Fprintf(&b, " %d", len(q))
		for _, e := range q {
			fmt.Fprintf(&b, " %s %d %d", e.name, e.mtime, e.size)
		}
	}
	b.WriteString(" end\n")
	path := filepath.Join(s.dir, evictMarkName)
	if writeInPlace(path, []byte(b.String())) != nil {
		os.Remove(path)
		return false
	}
	return true
}
