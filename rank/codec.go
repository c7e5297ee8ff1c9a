package rank

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/evgrep/evgrep/revisions"
	"github.com/klauspost/compress/zstd"
)

// cacheMagic starts every encoded cache; the last byte is the format's
// version (a new chunker or tokenizer changes it, so old caches are
// rebuilt rather than misread).
var cacheMagic = []byte("evgrep-rank\x00\x03")

// Encode writes docs as a zstd-compressed cache: the magic, a table of
// every term, then each document (path, revision, chunks, term ids and
// counts). key is stored too, and Decode refuses another key.
func Encode(key string, docs []*FileDoc) ([]byte, error) {
	ids := map[string]uint64{}
	var names []string
	for _, d := range docs {
		for _, tcs := range d.Terms {
			for _, tc := range tcs {
				if _, ok := ids[tc.Term]; !ok {
					ids[tc.Term] = uint64(len(names))
					names = append(names, tc.Term)
				}
			}
		}
	}
	w := &encoder{buf: append([]byte(nil), cacheMagic...)}
	w.str(key)
	w.uv(uint64(len(names)))
	for _, n := range names {
		w.str(n)
	}
	w.uv(uint64(len(docs)))
	for _, d := range docs {
		w.str(d.Path)
		r := d.Rev
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
		if d.Generated {
			flags |= 2
		}
		w.uv(flags)
		w.uv(uint64(len(d.Chunks)))
		for i, c := range d.Chunks {
			w.uv(uint64(c.StartLine))
			w.uv(uint64(c.EndLine - c.StartLine))
			w.uv(uint64(c.StartByte))
			w.uv(uint64(c.EndByte - c.StartByte))
			w.str(c.Kind)
			w.str(c.Name)
			w.str(c.Context)
			if c.Cont {
				w.uv(1)
			} else {
				w.uv(0)
			}
			tcs := d.Terms[i]
			w.uv(uint64(len(tcs)))
			for _, tc := range tcs {
				w.uv(ids[tc.Term])
				w.uv(uint64(tc.N))
			}
		}
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	return enc.EncodeAll(w.buf, nil), nil
}

// Errors of Decode.
var (
	// ErrCorrupt: the data is not a cache of this version.
	ErrCorrupt = errors.New("not a rank cache of this version")
	// ErrTooLarge: the data or its content exceeds MaxCacheBytes or
	// MaxCacheDecoded.
	ErrTooLarge = errors.New("rank cache over its size bound")
)

// Decode reads a cache written by Encode with the same key. It never
// expands more than MaxCacheDecoded bytes, and every count it reads is
// checked against what is left, so hostile data costs bounded memory.
func Decode(key string, data []byte) ([]*FileDoc, error) {
	if len(data) > MaxCacheBytes {
		return nil, ErrTooLarge
	}
	br := bufio.NewReader(bytes.NewReader(data))
	var h zstd.Header
	head, _ := br.Peek(zstd.HeaderMaxSize)
	if err := h.Decode(head); err != nil || h.Skippable || h.DictionaryID != 0 {
		return nil, ErrCorrupt
	}
	if h.HasFCS && h.FrameContentSize > MaxCacheDecoded {
		return nil, ErrTooLarge
	}
	dec, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(64<<20), zstd.WithDecoderMaxMemory(MaxCacheDecoded))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	raw, err := io.ReadAll(io.LimitReader(dec, MaxCacheDecoded+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if len(raw) > MaxCacheDecoded {
		return nil, ErrTooLarge
	}
	return parseCache(key, raw)
}

func parseCache(key string, raw []byte) (docs []*FileDoc, err error) {
	if !bytes.HasPrefix(raw, cacheMagic) {
		return nil, ErrCorrupt
	}
	r := &decoder{buf: raw[len(cacheMagic):]}
	if r.str() != key {
		return nil, ErrCorrupt
	}
	names := make([]string, r.count(1))
	for i := range names {
		names[i] = r.str()
	}
	docs = make([]*FileDoc, r.count(8))
	last := ""
	for i := range docs {
		d := &FileDoc{Path: r.str()}
		if i > 0 && d.Path <= last {
			r.bad = true
		}
		last = d.Path
		d.Rev.Dev = r.uv()
		d.Rev.Ino = r.uv()
		d.Rev.Size = r.v()
		d.Rev.Mtime = r.v()
		d.Rev.Ctime = r.v()
		d.Rev.Hash = r.uv()
		flags := r.uv()
		d.Rev.Verified = flags&1 != 0
		d.Generated = flags&2 != 0
		n := r.count(8)
		if n > MaxChunksPerFile {
			r.bad = true
			n = 0
		}
		d.Chunks = make([]Chunk, n)
		d.Terms = make([][]TermCount, n)
		for j := range d.Chunks {
			c := &d.Chunks[j]
			c.StartLine = r.int()
			c.EndLine = c.StartLine + r.int()
			c.StartByte = r.int()
			c.EndByte = c.StartByte + r.int()
			c.Kind = r.str()
			c.Name = r.str()
			c.Context = r.str()
			c.Cont = r.uv() == 1
			tcs := make([]TermCount, r.count(2))
			for k := range tcs {
				id := r.uv()
				if id >= uint64(len(names)) {
					r.bad = true
					break
				}
				tcs[k] = TermCount{names[id], uint32(min(r.uv(), math.MaxUint32))}
			}
			if !sort.SliceIsSorted(tcs, func(a, b int) bool { return tcs[a].Term < tcs[b].Term }) {
				r.bad = true
			}
			d.Terms[j] = tcs
			if r.bad {
				return nil, ErrCorrupt
			}
		}
		docs[i] = d
		if r.bad {
			return nil, ErrCorrupt
		}
	}
	if r.bad || len(r.buf) != 0 {
		return nil, ErrCorrupt
	}
	return docs, nil
}

// Documents returns the index's documents in path order (for Encode).
func (ix *Index) Documents() []*FileDoc { return append([]*FileDoc(nil), ix.files...) }

// SameRevision reports whether a cached document still describes a file
// whose identity is now id: the cached revision was verified (the whole
// file was read, unchanged during the read) and the identity is equal.
func SameRevision(d *FileDoc, id revisions.Identity) bool {
	return d.Rev.Verified && d.Rev.Identity == id
}

type encoder struct{ buf []byte }

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

func (r *decoder) int() int {
	x := r.uv()
	if x > math.MaxInt32 {
		r.bad = true
		return 0
	}
	return int(x)
}

// count reads a count of elements each at least min bytes long in the
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
