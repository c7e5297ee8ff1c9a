package snapshot

import (
	"fmt"
	"os"
	"path/filepath"
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
// The mark is one line, `evict v1 <scanned> <due> <dirs> <live n> <live
// bytes> <aux n> <aux bytes>` (times in Unix nanoseconds; dirs the
// snapshot directories), overwritten in place under the exclusive lock
// (writeInPlace). A mark that is missing, unreadable, older than
// IdleExpiry, from a later scan time than now (a clock that went back) or
// due further ahead than any bound allows, means a scan.
const (
	evictMarkName    = ".evict"
	evictMarkVersion = "v1"
	maxEvictMarkSize = 256
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
	scanned, due time.Time
	dirs         int
	live, aux    roomLeft
}

// evictNotDue reports whether the write of a snapshot of size bytes (aux
// or not) fits in the room of the last scan's mark before its due time; if
// so it takes that room and writes the mark back. The caller holds the
// exclusive lock.
func (s *Store) evictNotDue(now time.Time, size int64, aux bool) bool {
	m, ok := s.readEvictMark()
	if !ok || now.Before(m.scanned) || now.Sub(m.scanned) > IdleExpiry ||
		m.due.After(m.scanned.Add(TombstoneTTL)) || !m.due.IsZero() && !now.Before(m.due) {
		return false
	}
	room := &m.live
	if aux {
		room = &m.aux
	}
	if !room.take(size) {
		return false
	}
	dirs, ok := s.countSnapshotDirs()
	// The new snapshot's directory, or none when it was written again.
	if !ok || dirs != m.dirs && dirs != m.dirs+1 {
		return false
	}
	m.dirs = dirs
	return s.writeEvictMark(m)
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
	var v string
	var scanned, due int64
	n, err := fmt.Sscanf(string(data), "evict %s %d %d %d %d %d %d %d\n", &v, &scanned, &due,
		&m.dirs, &m.live.n, &m.live.bytes, &m.aux.n, &m.aux.bytes)
	if err != nil || n != 8 || v != evictMarkVersion {
		return m, false
	}
	m.scanned = time.Unix(0, scanned)
	if due != 0 {
		m.due = time.Unix(0, due)
	}
	m.live.due, m.aux.due = m.due, m.due
	return m, true
}

// writeEvictMark writes m; it reports whether the mark was written (a mark
// that cannot be written is removed, so that the next write scans).
func (s *Store) writeEvictMark(m evictMark) bool {
	var due int64
	if !m.due.IsZero() {
		due = m.due.UnixNano()
	}
	line := fmt.Sprintf("evict %s %d %d %d %d %d %d %d\n", evictMarkVersion, m.scanned.UnixNano(), due,
		m.dirs, m.live.n, m.live.bytes, m.aux.n, m.aux.bytes)
	path := filepath.Join(s.dir, evictMarkName)
	if writeInPlace(path, []byte(line)) != nil {
		os.Remove(path)
		return false
	}
	return true
}
