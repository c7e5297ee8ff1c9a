package snapshot

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"
)

// StateDirEnv names the environment variable that sets the state folder.
const StateDirEnv = "EVGREP_STATE_DIR"

// DefaultStateDir returns the state folder: $EVGREP_STATE_DIR when set,
// else the user cache directory + "/evgrep", else (no HOME, or a relative
// one) a folder of this user only in the temporary directory,
// $TMPDIR/evgrep-<uid>. Whichever it is, a Store checks it before use (see
// NewStore).
func DefaultStateDir() string {
	if d := os.Getenv(StateDirEnv); d != "" {
		return d
	}
	if c, err := os.UserCacheDir(); err == nil && filepath.IsAbs(c) {
		return filepath.Join(c, "evgrep")
	}
	return filepath.Join(os.TempDir(), "evgrep-"+strconv.Itoa(os.Geteuid()))
}

// Store keeps snapshots and the cursors that page through them: in memory
// (an LRU of MaxSnapshots snapshots with IdleExpiry, and apart from them an
// LRU of MaxAuxSnapshots snapshots without match lines, such as inspect
// continuations, so that these never evict a search) and, when it has a
// state folder, on disk as well so that a cursor made by one process is
// resolved by the next. It is safe for concurrent use, and several
// processes may share one state folder.
//
// A state folder that cannot be created, written or read, or holds corrupt
// files, never makes an operation panic: Put and NewCursor fail with
// CodeUnavailable (the search result itself is unaffected; only the cursor
// cannot be offered) and Resolve fails with CodeUnavailable.
type Store struct {
	dir string
	now func() time.Time

	mu      sync.Mutex
	snaps   map[string]*memEntry
	cursors map[string]Cursor
	tombs   map[string]time.Time // evicted snapshots (memory-only stores)
	seq     uint64               // last use number (see memEntry.seq)
	// writes are the state-folder writes that Prestore started, by
	// snapshot ID, until a cursor or Flush has waited for them.
	writes map[string]*pendingWrite
}

// nextSeq numbers a use of a memory entry; s.mu must be held.
func (s *Store) nextSeq() uint64 {
	s.seq++
	return s.seq
}

type memEntry struct {
	snap *Snapshot
	used time.Time
	// seq orders uses that share a timestamp (a coarse or fake clock): the
	// entry touched last is the most recent, so a snapshot just written
	// again is never the one evicted.
	seq uint64
	// bytes caches snap.Size() (0 until MemoryBytes or EvictOldest asks).
	bytes int64
}

// NewStore returns a store persisting to the state folder dir (created with
// mode 0700 on first write), or a memory-only store when dir is "". No
// error is possible here: folder problems surface as CodeUnavailable.
//
// Only a safe folder is used: a real directory (not a link) of this user
// that no other user can write, inside folders no other user can write
// (sticky ones such as /tmp excepted). Its files are opened without
// following links or blocking, must be regular files of this user of
// bounded size, and decode within a memory bound; the lock is waited for a
// bounded time. Anything else is CodeUnavailable, at once.
func NewStore(dir string) *Store {
	return &Store{
		dir:     dir,
		now:     time.Now,
		snaps:   make(map[string]*memEntry),
		cursors: make(map[string]Cursor),
		tombs:   make(map[string]time.Time),
	}
}

// NewMemoryStore returns a store that keeps snapshots in memory only (one
// MCP session).
func NewMemoryStore() *Store { return NewStore("") }

// Dir returns the state folder, "" for a memory-only store.
func (s *Store) Dir() string { return s.dir }

// Put stores snap, giving it an ID if it has none. It is kept in memory
// whatever happens; for a persistent store it is also written to the state
// folder, and an error (CodeUnavailable) means no cursor of it can be
// resolved by another process.
func (s *Store) Put(snap *Snapshot) error {
	if snap == nil {
		return newError(CodeUnavailable, nil, "no snapshot to store")
	}
	now := s.now()
	s.mu.Lock()
	s.keepLocked(snap, now)
	s.mu.Unlock()
	if s.dir == "" {
		return nil
	}
	return s.writeSnapshot(snap, now)
}

// keepLocked gives snap an ID if it has none and keeps it in memory as
// the most recently used snapshot; s.mu must be held.
func (s *Store) keepLocked(snap *Snapshot, now time.Time) {
	if snap.ID == "" {
		snap.ID = newToken()
	}
	s.snaps[snap.ID] = &memEntry{snap: snap, used: now, seq: s.nextSeq()}
	delete(s.tombs, snap.ID)
	s.evictMemLocked(now)
}

// NewCursor returns a token for the page of snap of the given kind that
// starts at offset (0..count, where count is the number of files for
// KindSummary, of retained lines in sel for KindMatches and of items for
// KindItems; always 0 for KindSource and KindOutline). sel is ignored for
// summary, items, source and outline cursors. snap is stored first if it has no ID yet (store a
// snapshot before sharing it between goroutines: Put sets its ID). Errors:
// CodeWrongKind for an unknown kind, CodeOffsetInvalid, and CodeUnavailable
// when the state folder cannot take the cursor.
func (s *Store) NewCursor(snap *Snapshot, kind Kind, offset int, sel PathSelection) (string, error) {
	return s.NewPageCursor(snap, Page{Kind: kind, Offset: offset, Selection: sel})
}

// NewPageCursor is NewCursor with the shape of the pages kept as well
// (p.Limit, p.Context): a limit or context out of bounds is
// CodeOffsetInvalid.
func (s *Store) NewPageCursor(snap *Snapshot, p Page) (string, error) {
	kind, offset, sel := p.Kind, p.Offset, p.Selection
	if snap == nil {
		return "", newError(CodeUnavailable, nil, "no snapshot for the cursor")
	}
	if !kind.Valid() {
		return "", newError(CodeWrongKind, nil, "unknown cursor kind %q", kind)
	}
	if !validShape(p.Limit, p.Context) {
		return "", newError(CodeOffsetInvalid, nil, "page shape limit %d, context %d out of bounds", p.Limit, p.Context)
	}
	if kind == KindSummary || kind == KindItems || kind.continuation() {
		sel = PathSelection{}
	} else {
		sel = SelectPaths(sel.Paths...)
	}
	if n := snap.count(kind, sel); offset < 0 || offset > n {
		return "", newError(CodeOffsetInvalid, nil, "offset %d outside 0..%d", offset, n)
	}
	now := s.now()
	if snap.ID == "" {
		if err := s.Put(snap); err != nil {
			return "", err
		}
	} else {
		if err := s.written(snap.ID); err != nil {
			return "", err
		}
		s.mu.Lock()
		if e := s.snaps[snap.ID]; e != nil {
			e.used, e.seq = now, s.nextSeq()
		} else {
			s.snaps[snap.ID] = &memEntry{snap: snap, used: now, seq: s.nextSeq()}
			delete(s.tombs, snap.ID)
			s.evictMemLocked(now)
		}
		s.mu.Unlock()
	}
	c := Cursor{
		Token:       newToken(),
		Snapshot:    snap.ID,
		Kind:        kind,
		Offset:      offset,
		Selection:   sel,
		Limit:       p.Limit,
		Context:     p.Context,
		Fingerprint: snap.Meta.Fingerprint(),
		Root:        snap.Meta.Root,
		Created:     now,
	}
	if s.dir != "" {
		if err := s.writeCursor(c, snap, now); err != nil {
			return "", err
		}
	}
	s.mu.Lock()
	s.cursors[c.Token] = c
	s.mu.Unlock()
	return c.Token, nil
}

// Resolve returns the snapshot and cursor a token stands for, checking it
// against the request: root (compared after filepath.Clean) and fingerprint
// are those of the request's search, each skipped when "", and kind the
// page it asks for ("" accepts either kind, e.g. to inspect a match by its
// number). Failures are *Error with, in the order checked:
// CodeMalformed, CodeNotFound, CodeWrongKind, CodeOptionsConflict (other
// root or options), CodeExpired, CodeUnavailable (state folder unreadable
// or corrupt) and CodeOffsetInvalid. A cursor never re-runs a search.
func (s *Store) Resolve(token, root string, kind Kind, fingerprint string) (*Snapshot, Cursor, error) {
	if !validToken(token) {
		return nil, Cursor{}, newError(CodeMalformed, nil, "not a cursor token")
	}
	c, err := s.lookupCursor(token)
	if err != nil {
		return nil, Cursor{}, err
	}
	if kind != "" && c.Kind != kind {
		return nil, Cursor{}, newError(CodeWrongKind, nil, "a %s cursor cannot page %s", c.Kind, kind)
	}
	if root != "" && filepath.Clean(root) != filepath.Clean(c.Root) {
		return nil, Cursor{}, newError(CodeOptionsConflict, nil, "the cursor belongs to a search of another root")
	}
	if fingerprint != "" && fingerprint != c.Fingerprint {
		return nil, Cursor{}, newError(CodeOptionsConflict, nil, "the request's options differ from the cursor's search")
	}
	snap, err := s.lookupSnapshot(c.Snapshot)
	if err != nil {
		return nil, Cursor{}, err
	}
	if snap.Meta.Root != c.Root || snap.Meta.Fingerprint() != c.Fingerprint {
		return nil, Cursor{}, newError(CodeUnavailable, nil, "the cursor does not match its snapshot")
	}
	if n := snap.count(c.Kind, c.Selection); c.Offset < 0 || c.Offset > n {
		return nil, Cursor{}, newError(CodeOffsetInvalid, nil, "offset %d outside 0..%d", c.Offset, n)
	}
	return snap, c, nil
}

func (s *Store) lookupCursor(token string) (Cursor, error) {
	s.mu.Lock()
	c, ok := s.cursors[token]
	s.mu.Unlock()
	if ok {
		return c, nil
	}
	if s.dir == "" {
		return Cursor{}, newError(CodeNotFound, nil, "unknown cursor")
	}
	// The folder is the authority for cursors of other processes: they
	// are read each time, not cached.
	return s.readCursor(token)
}

func (s *Store) lookupSnapshot(id string) (*Snapshot, error) {
	now := s.now()
	if s.dir != "" {
		return s.readSnapshot(id, now)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.snaps[id]
	if e != nil && now.Sub(e.used) > IdleExpiry {
		s.dropLocked(id, now)
		e = nil
	}
	if e == nil {
		return nil, newError(CodeExpired, nil, "the cursor's search is no longer kept")
	}
	e.used, e.seq = now, s.nextSeq()
	return e.snap, nil
}

// cached returns the in-memory copy of snapshot id, if any.
func (s *Store) cached(id string) *Snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.snaps[id]; e != nil {
		return e.snap
	}
	return nil
}

// remember puts a snapshot read from disk in the memory cache.
func (s *Store) remember(snap *Snapshot, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e := s.snaps[snap.ID]; e != nil {
		e.used, e.seq = now, s.nextSeq()
		return
	}
	s.snaps[snap.ID] = &memEntry{snap: snap, used: now, seq: s.nextSeq()}
	s.evictMemLocked(now)
}

// evictMemLocked applies the idle expiry and the LRU bound to the memory
// copies, and bounds the tombstones.
func (s *Store) evictMemLocked(now time.Time) {
	for id, e := range s.snaps {
		if now.Sub(e.used) > IdleExpiry {
			s.dropLocked(id, now)
		}
	}
	for _, aux := range []bool{false, true} {
		bound := MaxSnapshots
		if aux {
			bound = MaxAuxSnapshots
		}
		for {
			var lru string
			n := 0
			for id, e := range s.snaps {
				if e.snap.aux() != aux {
					continue
				}
				n++
				if l := s.snaps[lru]; lru == "" || e.used.Before(l.used) || e.used.Equal(l.used) && e.seq < l.seq {
					lru = id
				}
			}
			if n <= bound {
				break
			}
			s.dropLocked(lru, now)
		}
	}
	pruned := false
	for id, t := range s.tombs {
		if now.Sub(t) > TombstoneTTL {
			delete(s.tombs, id)
			pruned = true
		}
	}
	if len(s.tombs) > MaxTombstones {
		ids := make([]string, 0, len(s.tombs))
		for id := range s.tombs {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool {
			ti, tj := s.tombs[ids[i]], s.tombs[ids[j]]
			return ti.After(tj) || ti.Equal(tj) && ids[i] < ids[j]
		})
		for _, id := range ids[MaxTombstones:] {
			delete(s.tombs, id)
		}
		pruned = true
	}
	if pruned {
		for tok, c := range s.cursors {
			if s.snaps[c.Snapshot] == nil && s.tombs[c.Snapshot].IsZero() {
				delete(s.cursors, tok)
			}
		}
	}
}

// dropLocked removes a snapshot from memory. A memory-only store remembers
// it as a tombstone so its cursors report expiry; a persistent store only
// drops its cache (the state folder decides) and the cached cursors.
func (s *Store) dropLocked(id string, now time.Time) {
	delete(s.snaps, id)
	if s.dir == "" {
		s.tombs[id] = now
		return
	}
	for tok, c := range s.cursors {
		if c.Snapshot == id {
			delete(s.cursors, tok)
		}
	}
}
