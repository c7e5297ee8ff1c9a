package snapshot

import "github.com/evgrep/evgrep/internal/stackhint"

// A snapshot's write to the state folder (encoding, a temporary file, a
// rename, the eviction check) is file-system work of a millisecond or two
// that needs nothing but the finished snapshot. Prestore starts it as soon
// as the snapshot is built, on its own goroutine, so that it overlaps what
// the caller does next (rendering the answer), and the cursor made of the
// snapshot waits for it: a cursor is only handed out for a snapshot that
// is on disk, exactly as when Put wrote it first.

// pendingWrite is one Prestore write: done is closed once err is set.
type pendingWrite struct {
	done chan struct{}
	err  error
}

// Prestore stores snap as Put does, giving it an ID at once and keeping it
// in memory, but writes it to the state folder on another goroutine. The
// next NewPageCursor (or NewCursor) of snap waits for that write and fails
// as Put would have; Flush waits for every write begun. snap must not
// change afterwards (snapshots are read-only once built).
func (s *Store) Prestore(snap *Snapshot) {
	if snap == nil {
		return
	}
	now := s.now()
	s.mu.Lock()
	s.keepLocked(snap, now)
	if s.dir == "" {
		s.mu.Unlock()
		return
	}
	w := &pendingWrite{done: make(chan struct{})}
	if s.writes == nil {
		s.writes = make(map[string]*pendingWrite)
	}
	s.writes[snap.ID] = w
	s.mu.Unlock()
	go func() {
		stackhint.Worker()
		w.err = s.writeSnapshot(snap, now)
		close(w.done)
		if w.err == nil {
			s.forget(snap.ID, w)
		}
	}()
}

// forget drops write w of snapshot id from those pending.
func (s *Store) forget(id string, w *pendingWrite) {
	s.mu.Lock()
	if s.writes[id] == w {
		delete(s.writes, id)
	}
	s.mu.Unlock()
}

// written waits for the Prestore write of snapshot id, if one is pending,
// and returns its error (nil when there was none). The write is then
// forgotten: a second cursor of the snapshot is written as after a failed
// Put, without a second attempt.
func (s *Store) written(id string) error {
	s.mu.Lock()
	w := s.writes[id]
	s.mu.Unlock()
	if w == nil {
		return nil
	}
	<-w.done
	s.forget(id, w)
	return w.err
}

// Flush waits for every write Prestore began and forgets them; the first
// error is returned. A process calls it before it exits, so that no
// snapshot it announced is left half written.
func (s *Store) Flush() error {
	s.mu.Lock()
	ws := s.writes
	s.writes = nil
	s.mu.Unlock()
	var first error
	for _, w := range ws {
		<-w.done
		if first == nil {
			first = w.err
		}
	}
	return first
}
