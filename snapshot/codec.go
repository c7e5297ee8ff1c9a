package snapshot

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/klauspost/compress/zstd"
)

// The snapshot file format: a zstd frame (with its content checksum) of
//
//	magic "EVGSNAP" and format version byte 1
//	string ID, string Root, varint Created (Unix seconds), uvarint its
//	  nanoseconds
//	uvarint count, then (string key, string value) per option, keys sorted
//	uvarint Searched
//	uvarint count, then per file in ranked order: string Path, uvarint
//	  Lines, uvarint Occurrences, uvarint Dev, uvarint Ino, varint Size,
//	  varint Mtime, varint Ctime, 8 bytes Hash (little endian), byte Verified
//	uvarint count, then per line in match order: uvarint file index,
//	  uvarint Number, uvarint TextStart, uvarint LineBytes, bytes Text,
//	  uvarint Occurrences, uvarint count, then per range uvarint Start, End,
//	  StartUTF16, EndUTF16
//
// where a string or bytes value is a uvarint length and the bytes. Totals,
// match numbers and per-file retained counts are derived. Decoding checks
// every count, order and cross-reference, so a damaged file is an error and
// never a malformed snapshot.
const (
	fileMagic   = "EVGSNAP"
	fileVersion = 1
)

var (
	codecOnce sync.Once
	encoder   *zstd.Encoder
	decoder   *zstd.Decoder
	codecErr  error
)

func codecs() (*zstd.Encoder, *zstd.Decoder, error) {
	codecOnce.Do(func() {
		encoder, codecErr = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderConcurrency(1))
		if codecErr != nil {
			return
		}
		decoder, codecErr = zstd.NewReader(nil,
			zstd.WithDecoderConcurrency(1),
			zstd.WithDecoderMaxMemory(maxDecodedBytes))
	})
	return encoder, decoder, codecErr
}

// encodeSnapshot returns the compressed file content of s.
func encodeSnapshot(s *Snapshot) ([]byte, error) {
	enc, _, err := codecs()
	if err != nil {
		return nil, err
	}
	return enc.EncodeAll(payload(s), nil), nil
}

// payload returns the uncompressed content of the snapshot file of s.
func payload(s *Snapshot) []byte {
	w := &writer{}
	w.buf = append(w.buf, fileMagic...)
	w.buf = append(w.buf, fileVersion)
	w.str(s.ID)
	w.str(s.Meta.Root)
	w.varint(s.Meta.Created.Unix())
	w.uvarint(uint64(s.Meta.Created.Nanosecond()))
	keys := sortedKeys(s.Meta.Options)
	w.uvarint(uint64(len(keys)))
	for _, k := range keys {
		w.str(k)
		w.str(s.Meta.Options[k])
	}
	w.uvarint(uint64(s.Totals.Searched))
	w.uvarint(uint64(len(s.files)))
	for _, f := range s.files {
		w.str(f.Path)
		w.uvarint(uint64(f.Lines))
		w.uvarint(uint64(f.Occurrences))
		r := f.Revision
		w.uvarint(r.Dev)
		w.uvarint(r.Ino)
		w.varint(r.Size)
		w.varint(r.Mtime)
		w.varint(r.Ctime)
		w.buf = binary.LittleEndian.AppendUint64(w.buf, r.Hash)
		if r.Verified {
			w.buf = append(w.buf, 1)
		} else {
			w.buf = append(w.buf, 0)
		}
	}
	w.uvarint(uint64(len(s.lines)))
	for _, l := range s.lines {
		w.uvarint(uint64(s.index[l.Path]))
		w.uvarint(uint64(l.Number))
		w.uvarint(uint64(l.TextStart))
		w.uvarint(uint64(l.LineBytes))
		w.bytes(l.Text)
		w.uvarint(uint64(l.Occurrences))
		w.uvarint(uint64(len(l.Ranges)))
		for _, r := range l.Ranges {
			w.uvarint(uint64(r.Start))
			w.uvarint(uint64(r.End))
			w.uvarint(uint64(r.StartUTF16))
			w.uvarint(uint64(r.EndUTF16))
		}
	}
	return w.buf
}

// decodeSnapshot parses a snapshot file; any damage is an error.
func decodeSnapshot(data []byte) (s *Snapshot, err error) {
	_, dec, err := codecs()
	if err != nil {
		return nil, err
	}
	raw, err := dec.DecodeAll(data, nil)
	if err != nil {
		return nil, err
	}
	return parsePayload(raw)
}

// parsePayload parses the uncompressed content of a snapshot file.
func parsePayload(raw []byte) (s *Snapshot, err error) {
	r := &reader{buf: raw}
	if string(r.take(len(fileMagic))) != fileMagic {
		return nil, errors.New("not a snapshot file")
	}
	if v := r.take(1); len(v) != 1 || v[0] != fileVersion {
		return nil, errors.New("unknown snapshot format version")
	}
	s = &Snapshot{}
	s.ID = r.str()
	s.Meta.Root = r.str()
	sec := r.varint()
	nsec := r.uvarint()
	if nsec >= 1e9 {
		r.fail("bad time")
	}
	s.Meta.Created = time.Unix(sec, int64(nsec)).UTC()
	if n := r.count(2); n > 0 {
		s.Meta.Options = make(map[string]string, n)
		prev := ""
		for i := 0; i < n; i++ {
			k, v := r.str(), r.str()
			if i > 0 && k <= prev {
				r.fail("options out of order")
			}
			s.Meta.Options[k], prev = v, k
		}
	}
	s.Totals.Searched = r.int()
	nf := r.count(13)
	s.files = make([]File, 0, nf)
	for i := 0; i < nf && r.err == nil; i++ {
		var f File
		f.Path = r.str()
		f.Lines = r.int()
		f.Occurrences = r.int()
		f.Revision.Dev = r.uvarint()
		f.Revision.Ino = r.uvarint()
		f.Revision.Size = r.varint()
		f.Revision.Mtime = r.varint()
		f.Revision.Ctime = r.varint()
		if h := r.take(8); len(h) == 8 {
			f.Revision.Hash = binary.LittleEndian.Uint64(h)
		}
		switch v := r.take(1); {
		case len(v) == 1 && v[0] == 1:
			f.Revision.Verified = true
		case len(v) == 1 && v[0] == 0:
		default:
			r.fail("bad verified flag")
		}
		s.files = append(s.files, f)
	}
	nl := r.count(7)
	s.lines = make([]Line, 0, nl)
	for i := 0; i < nl && r.err == nil; i++ {
		fi := r.int()
		if fi >= len(s.files) {
			r.fail("line of an unknown file")
			break
		}
		l := Line{Match: i + 1, Path: s.files[fi].Path}
		s.files[fi].Retained++
		l.Number = r.int()
		l.TextStart = r.int()
		l.LineBytes = r.int()
		l.Text = r.bytes()
		l.Occurrences = r.int()
		nr := r.count(4)
		if nr > 0 {
			l.Ranges = make([]Range, nr)
		}
		for j := range l.Ranges {
			l.Ranges[j] = Range{Start: r.int(), End: r.int(), StartUTF16: r.int(), EndUTF16: r.int()}
		}
		s.lines = append(s.lines, l)
	}
	if r.err == nil && len(r.buf) != 0 {
		r.fail("trailing data")
	}
	if r.err != nil {
		return nil, r.err
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	s.finish()
	return s, nil
}

// validate checks what decoding cannot: the orders and the totals.
func (s *Snapshot) validate() error {
	if !validToken(s.ID) {
		return errors.New("bad snapshot id")
	}
	t := Totals{Searched: s.Totals.Searched, Retained: len(s.lines), Files: len(s.files)}
	seen := make(map[string]bool, len(s.files))
	for i, f := range s.files {
		if seen[f.Path] {
			return fmt.Errorf("file %q listed twice", f.Path)
		}
		seen[f.Path] = true
		if f.Lines < 1 || f.Retained > f.Lines || f.Occurrences < 0 {
			return fmt.Errorf("bad counts for %q", f.Path)
		}
		if i > 0 {
			p := s.files[i-1]
			if p.Lines < f.Lines || p.Lines == f.Lines && p.Path >= f.Path {
				return errors.New("files out of rank order")
			}
		}
		t.Lines += f.Lines
		t.Occurrences += f.Occurrences
		if t.Lines < 0 || t.Occurrences < 0 {
			return errors.New("totals overflow")
		}
	}
	for i, l := range s.lines {
		if i > 0 && less(l.Path, l.Number, s.lines[i-1].Path, s.lines[i-1].Number) {
			return errors.New("lines out of order")
		}
		if l.TextStart > l.LineBytes || len(l.Text) > l.LineBytes-l.TextStart || len(l.Ranges) > l.Occurrences {
			return errors.New("bad line text")
		}
		for _, r := range l.Ranges {
			if r.End < r.Start || r.EndUTF16 < r.StartUTF16 {
				return errors.New("bad range")
			}
		}
	}
	if t.Retained > t.Lines {
		return errors.New("more lines retained than found")
	}
	t.Partial = t.Retained < t.Lines
	s.Totals = t
	return nil
}

type writer struct{ buf []byte }

func (w *writer) uvarint(v uint64) { w.buf = binary.AppendUvarint(w.buf, v) }
func (w *writer) varint(v int64)   { w.buf = binary.AppendVarint(w.buf, v) }
func (w *writer) str(s string)     { w.uvarint(uint64(len(s))); w.buf = append(w.buf, s...) }
func (w *writer) bytes(b []byte)   { w.uvarint(uint64(len(b))); w.buf = append(w.buf, b...) }

// reader decodes the format; the first error sticks and later reads return
// zero values.
type reader struct {
	buf []byte
	err error
}

func (r *reader) fail(msg string) {
	if r.err == nil {
		r.err = errors.New("corrupt snapshot: " + msg)
	}
	r.buf = nil
}

func (r *reader) take(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.buf) {
		r.fail("truncated")
		return nil
	}
	b := r.buf[:n:n]
	r.buf = r.buf[n:]
	return b
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.buf)
	if n <= 0 {
		r.fail("bad number")
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

func (r *reader) varint() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.buf)
	if n <= 0 {
		r.fail("bad number")
		return 0
	}
	r.buf = r.buf[n:]
	return v
}

// int reads a uvarint that must fit an int.
func (r *reader) int() int {
	v := r.uvarint()
	if v > math.MaxInt {
		r.fail("number out of range")
		return 0
	}
	return int(v)
}

// count reads an element count; each element takes at least min bytes, so
// a count the remaining data cannot hold is corrupt (and never allocated).
func (r *reader) count(min int) int {
	n := r.int()
	if r.err == nil && n > len(r.buf)/min {
		r.fail("count beyond the data")
		return 0
	}
	return n
}

func (r *reader) str() string { return string(r.bytes()) }

func (r *reader) bytes() []byte {
	n := r.int()
	if r.err != nil {
		return nil
	}
	return r.take(n)
}
