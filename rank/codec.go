package rank

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"sort"

	"github.com/evgrep/evgrep/revisions"
)

// cacheMagic starts every encoded index; the last byte is the format's
// version (a new chunker or tokenizer changes it, so old caches are
// rebuilt rather than misread).
var cacheMagic = []byte("evgrep-rank\x00\x09")

// Encode writes ix as a cache: the magic, key, the files with their
// chunks, then the index's blobs as they are. It is not compressed: a warm
// query reads it with one read and uses the blobs in place (decompressing
// was most of a warm query's CPU). Decode with the same key reads it back.
func Encode(key string, ix *Index) ([]byte, error) {
	w := &encoder{buf: append([]byte(nil), cacheMagic...)}
	w.str(key)
	w.uv(uint64(len(ix.chunks)))
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
		for c := f.first; c < f.first+f.n; c++ {
			ch := &ix.chunks[c]
			w.uv(uint64(ch.StartLine))
			w.uv(uint64(ch.EndLine - ch.StartLine))
			w.uv(uint64(ch.StartByte))
			w.uv(uint64(ch.EndByte - ch.StartByte))
			// The windows of one declaration repeat its kind, name
			// (a large var group's names are long) and context: each is
			// written once, then as "the previous chunk's".
			prev := &ix.chunks[max(c-1, f.first)]
			first := c == f.first
			w.same(ch.Kind, prev.Kind, first)
			w.same(ch.Name, prev.Name, first)
			w.same(ch.Context, prev.Context, first)
			cont := uint64(0)
			if ch.Cont {
				cont = 1
			}
			w.uv(cont)
			w.uv(uint64(ch.length))
		}
	}
	for _, blob := range []struct {
		data []byte
		off  []uint32
	}{{ix.termBlob, ix.termOff}, {ix.postBlob, ix.postOff}} {
		w.uv(uint64(len(blob.off)))
		prev := uint32(0)
		for _, o := range blob.off {
			w.uv(uint64(o - prev))
			prev = o
		}
		w.uv(uint64(len(blob.data)))
		w.buf = append(w.buf, blob.data...)
	}
	if len(w.buf) > MaxCacheBytes {
		return nil, ErrTooLarge
	}
	return w.buf, nil
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

func parseIndex(key string, raw []byte) (*Index, error) {
	if !bytes.HasPrefix(raw, cacheMagic) {
		return nil, ErrCorrupt
	}
	r := &decoder{buf: raw[len(cacheMagic):]}
	if r.str() != key {
		return nil, ErrCorrupt
	}
	nChunks := r.count(9)
	ix := &Index{chunks: make([]chunkMeta, 0, nChunks), lazy: &lazyParts{}}
	ix.files = make([]fileMeta, r.count(8))
	total := 0.0
	for i := range ix.files {
		f := &ix.files[i]
		f.path = r.str()
		if i > 0 && f.path <= ix.files[i-1].path {
			return nil, ErrCorrupt
		}
		f.rev.Dev = r.uv()
		f.rev.Ino = r.uv()
		f.rev.Size = r.v()
		f.rev.Mtime = r.v()
		f.rev.Ctime = r.v()
		f.rev.Hash = r.uv()
		flags := r.uv()
		f.rev.Verified = flags&1 != 0
		f.generated = flags&2 != 0
		n := r.count(9)
		if n > MaxChunksPerFile || len(ix.chunks)+n > nChunks {
			return nil, ErrCorrupt
		}
		f.first, f.n = int32(len(ix.chunks)), int32(n)
		for k := 0; k < n; k++ {
			var c chunkMeta
			c.file = int32(i)
			c.StartLine = r.int()
			c.EndLine = c.StartLine + r.int()
			c.StartByte = r.int()
			c.EndByte = c.StartByte + r.int()
			var prev *chunkMeta
			if k > 0 {
				prev = &ix.chunks[len(ix.chunks)-1]
			}
			c.Kind = r.same(prev, func(p *chunkMeta) string { return p.Kind })
			c.Name = r.same(prev, func(p *chunkMeta) string { return p.Name })
			c.Context = r.same(prev, func(p *chunkMeta) string { return p.Context })
			c.Cont = r.uv() == 1
			c.length = float32(min(r.uv(), math.MaxInt32))
			total += float64(c.length)
			if r.bad {
				return nil, ErrCorrupt
			}
			ix.chunks = append(ix.chunks, c)
		}
		if r.bad {
			return nil, ErrCorrupt
		}
	}
	blobs := []struct {
		data *[]byte
		off  *[]uint32
		want int // number of offsets required (-1: any)
	}{{&ix.termBlob, &ix.termOff, -1}, {&ix.postBlob, &ix.postOff, -1}}
	for bi, b := range blobs {
		n := r.count(1)
		if n == 0 || b.want >= 0 && n != b.want || bi == 1 && n != len(ix.termOff) {
			return nil, ErrCorrupt
		}
		off := make([]uint32, n)
		cur := uint64(0)
		for i := range off {
			cur += r.uv()
			if cur > math.MaxUint32 {
				return nil, ErrCorrupt
			}
			off[i] = uint32(cur)
		}
		size := r.count(1)
		if r.bad || off[0] != 0 || uint64(size) != cur || size > len(r.buf) {
			return nil, ErrCorrupt
		}
		*b.data = r.buf[:size:size]
		*b.off = off
		r.buf = r.buf[size:]
	}
	if r.bad || len(r.buf) != 0 || len(ix.chunks) != nChunks {
		return nil, ErrCorrupt
	}
	// Terms must be sorted for the binary search.
	if !sort.SliceIsSorted(ix.termOff[:len(ix.termOff)-1], func(a, b int) bool {
		return string(ix.termBlob[ix.termOff[a]:ix.termOff[a+1]]) < string(ix.termBlob[ix.termOff[b]:ix.termOff[b+1]])
	}) {
		return nil, ErrCorrupt
	}
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

type encoder struct{ buf []byte }

func (w *encoder) uv(x uint64)  { w.buf = binary.AppendUvarint(w.buf, x) }
func (w *encoder) v(x int64)    { w.buf = binary.AppendVarint(w.buf, x) }
func (w *encoder) str(s string) { w.uv(uint64(len(s))); w.buf = append(w.buf, s...) }

// same writes s, or 0 when it equals prev (and first is false): strings
// are written as 1+length, then their bytes.
func (w *encoder) same(s, prev string, first bool) {
	if !first && s == prev {
		w.uv(0)
		return
	}
	w.uv(uint64(len(s)) + 1)
	w.buf = append(w.buf, s...)
}

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

func (r *decoder) int() int {
	x := r.uv()
	if x > math.MaxInt32 {
		r.bad = true
		return 0
	}
	return int(x)
}

// count reads a count of elements each at least minBytes long in the
// data, and refuses one that the rest of the data cannot hold.
func (r *decoder) count(minBytes int) int {
	x := r.uv()
	if x > uint64(len(r.buf)/minBytes) {
		r.bad = true
		return 0
	}
	return int(x)
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

// same reads what encoder.same wrote: 0 is field(prev), which must exist.
func (r *decoder) same(prev *chunkMeta, field func(*chunkMeta) string) string {
	n := r.uv()
	if n == 0 {
		if prev == nil {
			r.bad = true
			return ""
		}
		return field(prev)
	}
	n--
	if n > uint64(len(r.buf)) {
		r.bad, r.buf = true, nil
		return ""
	}
	s := string(r.buf[:n])
	r.buf = r.buf[n:]
	return s
}
