package rank

import (
	"encoding/binary"
	"math"
)

// offsets is a table of little-endian uint32 offsets, as the cache holds
// it: a decoded index uses the cache's bytes in place.
type offsets []byte

// at is offset i.
func (o offsets) at(i int) uint32 { return binary.LittleEndian.Uint32(o[4*i:]) }

// n is the number of offsets.
func (o offsets) n() int { return len(o) / 4 }

// add appends offset x.
func (o offsets) add(x int) offsets { return binary.LittleEndian.AppendUint32(o, uint32(x)) }

// valid reports whether there are n offsets (at least one) going from 0
// to size. Those between are not checked on load (a pass over them was a
// tenth of a warm query's decoding): span checks each slice it makes.
func (o offsets) valid(n, size int) bool {
	return n >= 1 && len(o) == 4*n && o.at(0) == 0 && int64(o.at(n-1)) == int64(size)
}

// span is blob[o.at(i):o.at(i+1)], or nil when those offsets do not bound
// a slice of blob (a damaged cache: the item reads as empty).
func (o offsets) span(blob []byte, i int) []byte {
	if i < 0 || 4*(i+2) > len(o) {
		return nil
	}
	lo, hi := o.at(i), o.at(i+1)
	if lo > hi || int64(hi) > int64(len(blob)) {
		return nil
	}
	return blob[lo:hi]
}

// terms is the number of terms.
func (ix *Index) terms() int { return ix.termOff.n() - 1 }

// chunkRecs hold the chunks' lines, bytes, kind, name and context: Build's
// as they are, a decoded cache's as fixed records read on demand, so that
// a query decodes the chunks it shows and not the whole table, and
// loading the cache makes no pass over it.
type chunkRecs struct {
	built []Chunk // Build's chunks (nil for a decoded index)
	// A decoded index's chunk c is the record recs[recBytes*c:]: start
	// line, end line, start byte, end byte, then its kind (Cont in the top
	// bit), name and context as numbers of strings, uint32 each; string i
	// is strs[strOff.at(i):strOff.at(i+1)]. The tables' bounds are checked
	// when the cache is decoded; a record's values are whatever was
	// written (a forged one can only misplace its chunk, which Source
	// verifies against the file, or name an unknown string, read as "").
	recs   []byte
	strOff offsets
	strs   []byte
}

// recBytes is the size of one chunk record.
const recBytes = 28

// contBit marks a continued chunk in its record's kind number.
const contBit = 1 << 31

// chunk returns chunk c.
func (ix *Index) chunk(c int32) Chunk {
	if ix.built != nil {
		return ix.built[c]
	}
	r := ix.recs[recBytes*int(c):][:recBytes]
	u := func(i int) uint32 { return binary.LittleEndian.Uint32(r[4*i:]) }
	kind := u(4)
	return Chunk{
		StartLine: int(u(0)), EndLine: int(u(1)), StartByte: int(u(2)), EndByte: int(u(3)),
		Kind: ix.str(kind &^ contBit), Name: ix.str(u(5)), Context: ix.str(u(6)), Cont: kind&contBit != 0,
	}
}

// nameOf returns chunk c with only its name and Cont set.
func (ix *Index) nameOf(c int32) Chunk {
	if ix.built != nil {
		return Chunk{Name: ix.built[c].Name, Cont: ix.built[c].Cont}
	}
	r := ix.recs[recBytes*int(c):][:recBytes]
	return Chunk{Name: ix.str(binary.LittleEndian.Uint32(r[20:])), Cont: binary.LittleEndian.Uint32(r[16:])&contBit != 0}
}

// nameBytes returns the name of chunk c, nil for a continued chunk, with
// a number that is equal for equal names of a decoded index (its string
// number; -1 for Build's chunks). A decoded index's name is its bytes in
// the cache, not a copy.
func (ix *Index) nameBytes(c int32) (int64, []byte) {
	if ix.built != nil {
		if ch := &ix.built[c]; !ch.Cont {
			return -1, []byte(ch.Name)
		}
		return -1, nil
	}
	r := ix.recs[recBytes*int(c):][:recBytes]
	if binary.LittleEndian.Uint32(r[16:])&contBit != 0 {
		return -1, nil
	}
	i := binary.LittleEndian.Uint32(r[20:])
	if int64(i)+1 >= int64(ix.strOff.n()) {
		return -1, nil
	}
	return int64(i), ix.strOff.span(ix.strs, int(i))
}

// str is string i of a decoded index ("" when there is none).
func (ix *Index) str(i uint32) string {
	if int64(i)+1 >= int64(ix.strOff.n()) {
		return ""
	}
	return string(ix.strOff.span(ix.strs, int(i)))
}

// recordWriter lays out the chunk records of a cache and their strings,
// each distinct string once.
type recordWriter struct {
	recs, strs []byte
	strOff     offsets
	ids        map[string]uint32
}

func newRecordWriter(chunks int) *recordWriter {
	return &recordWriter{recs: make([]byte, 0, recBytes*chunks), strOff: offsets(nil).add(0), ids: make(map[string]uint32, 1024)}
}

// add appends ch's record.
func (w *recordWriter) add(ch *Chunk) {
	id := func(s string) uint32 {
		i, ok := w.ids[s]
		if !ok {
			i = uint32(len(w.ids))
			w.ids[s] = i
			w.strs = append(w.strs, s...)
			w.strOff = w.strOff.add(len(w.strs))
		}
		return i
	}
	kind := id(ch.Kind)
	if ch.Cont {
		kind |= contBit
	}
	for _, x := range []uint32{clampU32(ch.StartLine), clampU32(ch.EndLine), clampU32(ch.StartByte), clampU32(ch.EndByte), kind, id(ch.Name), id(ch.Context)} {
		w.recs = binary.LittleEndian.AppendUint32(w.recs, x)
	}
}

// clampU32 is x within [0, MaxUint32].
func clampU32(x int) uint32 { return uint32(max(0, min(int64(x), math.MaxUint32))) }
