package rank

import (
	"bytes"
	"hash/maphash"
)

// runTable maps the runs of word characters a term counter has seen to
// a value (where their token ids lie in the counter's flat list), and a
// dictionary's terms to their ids. It
// holds no pointers but its three slices: the runs' bytes sit back to
// back in one arena and the slots are numbers, so the garbage collector
// has nothing to scan in it, and a lookup hashes the run once without
// making a string (a map[string]uint64 of every run of GOROOT/src cost a
// fifth of a cold build in hashing, probing and scanning).
type runTable struct {
	seed maphash.Seed
	// hot is a direct-mapped cache of runs looked up lately, keyed by the
	// low bits of their hash, each with its bytes beside its value: the
	// frequent identifiers are found in one small array that stays in
	// the processor's cache, where the slots of a large table are a
	// memory access away (two thirds of a lookup of GOROOT/src's runs).
	hot   []hotRun
	slots []uint64
	// slots is open-addressed (linear probing), a power of two long: 0
	// is empty, else the run's hash in the high 32 bits and its entry
	// number plus one in the low 32.
	ents []runEntry
	keys []byte
}

// runEntry is one run: its bytes keys[off:off+n] and its value.
type runEntry struct {
	off, n uint32
	v      uint64
}

// hotRun is one run of the hot cache: its length (0: none), its bytes
// and its value, in half a cache line.
type hotRun struct {
	v   uint64
	n   uint8
	key [hotRunBytes]byte
}

// newRunTable makes a table sized for about hint runs.
func newRunTable(hint int) *runTable { return newRunTableHot(hint, hotRuns, maphash.MakeSeed()) }

// newRunTableHot makes a table sized for about hint runs with a hot cache
// of at most hot entries (a power of two), hashing with seed.
func newRunTableHot(hint, hot int, seed maphash.Seed) *runTable {
	n := 1024
	for n < 2*hint {
		n *= 2
	}
	return &runTable{seed: seed, hot: written(make([]hotRun, min(n, hot))), slots: written(make([]uint64, n)), ents: make([]runEntry, 0, hint)}
}

// written returns t once each of its pages is written (with zeros). A
// large table fresh from the system is not (it reads as zeros): the first
// read of a page (a lookup, or the write barrier of an append during a
// collection, which reads the old pointer) maps the shared zero page and
// the first write to it faults again, copying the page and flushing it
// from every core's TLB: a tenth of a cold build's system time.
func written[T any](t []T) []T {
	clear(t)
	return t
}

// hash is the hash of run w with the table's seed.
func (t *runTable) hash(w []byte) uint64 { return maphash.Bytes(t.seed, w) }

// hotOf is the hot cache's entry for hash h.
func (t *runTable) hotOf(h uint64) *hotRun { return &t.hot[h&uint64(len(t.hot)-1)] }

// remember puts run w with value v in the hot cache (when it fits).
func (t *runTable) remember(hr *hotRun, w []byte, v uint64) {
	if len(w) <= hotRunBytes {
		hr.v, hr.n = v, uint8(len(w))
		copy(hr.key[:], w)
	}
}

// len is the number of runs held.
func (t *runTable) len() int { return len(t.ents) }

// get returns the value of run w.
func (t *runTable) get(w []byte) (uint64, bool) { return t.getHashed(w, maphash.Bytes(t.seed, w)) }

// getHashed is get of a run whose hash (with the table's seed) is h.
func (t *runTable) getHashed(w []byte, h uint64) (uint64, bool) {
	hr := t.hotOf(h)
	if int(hr.n) == len(w) && hr.n != 0 && string(hr.key[:hr.n]) == string(w) {
		return hr.v, true
	}
	hi := h >> 32
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return 0, false
		}
		if s>>32 == hi {
			e := &t.ents[uint32(s)-1]
			if bytes.Equal(t.keys[e.off:e.off+e.n], w) {
				t.remember(hr, w, e.v)
				return e.v, true
			}
		}
	}
}

// put sets the value of run w, which the table does not hold yet.
func (t *runTable) put(w []byte, v uint64) { t.putHashed(w, maphash.Bytes(t.seed, w), v) }

// putHashed is put of a run whose hash (with the table's seed) is h.
func (t *runTable) putHashed(w []byte, h uint64, v uint64) {
	if 2*(len(t.ents)+1) > len(t.slots) {
		t.grow()
	}
	t.ents = append(t.ents, runEntry{off: uint32(len(t.keys)), n: uint32(len(w)), v: v})
	t.keys = append(t.keys, w...)
	t.place(h, uint32(len(t.ents)))
	t.remember(t.hotOf(h), w, v)
}

// place puts entry number e (plus one) of hash h in a free slot.
func (t *runTable) place(h uint64, e uint32) {
	mask := uint64(len(t.slots) - 1)
	i := h & mask
	for t.slots[i] != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = h>>32<<32 | uint64(e)
}

// grow doubles the slots and places every entry again.
func (t *runTable) grow() {
	t.slots = written(make([]uint64, 2*len(t.slots)))
	for k := range t.ents {
		e := &t.ents[k]
		t.place(maphash.Bytes(t.seed, t.keys[e.off:e.off+e.n]), uint32(k+1))
	}
}
