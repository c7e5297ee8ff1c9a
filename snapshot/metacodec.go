package snapshot

import "math"

// The typed metadata of a snapshot file (format version 3; see
// codec.go for the whole layout).

// meta writes the typed metadata (format version 3).
func (w *writer) meta(m *Meta) {
	w.buf = append(w.buf, byte(m.Analysis))
	w.uvarint(uint64(len(m.Lists)))
	for _, k := range sortedKeys(m.Lists) {
		w.str(k)
		w.uvarint(uint64(len(m.Lists[k])))
		for _, v := range m.Lists[k] {
			w.str(v)
		}
	}
	w.uvarint(uint64(len(m.Numbers)))
	for _, k := range sortedKeys(m.Numbers) {
		w.str(k)
		w.uvarint(uint64(len(m.Numbers[k])))
		for _, v := range m.Numbers[k] {
			w.varint(v)
		}
	}
}

// meta reads the typed metadata into m.
func (r *reader) meta(m *Meta) {
	a := r.take(1)
	if len(a) != 1 || !Analysis(a[0]).Valid() {
		r.fail("bad analysis kind")
		return
	}
	m.Analysis = Analysis(a[0])
	prev := ""
	if n := r.count(2, maxMetaKeys, optionCost); n > 0 {
		m.Lists = make(map[string][]string, n)
		for i := 0; i < n && r.err == nil; i++ {
			k := r.strMax(maxMetaKeyBytes)
			if i > 0 && k <= prev {
				r.fail("lists out of order")
				return
			}
			prev = k
			nv := r.count(1, math.MaxInt, stringCost)
			v := make([]string, 0, nv)
			for j := 0; j < nv && r.err == nil; j++ {
				v = append(v, r.str())
			}
			m.Lists[k] = v
		}
	}
	prev = ""
	if n := r.count(2, maxMetaKeys, optionCost); n > 0 {
		m.Numbers = make(map[string][]int64, n)
		for i := 0; i < n && r.err == nil; i++ {
			k := r.strMax(maxMetaKeyBytes)
			if i > 0 && k <= prev {
				r.fail("numbers out of order")
				return
			}
			prev = k
			nv := r.count(1, math.MaxInt, 8)
			v := make([]int64, 0, nv)
			for j := 0; j < nv && r.err == nil; j++ {
				v = append(v, r.varint())
			}
			m.Numbers[k] = v
		}
	}
}
