package snapshot

import (
	"time"
	"unsafe"
)

// Memory accounting, for a caller that keeps many stores (one per MCP
// session) under one total: it reads each store's MemoryBytes and drops
// the least recently used snapshots with EvictOldest.

// Size estimates the bytes snap holds in memory: retained text and ranges,
// the line and file records, and their paths.
func (s *Snapshot) Size() int64 {
	const (
		lineRecord  = int64(unsafe.Sizeof(Line{}))
		fileRecord  = int64(unsafe.Sizeof(File{}))
		rangeRecord = int64(unsafe.Sizeof(Range{}))
		spanRecord  = int64(unsafe.Sizeof(span{}))
		// indexEntry is one entry of the path index (key, value, bucket
		// overhead).
		indexEntry = 48
	)
	n := int64(unsafe.Sizeof(*s))
	for i := range s.lines {
		l := &s.lines[i]
		n += lineRecord + int64(cap(l.Text)) + int64(cap(l.Ranges))*rangeRecord
	}
	for i := range s.items {
		n += int64(itemCost(s.items[i]))
	}
	for i := range s.files {
		n += fileRecord + spanRecord + indexEntry + int64(len(s.files[i].Path))
	}
	return n
}

// MemoryBytes is the estimated size (Snapshot.Size) of the snapshots the
// store keeps in memory.
func (s *Store) MemoryBytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	var n int64
	for _, e := range s.snaps {
		n += e.size()
	}
	return n
}

// Oldest reports when the least recently used snapshot kept in memory was
// last used; ok is false when the store keeps none.
func (s *Store) Oldest() (used time.Time, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id := s.lruLocked(); id != "" {
		return s.snaps[id].used, true
	}
	return time.Time{}, false
}

// EvictOldest drops the least recently used snapshot kept in memory, as
// the store's own LRU bound would (its cursors then fail with
// CodeExpired), and returns the bytes freed; 0 when the store keeps none.
func (s *Store) EvictOldest() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	id := s.lruLocked()
	if id == "" {
		return 0
	}
	n := s.snaps[id].size()
	s.dropLocked(id, s.now())
	return n
}

// lruLocked returns the least recently used snapshot id, "" when none;
// s.mu must be held.
func (s *Store) lruLocked() string {
	lru := ""
	for id, e := range s.snaps {
		if l := s.snaps[lru]; lru == "" || e.used.Before(l.used) || e.used.Equal(l.used) && e.seq < l.seq {
			lru = id
		}
	}
	return lru
}

// size returns the snapshot's Size, computed once (snapshots are
// immutable).
func (e *memEntry) size() int64 {
	if e.bytes == 0 {
		e.bytes = e.snap.Size()
	}
	return e.bytes
}
