package rank

import (
	"bytes"
	"hash/maphash"
)

// runTable maps the runs of word characters a term counter has seen to
// a value (where their token ids lie in the counter's flat list). It
// holds no pointers but its three slices: the runs' bytes sit back to
// back in one arena and the slots are numbers, so the garbage collector
// has nothing to scan in it, and a lookup hashes the run once without
// making a string (a map[string]uint64 of every run of GOROOT/src cost a
// fifth of a cold build in hashing, probing and scanning).
type runTable struct {
	seed maphash.Seed
	// slots is open-addressed (linear probing), a power of two long: 0
	// is empty, else the run's hash in the high 32 bits and its entry
	// number plus one in the low 32.
	slots []uint64
	ents  []runEntry
	keys  []byte
}

// runEntry is one run: its bytes keys[off:off+n] and its value.
type runEntry struct {
	off, n uint32
	v      uint64
}

// newRunTable makes a table sized for about hint runs.
func newRunTable(hint int) *runTable {
	n := 1024
	for n < 2*hint {
		n *= 2
	}
	return &runTable{seed: maphash.MakeSeed(), slots: make([]uint64, n), ents: make([]runEntry, 0, hint)}
}

// len is the number of runs held.
func (t *runTable) len() int { return len(t.ents) }

// get returns the value of run w.
func (t *runTable) get(w []byte) (uint64, bool) {
	h := maphash.Bytes(t.seed, w)
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
				return e.v, true
			}
		}
	}
}

// put sets the value of run w, which the table does not hold yet.
func (t *runTable) put(w []byte, v uint64) {
	if 2*(len(t.ents)+1) > len(t.slots) {
		t.grow()
	}
	t.ents = append(t.ents, runEntry{off: uint32(len(t.keys)), n: uint32(len(w)), v: v})
	t.keys = append(t.keys, w...)
	t.place(maphash.Bytes(t.seed, w), uint32(len(t.ents)))
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
	t.slots = make([]uint64, 2*len(t.slots))
	for k := range t.ents {
		e := &t.ents[k]
		t.place(maphash.Bytes(t.seed, t.keys[e.off:e.off+e.n]), uint32(k+1))
	}
}
