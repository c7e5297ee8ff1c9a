package rank

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"runtime"

	"github.com/evgrep/evgrep/revisions"
)

// cacheMagic starts every encoded index; the last byte is the format's
// version (a new chunker, tokenizer or layout changes it, so old caches
// are rebuilt rather than misread).
var cacheMagic = []byte("evgrep-rank\x00\x0d")

// Encode writes ix as a cache: the magic, key, chunk count and the files,
// then tables that a reader uses in place (Decode keeps slices of the
// data; a mapped file is paged in as a query touches it): each chunk's
// length (uint32), the chunk records (see chunkRecs), the strings they
// refer to with their offsets, then the terms and postings with their
// offsets (uint32 tables). It is not compressed: decompressing was most of a warm query's
// CPU.
func Encode(key string, ix *Index) ([]byte, error) {
	parts, size, err := encodeParts(key, ix)
	if err != nil {
		return nil, err
	}
	data := make([]byte, 0, size)
	for _, p := range parts {
		data = append(data, p...)
	}
	return data, nil
}

// EncodeTo writes to w the bytes Encode returns, piece by piece: the
// index's tables as they are, not copied into one buffer first (for
// GOROOT/src that buffer was 40 MB of fresh memory, a tenth of a second
// of page faults and copying).
func EncodeTo(w io.Writer, key string, ix *Index) error {
	parts, _, err := encodeParts(key, ix)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			return err
		}
	}
	return nil
}

// encodeParts lays out the cache of ix as pieces (the small fields
// encoded, the tables as slices of the index's own) and their total size.
func encodeParts(key string, ix *Index) ([][]byte, int, error) {
	w := &encoder{buf: append(make([]byte, 0, 4096+64*len(ix.files)), cacheMagic...)}
	w.str(key)
	nc := ix.nChunks
	w.uv(uint64(nc))
	w.uv(uint64(len(ix.files)))
	for _, f := range ix.files {
		w.str(f.path)
		r := f.rev
		w.uv(r.Dev)
		w.uv(r.Ino)
		w.v(r.Size)
		w.v(r.Mtime)
		w.v(r.Ctime)
		w.uv(r.Hash)
		flags := uint64(0)
		if r.Verified {
			flags |= 1
		}
		if f.generated {
			flags |= 2
		}
		w.uv(flags)
		w.uv(uint64(f.n))
	}
	if ix.lens != nil {
		w.table(ix.lens)
	} else {
		lens := make([]byte, 0, 4*len(ix.chunkLen))
		for _, l := range ix.chunkLen {
			lens = binary.LittleEndian.AppendUint32(lens, uint32(min(l, math.MaxUint32)))
		}
		w.table(lens)
	}
	// A Builder's index has its records already (made beside its sort).
	recs, strOff, strs := ix.recs, ix.strOff, ix.strs
	if ix.built == nil || recs == nil {
		rw := newRecordWriter(nc)
		for c := 0; c < nc; c++ {
			ch := ix.chunk(int32(c))
			rw.add(&ch)
		}
		recs, strOff, strs = rw.recs, rw.strOff, rw.strs
	}
	w.table(recs)
	w.uv(uint64(strOff.n()))
	w.table(strOff)
	w.uv(uint64(len(strs)))
	w.table(strs)
	for _, blob := range []struct {
		data []byte
		off  offsets
	}{{ix.termBlob, ix.termOff}, {ix.postBlob, ix.postOff}} {
		w.uv(uint64(blob.off.n()))
		w.table(blob.off)
		w.uv(uint64(len(blob.data)))
		w.table(blob.data)
	}
	w.table(nil)
	if w.size > MaxCacheBytes {
		return nil, 0, ErrTooLarge
	}
	return w.parts, w.size, nil
}

// Errors of Decode.
var (
	// ErrCorrupt: the data is not a cache of this version and key.
	ErrCorrupt = errors.New("not a rank cache of this version")
	// ErrTooLarge: the data exceeds MaxCacheBytes.
	ErrTooLarge = errors.New("rank cache over its size bound")
)

// Decode reads an index written by Encode with the same key. data over
// MaxCacheBytes is refused; every count is checked against what is left
// of the data and the blobs' offsets are checked, so hostile data costs
// bounded memory and gives ErrCorrupt, never a panic. The index keeps
// (and so must own) data: its blobs are slices of it.
func Decode(key string, data []byte) (*Index, error) {
	if len(data) > MaxCacheBytes {
		return nil, ErrTooLarge
	}
	return parseIndex(key, data)
}

// DecodeMapped is Decode for data that the index does not own, such as
// a mapped file: release is called once, after the index and every view
// of it (WithPathPrefix) are unreachable, and never while one is in use.
// Nothing the index returns refers to data. When Decode fails, release
// is not called: the data is still the caller's.
func DecodeMapped(key string, data []byte, release func()) (*Index, error) {
	ix, err := Decode(key, data)
	if err != nil {
		return nil, err
	}
	// The views share lazy: it is reachable while any of them is.
	runtime.AddCleanup(ix.lazy, func(f func()) { f() }, release)
	return ix, nil
}

func parseIndex(key string, raw []byte) (*Index, error) {
	if !bytes.HasPrefix(raw, cacheMagic) {
		return nil, ErrCorrupt
	}
	r := &decoder{buf: raw[len(cacheMagic):]}
	if r.str() != key {
		return nil, ErrCorrupt
	}
	nChunks := r.count(4 + recBytes) // a length and a record each
	ix := &Index{lazy: &lazyParts{}}
	ix.files = make([]fileMeta, r.count(9))
	// The paths are views of one copy of the file table (one allocation,
	// not one per file): pathAt holds where each lies in it.
	table := r.buf
	pathAt := make([][2]int, len(ix.files))
	var prev []byte
	first := 0
	for i := range ix.files {
		f := &ix.files[i]
		p := r.strBytes()
		if i > 0 && bytes.Compare(p, prev) <= 0 {
			return nil, ErrCorrupt
		}
		prev = p
		at := len(table) - len(r.buf) - len(p)
		pathAt[i] = [2]int{at, at + len(p)}
		f.rev.Dev = r.uv()
		f.rev.Ino = r.uv()
		f.rev.Size = r.v()
		f.rev.Mtime = r.v()
		f.rev.Ctime = r.v()
		f.rev.Hash = r.uv()
		flags := r.uv()
		f.rev.Verified = flags&1 != 0
		f.generated = flags&2 != 0
		n := r.count(0)
		if r.bad || n > MaxChunksPerFile || first+n > nChunks {
			return nil, ErrCorrupt
		}
		f.first, f.n = int32(first), int32(n)
		first += n
	}
	if first != nChunks {
		return nil, ErrCorrupt
	}
	all := string(table[:len(table)-len(r.buf)])
	for i, at := range pathAt {
		ix.files[i].path = all[at[0]:at[1]]
	}
	lens := r.take(4 * nChunks)
	ix.recs = r.take(recBytes * nChunks)
	nStr := r.count(4)
	ix.strOff = offsets(r.take(4 * nStr))
	ix.strs = r.take(r.count(1))
	if r.bad || !ix.strOff.valid(nStr, len(ix.strs)) {
		return nil, ErrCorrupt
	}
	// The lengths are read in place (chunkLength); only their sum is
	// made here.
	ix.lens, ix.nChunks = lens, nChunks
	ix.chunkFile = make([]int32, nChunks)
	total := 0.0
	for c := 0; c < nChunks; c++ {
		total += float64(float32(binary.LittleEndian.Uint32(lens[4*c:])))
	}
	for i := range ix.files {
		f := &ix.files[i]
		for c := f.first; c < f.first+f.n; c++ {
			ix.chunkFile[c] = int32(i)
		}
	}
	for bi, b := range []struct {
		data *[]byte
		off  *offsets
	}{{&ix.termBlob, &ix.termOff}, {&ix.postBlob, &ix.postOff}} {
		n := r.count(4)
		if n == 0 || bi == 1 && n != ix.termOff.n() {
			return nil, ErrCorrupt
		}
		off := offsets(r.take(4 * n))
		data := r.take(r.count(1))
		if r.bad || !off.valid(n, len(data)) {
			return nil, ErrCorrupt
		}
		*b.data, *b.off = data, off
	}
	if r.bad || len(r.buf) != 0 {
		return nil, ErrCorrupt
	}
	// The terms are not checked for order: out of order, a lookup misses
	// (the binary search stays in bounds), which costs no safety, and
	// checking them cost a warm query a pass over every term.
	ix.finish(total)
	return ix, nil
}

// SameRevision reports whether file f of an index still describes a file
// whose identity is now id: the indexed revision was verified (the whole
// file was read, unchanged during the read) and the identity is equal,
// or the file had no chunks (binary or over MaxFileBytes) and its identity
// is equal.
func SameRevision(f FileInfo, id revisions.Identity) bool {
	return f.Rev.Identity == id && (f.Rev.Verified || f.Chunks == 0)
}

// encoder encodes small fields into buf and keeps the pieces laid out
// so far in parts (size bytes in all, buf's not yet).
type encoder struct {
	buf   []byte
	parts [][]byte
	size  int
}

// table ends the current piece and adds t (kept, not copied) after it.
func (w *encoder) table(t []byte) {
	if len(w.buf) > 0 {
		w.parts = append(w.parts, w.buf)
		w.size += len(w.buf)
		w.buf = nil
	}
	if len(t) > 0 {
		w.parts = append(w.parts, t)
		w.size += len(t)
	}
}

func (w *encoder) uv(x uint64)  { w.buf = binary.AppendUvarint(w.buf, x) }
func (w *encoder) v(x int64)    { w.buf = binary.AppendVarint(w.buf, x) }
func (w *encoder) str(s string) { w.uv(uint64(len(s))); w.buf = append(w.buf, s...) }

type decoder struct {
	buf []byte
	bad bool
}

func (r *decoder) uv() uint64 {
	x, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.bad, r.buf = true, nil
		return 0
	}
	r.buf = r.buf[n:]
	return x
}

func (r *decoder) v() int64 {
	x, n := binary.Varint(r.buf)
	if n <= 0 {
		r.bad, r.buf = true, nil
		return 0
	}
	r.buf = r.buf[n:]
	return x
}

// count reads a count of elements each at least minBytes long in the
// data, and refuses one that the rest of the data cannot hold (minBytes
// 0: a count of nothing stored here, bounded by the data's length).
func (r *decoder) count(minBytes int) int {
	x := r.uv()
	if x > uint64(len(r.buf)/max(minBytes, 1)) {
		r.bad = true
		return 0
	}
	return int(x)
}

// strBytes is str without the copy: a view of the data.
func (r *decoder) strBytes() []byte {
	n := r.uv()
	if n > uint64(len(r.buf)) {
		r.bad, r.buf = true, nil
		return nil
	}
	s := r.buf[:n:n]
	r.buf = r.buf[n:]
	return s
}

func (r *decoder) str() string {
	n := r.uv()
	if n > uint64(len(r.buf)) {
		r.bad, r.buf = true, nil
		return ""
	}
	s := string(r.buf[:n])
	r.buf = r.buf[n:]
	return s
}

// take returns the next n bytes (capacity n), or nil and bad when fewer
// are left.
func (r *decoder) take(n int) []byte {
	if n < 0 || n > len(r.buf) {
		r.bad, r.buf = true, nil
		return nil
	}
	b := r.buf[:n:n]
	r.buf = r.buf[n:]
	return b
}
