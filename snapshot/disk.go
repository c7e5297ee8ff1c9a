package snapshot

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// The state folder holds, for each stored snapshot, a directory
//
//	s-<id>/snapshot.zst   the snapshot (see codec.go); its mtime is the
//	                      last use, for the LRU and the idle expiry
//	s-<id>/c-<token>      one cursor record (JSON) per cursor
//	s-<id>/aux            present when the snapshot has no match lines
//	                      (written before snapshot.zst): such snapshots
//	                      are evicted among themselves (MaxAuxSnapshots)
//	s-<id>/expired        present instead of snapshot.zst once evicted, so
//	                      that the cursors report expiry until the
//	                      tombstone itself goes (MaxTombstones, TombstoneTTL)
//
// and a lock file. Every file is written to a temporary name in its final
// directory and renamed into place. Readers and writers hold a shared flock
// on the lock file; eviction (after each Put) holds it exclusively, so it
// never sees a half-written snapshot and may delete leftovers of crashed
// processes.
const (
	lockName      = ".lock"
	snapDirPrefix = "s-"
	snapFileName  = "snapshot.zst"
	expiredName   = "expired"
	auxName       = "aux"
	cursorPrefix  = "c-"
	tmpPrefix     = ".tmp-"
	cursorVersion = 1
)

func (s *Store) snapDir(id string) string { return filepath.Join(s.dir, snapDirPrefix+id) }

// prepareDir checks (and with create, makes) the state folder: a real
// directory (not a symbolic link) owned by this user that no one else can
// write, in folders no one else can write (see checkAncestors); with
// create, one readable by others is tightened to mode 0700. A folder
// another user could have written to is refused, not tightened: it may
// already hold their files.
func (s *Store) prepareDir(create bool) error {
	if create {
		if err := os.MkdirAll(s.dir, 0o700); err != nil {
			return err
		}
	}
	fi, err := os.Lstat(s.dir)
	if err != nil {
		return err
	}
	if err := checkDir(s.dir, fi); err != nil {
		return err
	}
	if err := checkAncestors(s.dir); err != nil {
		return err
	}
	if create && fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(s.dir, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// checkDir checks a folder of the state folder from its Lstat: a real
// directory owned by this user and writable by no one else.
func checkDir(path string, fi fs.FileInfo) error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("%s: a symbolic link, not followed", path)
	case !fi.IsDir():
		return fmt.Errorf("%s: not a directory", path)
	case !ownedBySelf(fi):
		return fmt.Errorf("%s: owned by another user", path)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s: writable by other users (mode %v)", path, fi.Mode().Perm())
	}
	return nil
}

// snapDirOK checks that the snapshot directory d is a real directory of
// this user, so that nothing is read or written through a link.
func snapDirOK(d string) error {
	fi, err := os.Lstat(d)
	if err != nil {
		return err
	}
	return checkDir(d, fi)
}

// readState reads the whole state file at path, opened safely (see
// openState), of at most limit bytes.
func readState(path string, limit int64) ([]byte, error) {
	f, fi, err := openState(path, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, 0, fi.Size()+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			// The file grew after it was opened.
			return nil, fmt.Errorf("%s: changed while read", path)
		}
	}
}

// withLock runs fn holding the state folder's lock.
func (s *Store) withLock(exclusive bool, fn func() error) error {
	unlock, err := lockDir(filepath.Join(s.dir, lockName), exclusive)
	if err != nil {
		return err
	}
	defer unlock()
	return fn()
}

func (s *Store) fail(err error, what string) *Error {
	return newError(CodeUnavailable, err, "state folder %s: %s", s.dir, what)
}

// writeSnapshot persists snap, then evicts by the bounds.
func (s *Store) writeSnapshot(snap *Snapshot, now time.Time) error {
	data, err := encodeSnapshot(snap)
	if err != nil {
		return s.fail(err, "cannot encode the snapshot")
	}
	if err := s.prepareDir(true); err != nil {
		return s.fail(err, "cannot be used")
	}
	err = s.withLock(false, func() error { return s.writeSnapshotLocked(snap.ID, data, snap.aux(), now) })
	if err != nil {
		return s.fail(err, "cannot store the snapshot")
	}
	s.evictDisk(now, snap.ID, int64(len(data)), snap.aux())
	return nil
}

func (s *Store) writeSnapshotLocked(id string, data []byte, aux bool, now time.Time) error {
	d := s.snapDir(id)
	if err := os.Mkdir(d, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	if err := snapDirOK(d); err != nil {
		return err
	}
	if aux {
		// Before the snapshot file: eviction never sees an aux snapshot
		// without its mark.
		if err := writeAtomic(d, auxName, nil, now); err != nil {
			return err
		}
	}
	if err := writeAtomic(d, snapFileName, data, now); err != nil {
		return err
	}
	// A snapshot written again after its eviction is alive again.
	if err := os.Remove(filepath.Join(d, expiredName)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// writeAtomic writes data to dir/name through a temporary file and a
// rename, with modification time mtime.
func writeAtomic(dir, name string, data []byte, mtime time.Time) error {
	return writeAtomicFrom(dir, name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, mtime)
}

// writeAtomicFrom is writeAtomic with the file's bytes written by write.
func writeAtomicFrom(dir, name string, write func(io.Writer) error, mtime time.Time) (err error) {
	f, err := os.CreateTemp(dir, tmpPrefix+"*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			os.Remove(tmp)
		}
	}()
	if err = write(f); err != nil {
		f.Close()
		return err
	}
	if err = setMtime(f, mtime); err != nil {
		f.Close()
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, name))
}

// cursorRecord is a cursor as stored in the state folder.
type cursorRecord struct {
	V           int      `json:"v"`
	Token       string   `json:"token"`
	Snapshot    string   `json:"snapshot"`
	Kind        Kind     `json:"kind"`
	Offset      int      `json:"offset"`
	Paths       []string `json:"paths,omitempty"`
	Limit       int      `json:"limit,omitempty"`
	Context     int      `json:"context,omitempty"`
	Fingerprint string   `json:"fingerprint"`
	Root        string   `json:"root"`
	Created     int64    `json:"created"`
}

// writeCursor persists c; the snapshot file is written again if it is no
// longer in the folder (evicted meanwhile by another process).
func (s *Store) writeCursor(c Cursor, snap *Snapshot, now time.Time) error {
	rec, err := json.Marshal(cursorRecord{
		V: cursorVersion, Token: c.Token, Snapshot: c.Snapshot, Kind: c.Kind,
		Offset: c.Offset, Paths: c.Selection.Paths, Limit: c.Limit, Context: c.Context,
		Fingerprint: c.Fingerprint, Root: c.Root, Created: c.Created.UnixNano(),
	})
	if err != nil {
		return s.fail(err, "cannot encode the cursor")
	}
	if len(rec) > maxCursorFileBytes {
		return s.fail(nil, "the cursor is too large to keep")
	}
	if err := s.prepareDir(true); err != nil {
		return s.fail(err, "cannot be used")
	}
	rewrote, size := false, int64(0)
	err = s.withLock(false, func() error {
		d := s.snapDir(c.Snapshot)
		// A snapshot file that is gone (evicted meanwhile) or is anything
		// but a regular file (replaced by a link, a FIFO, ...) is written
		// again: the rename replaces whatever is there.
		if fi, err := os.Lstat(filepath.Join(d, snapFileName)); err != nil || !fi.Mode().IsRegular() || snapDirOK(d) != nil {
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			data, err := encodeSnapshot(snap)
			if err != nil {
				return err
			}
			if err := s.writeSnapshotLocked(c.Snapshot, data, snap.aux(), now); err != nil {
				return err
			}
			rewrote, size = true, int64(len(data))
		}
		return writeAtomic(d, cursorPrefix+c.Token, rec, now)
	})
	if err != nil {
		return s.fail(err, "cannot store the cursor")
	}
	if rewrote {
		s.evictDisk(now, c.Snapshot, size, snap.aux())
	}
	return nil
}

// readCursor finds the record of token in the state folder.
func (s *Store) readCursor(token string) (Cursor, error) {
	if err := s.prepareDir(false); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Cursor{}, newError(CodeNotFound, nil, "unknown cursor")
		}
		return Cursor{}, s.fail(err, "cannot be used")
	}
	var (
		c     Cursor
		found bool
	)
	err := s.withLock(false, func() error {
		entries, err := os.ReadDir(s.dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			id, ok := strings.CutPrefix(e.Name(), snapDirPrefix)
			if !ok || !validToken(id) || !e.IsDir() {
				continue
			}
			d := filepath.Join(s.dir, e.Name())
			data, err := readState(filepath.Join(d, cursorPrefix+token), maxCursorFileBytes)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return err
			}
			if err := snapDirOK(d); err != nil {
				return err
			}
			c, err = decodeCursor(data, token, id)
			if err != nil {
				return err
			}
			found = true
			return nil
		}
		return nil
	})
	if err != nil {
		return Cursor{}, s.fail(err, "cannot read the cursor")
	}
	if !found {
		return Cursor{}, newError(CodeNotFound, nil, "unknown cursor")
	}
	return c, nil
}

func decodeCursor(data []byte, token, id string) (Cursor, error) {
	var r cursorRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return Cursor{}, fmt.Errorf("corrupt cursor record: %w", err)
	}
	if r.V != cursorVersion || r.Token != token || r.Snapshot != id || !r.Kind.Valid() {
		return Cursor{}, errors.New("corrupt cursor record")
	}
	if !validShape(r.Limit, r.Context) {
		return Cursor{}, errors.New("corrupt cursor record: page limit or context out of bounds")
	}
	sel := SelectPaths(r.Paths...)
	if r.Kind == KindSummary && !sel.All() {
		return Cursor{}, errors.New("corrupt cursor record: a summary cursor with paths")
	}
	return Cursor{
		Token: r.Token, Snapshot: r.Snapshot, Kind: r.Kind, Offset: r.Offset,
		Selection: sel, Limit: r.Limit, Context: r.Context,
		Fingerprint: r.Fingerprint, Root: r.Root,
		Created: time.Unix(0, r.Created),
	}, nil
}

// readSnapshot returns snapshot id from the state folder (or the memory
// copy while the folder still holds it), marking it used.
func (s *Store) readSnapshot(id string, now time.Time) (*Snapshot, error) {
	expired := newError(CodeExpired, nil, "the cursor's search is no longer kept")
	if err := s.prepareDir(false); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, expired
		}
		return nil, s.fail(err, "cannot be used")
	}
	var snap *Snapshot
	var result error
	err := s.withLock(false, func() error {
		d := s.snapDir(id)
		p := filepath.Join(d, snapFileName)
		if err := snapDirOK(d); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				result = expired
				return nil
			}
			return err
		}
		f, fi, err := openState(p, maxSnapshotFileBytes)
		if errors.Is(err, fs.ErrNotExist) {
			result = expired
			return nil
		}
		if err != nil {
			return err
		}
		defer f.Close()
		if now.Sub(fi.ModTime()) > IdleExpiry {
			result = expired
			return nil
		}
		if snap = s.cached(id); snap == nil {
			snap, err = readSnapshotFrom(io.LimitReader(f, maxSnapshotFileBytes+1), maxDecodedBytes)
			if err != nil {
				return err
			}
			if snap.ID != id {
				return errors.New("snapshot file of another snapshot")
			}
		}
		setMtime(f, now) // best effort: a read-only folder still serves
		return nil
	})
	if err != nil {
		return nil, s.fail(err, "cannot read the snapshot")
	}
	if result != nil {
		return nil, result
	}
	s.remember(snap, now)
	return snap, nil
}

// evictDisk applies the bounds to the state folder: idle snapshots and the
// least recently used beyond MaxDiskSnapshots or MaxDiskBytes (of the snapshots with match
// lines; MaxAuxSnapshots of the others, counted apart) become tombstones; tombstones
// beyond MaxTombstones or older than TombstoneTTL, directories without a
// snapshot (a crashed write) and temporary files are removed. Best effort:
// a folder that cannot be cleaned still serves.
// expireDir turns the snapshot directory dir into a tombstone: its
// expired mark, then no snapshot file. It reports whether the mark was
// written.
func expireDir(dir string, now time.Time) bool {
	if writeAtomic(dir, expiredName, nil, now) != nil {
		return false
	}
	os.Remove(filepath.Join(dir, snapFileName))
	return true
}

// evictDisk applies the LRU and idle bounds to the state folder. keep is
// the snapshot just written (size bytes, aux or not): it is the most recent
// even when its mtime ties with others (a coarse or fake clock), so it is
// never the one evicted. The folder is scanned only when the last scan's
// mark (evictmark.go) does not show that nothing can be due.
func (s *Store) evictDisk(now time.Time, keep string, size int64, aux bool) {
	s.withLock(true, func() error {
		if s.evictNotDue(now, size, aux) {
			return nil
		}
		entries, err := os.ReadDir(s.dir)
		if err != nil {
			return err
		}
		type ent struct {
			dir  string
			t    time.Time
			size int64
		}
		var live, auxLive, tombs []ent
		for _, e := range entries {
			name := e.Name()
			p := filepath.Join(s.dir, name)
			if strings.HasPrefix(name, tmpPrefix) {
				os.Remove(p)
				continue
			}
			id, ok := strings.CutPrefix(name, snapDirPrefix)
			if !ok || !validToken(id) || !e.IsDir() {
				continue
			}
			if fi, err := os.Lstat(filepath.Join(p, snapFileName)); err == nil {
				if _, err := os.Lstat(filepath.Join(p, auxName)); err == nil {
					auxLive = append(auxLive, ent{p, fi.ModTime(), fi.Size()})
				} else {
					live = append(live, ent{p, fi.ModTime(), fi.Size()})
				}
			} else if fi, err := os.Lstat(filepath.Join(p, expiredName)); err == nil {
				tombs = append(tombs, ent{p, fi.ModTime(), 0})
			} else {
				os.RemoveAll(p)
			}
		}
		keepDir := s.snapDir(keep)
		newest := func(es []ent) {
			sort.Slice(es, func(i, j int) bool {
				if (es[i].dir == keepDir) != (es[j].dir == keepDir) {
					return es[i].dir == keepDir
				}
				return es[i].t.After(es[j].t) || es[i].t.Equal(es[j].t) && es[i].dir < es[j].dir
			})
		}
		// evict applies one class's bounds and returns what stays of it.
		evict := func(es []ent, bound int, maxBytes int64) (kept roomLeft, q []queued) {
			var keptEnts []ent
			newest(es)
			var bytes int64
			for i, e := range es {
				bytes += e.size
				if i >= bound || i > 0 && bytes > maxBytes || now.Sub(e.t) > IdleExpiry {
					if expireDir(e.dir, now) {
						tombs = append(tombs, ent{e.dir, now, 0})
					}
					continue
				}
				kept.add(e.size, e.t.Add(IdleExpiry))
				keptEnts = append(keptEnts, e)
			}
			// The oldest kept, oldest first: the next to evict.
			for i := len(keptEnts) - 1; i >= 0 && len(q) < evictQueue; i-- {
				e := keptEnts[i]
				q = append(q, queued{name: filepath.Base(e.dir), mtime: e.t.UnixNano(), size: e.size})
			}
			return kept, q
		}
		m := evictMark{scanned: now}
		keptLive, liveQ := evict(live, MaxDiskSnapshots, MaxDiskBytes)
		keptAux, auxQ := evict(auxLive, MaxAuxSnapshots, MaxDiskBytes)
		m.liveQ, m.auxQ = liveQ, auxQ
		m.live, m.aux = keptLive.room(MaxDiskSnapshots, MaxDiskBytes), keptAux.room(MaxAuxSnapshots, MaxDiskBytes)
		newest(tombs)
		var kept roomLeft
		var keptTombs []ent
		for i, e := range tombs {
			if i >= MaxTombstones || now.Sub(e.t) > TombstoneTTL {
				os.RemoveAll(e.dir)
				continue
			}
			kept.add(0, e.t.Add(TombstoneTTL))
			keptTombs = append(keptTombs, e)
		}
		for i := len(keptTombs) - 1; i >= 0 && len(m.tombQ) < evictQueue; i-- {
			e := keptTombs[i]
			m.tombQ = append(m.tombQ, queued{name: filepath.Base(e.dir), mtime: e.t.UnixNano()})
		}
		m.tombDue = kept.due
		m.due = earliest(earliest(m.live.due, m.aux.due), m.tombDue)
		m.dirs = keptLive.n + keptAux.n + kept.n
		s.writeEvictMark(m)
		return nil
	})
}
