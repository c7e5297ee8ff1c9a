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

// valid reports whether the offsets ascend from 0 to size (n of them, at
// least one), so that every slice they bound is inside a blob of size.
func (o offsets) valid(n, size int) bool {
	if n < 1 || len(o) != 4*n || o.at(0) != 0 || int64(o.at(n-1)) != int64(size) {
		return false
	}
	prev := uint32(0)
	for i := 1; i < n; i++ {
		x := o.at(i)
		if x < prev {
			return false
		}
		prev = x
	}
	return true
}

// terms is the number of terms.
func (ix *Index) terms() int { return ix.termOff.n() - 1 }

// chunkRecs hold the chunks' lines, bytes, kind, name and context: Build's
// as they are, a decoded cache's as records read on demand, so that a
// query decodes the chunks it shows and not the whole table.
type chunkRecs struct {
	built []Chunk // Build's chunks (nil for a decoded index)
	// A decoded index's chunk c is the record recBlob[recOff.at(c):
	// recOff.at(c+1)]: start line, lines, start byte, bytes, then kind,
	// name and context as (offset, length) in strs, then cont (0 or 1),
	// all varints. Every record is checked when the cache is decoded.
	recOff  offsets
	recBlob []byte
	strs    []byte
}

// chunk returns chunk c.
func (ix *Index) chunk(c int32) Chunk {
	if ix.built != nil {
		return ix.built[c]
	}
	ch, _ := ix.readRecord(c, true)
	return ch
}

// nameOf returns chunk c with only its name and Cont set.
func (ix *Index) nameOf(c int32) Chunk {
	if ix.built != nil {
		return Chunk{Name: ix.built[c].Name, Cont: ix.built[c].Cont}
	}
	ch, _ := ix.readRecord(c, false)
	return ch
}

// readRecord decodes chunk c's record (all its fields when full, else its
// name and Cont); false when the record is malformed.
func (ix *Index) readRecord(c int32, full bool) (Chunk, bool) {
	return parseRecord(ix.recBlob[ix.recOff.at(int(c)):ix.recOff.at(int(c)+1)], ix.strs, full)
}

// What parseRecordAs makes of a record.
const (
	wantNone = iota // only checks it
	wantName        // its name and Cont
	wantAll         // every field
)

// parseRecord decodes one chunk record against strs (see chunkRecs).
func parseRecord(b, strs []byte, full bool) (Chunk, bool) {
	if full {
		return parseRecordAs(b, strs, wantAll)
	}
	return parseRecordAs(b, strs, wantName)
}

func parseRecordAs(b, strs []byte, want int) (Chunk, bool) {
	var v [11]uint64
	for i := range v {
		x, k := binary.Uvarint(b)
		if k <= 0 {
			return Chunk{}, false
		}
		v[i], b = x, b[k:]
	}
	if len(b) != 0 || v[10] > 1 {
		return Chunk{}, false
	}
	for i := 0; i < 4; i++ {
		if v[i] > math.MaxInt32 {
			return Chunk{}, false
		}
	}
	if v[0]+v[1] > math.MaxInt32 || v[2]+v[3] > math.MaxInt32 {
		return Chunk{}, false
	}
	var s [3][]byte
	for i := range s {
		off, n := v[4+2*i], v[5+2*i]
		if off > uint64(len(strs)) || n > uint64(len(strs))-off {
			return Chunk{}, false
		}
		s[i] = strs[off : off+n]
	}
	if want == wantNone {
		return Chunk{}, true
	}
	ch := Chunk{Name: string(s[1]), Cont: v[10] == 1}
	if want == wantAll {
		ch.StartLine, ch.EndLine = int(v[0]), int(v[0]+v[1])
		ch.StartByte, ch.EndByte = int(v[2]), int(v[2]+v[3])
		ch.Kind, ch.Context = string(s[0]), string(s[2])
	}
	return ch, true
}

// checkRecord reports whether a record parses, without making strings.
func checkRecord(b, strs []byte) bool {
	_, ok := parseRecordAs(b, strs, wantNone)
	return ok
}

// appendRecord writes chunk ch's record, its strings by reference
// (offset, length) into strs, through at (each distinct string once).
func appendRecord(b []byte, ch *Chunk, strs *[]byte, at map[string]uint64) []byte {
	b = binary.AppendUvarint(b, uint64(ch.StartLine))
	b = binary.AppendUvarint(b, uint64(ch.EndLine-ch.StartLine))
	b = binary.AppendUvarint(b, uint64(ch.StartByte))
	b = binary.AppendUvarint(b, uint64(ch.EndByte-ch.StartByte))
	for _, s := range []string{ch.Kind, ch.Name, ch.Context} {
		off, ok := at[s]
		if !ok {
			off = uint64(len(*strs))
			*strs = append(*strs, s...)
			at[s] = off
		}
		b = binary.AppendUvarint(b, off)
		b = binary.AppendUvarint(b, uint64(len(s)))
	}
	cont := uint64(0)
	if ch.Cont {
		cont = 1
	}
	return binary.AppendUvarint(b, cont)
}
