package snapshot

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"time"
	"unsafe"

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
//	byte Analysis (format version 2 on; 1: an analysis, items follow), and
//	  for an analysis: uvarint offered items, uvarint count, then per item
//	  uvarint file index, uvarint Line, uvarint EndLine, varint Start,
//	  varint End, string Group, string Label, 8 bytes Score (IEEE 754,
//	  little endian), string Text
//	(format version 3 on) byte Meta.Analysis, uvarint count of lists,
//	  then per list (keys in order) string key, uvarint length, strings;
//	  uvarint count of number lists, then per list (keys in order) string
//	  key, uvarint length, varints
//
// where a string or bytes value is a uvarint length and the bytes. Totals,
// match numbers and per-file retained counts are derived. Decoding checks
// every count, order and cross-reference, so a damaged file is an error and
// never a malformed snapshot.
const (
	fileMagic   = "EVGSNAP"
	fileVersion = 3
	// fileVersionItems is the format before typed metadata (no
	// Meta.Analysis, Lists or Numbers): its searches still decode, its
	// analyses do not (which analysis they hold is not known).
	fileVersionItems = 2
	// fileVersionLines is the format before analyses (no Analysis byte);
	// its files still decode.
	fileVersionLines = 1
)

var (
	encoderOnce sync.Once
	encoder     *zstd.Encoder
	encoderErr  error
)

func sharedEncoder() (*zstd.Encoder, error) {
	encoderOnce.Do(func() {
		encoder, encoderErr = zstd.NewWriter(nil,
			zstd.WithEncoderLevel(zstd.SpeedFastest),
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(maxWindowBytes))
	})
	return encoder, encoderErr
}

// errTooLarge is the error of a snapshot whose file would take more than
// maxDecodedBytes to decode.
var errTooLarge = errors.New("snapshot too large to keep in the state folder")

// encodeSnapshot returns the file content of s (a raw frame when it is
// at most maxRawFrameBytes, rawframe.go; else compressed), or errTooLarge
// when decoding it would take more than maxDecodedBytes.
func encodeSnapshot(s *Snapshot) ([]byte, error) {
	raw := payload(s)
	if decodeCost(s, len(raw)) > maxDecodedBytes {
		return nil, errTooLarge
	}
	if len(raw) <= maxRawFrameBytes {
		return rawFrame(raw), nil
	}
	enc, err := sharedEncoder()
	if err != nil {
		return nil, err
	}
	return enc.EncodeAll(raw, nil), nil
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
	if !s.analysis {
		w.buf = append(w.buf, 0)
	} else {
		w.buf = append(w.buf, 1)
		w.items(s)
	}
	w.meta(&s.Meta)
	return w.buf
}

// items writes an analysis's items.
func (w *writer) items(s *Snapshot) {
	w.uvarint(uint64(s.Totals.Lines))
	w.uvarint(uint64(len(s.items)))
	for _, it := range s.items {
		w.uvarint(uint64(s.index[it.Path]))
		w.uvarint(uint64(it.Line))
		w.uvarint(uint64(it.EndLine))
		w.varint(it.Start)
		w.varint(it.End)
		w.str(it.Group)
		w.str(it.Label)
		w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(it.Score))
		w.str(it.Text)
	}
}

// decodeSnapshot parses a snapshot file held in memory; see readSnapshotFrom.
func decodeSnapshot(data []byte) (*Snapshot, error) {
	return readSnapshotFrom(bytes.NewReader(data), maxDecodedBytes)
}

// readSnapshotFrom decodes a snapshot file from r within a memory budget
// of limit bytes (maxDecodedBytes in use); any damage, and any file that
// would take more, is an error. The file must be one zstd frame with a
// window of at most maxWindowBytes that declares its content size (as
// encodeSnapshot writes it): the content is allocated once at that size
// (charged to the budget) and a frame that yields a byte more is refused,
// so a small file that expands without bound (a zstd bomb) costs at most
// limit plus the decoder's window.
func readSnapshotFrom(r io.Reader, limit int) (*Snapshot, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(zstd.HeaderMaxSize)
	var h zstd.Header
	if err := h.Decode(head); err != nil {
		return nil, fmt.Errorf("not a snapshot file: %w", err)
	}
	window := h.WindowSize
	if h.SingleSegment {
		window = h.FrameContentSize
	}
	// zstd leaves out content sizes below 256 unless the frame is one
	// segment, so a frame without one may only hold less.
	size, exact := h.FrameContentSize, h.HasFCS
	if !exact {
		size = 255
	}
	switch {
	case h.Skippable || h.DictionaryID != 0:
		return nil, errors.New("not a snapshot file: unexpected zstd frame")
	case size >= uint64(limit):
		return nil, errTooLarge
	case window > maxWindowBytes:
		return nil, errors.New("corrupt snapshot file: zstd window too large")
	}
	dec, err := zstd.NewReader(br,
		zstd.WithDecoderConcurrency(1),
		zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxWindow(maxWindowBytes),
		// (For streams this bounds the window too, hence not below it.)
		zstd.WithDecoderMaxMemory(uint64(max(limit, maxWindowBytes))))
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	// One byte more than the size shows a frame that holds more; reading
	// to the end checks the content checksum and that nothing follows.
	raw := make([]byte, size+1)
	n, err := io.ReadFull(io.LimitReader(dec, int64(limit)+1), raw)
	switch {
	case err == nil:
		return nil, errors.New("corrupt snapshot file: more content than declared")
	case err != io.EOF && err != io.ErrUnexpectedEOF:
		return nil, fmt.Errorf("corrupt snapshot file: %w", err)
	case exact && uint64(n) != size:
		return nil, errors.New("corrupt snapshot file: less content than declared")
	}
	raw = raw[:n]
	return parsePayloadWithin(raw, limit-cap(raw))
}

// Memory that parsing charges against the decode budget, per element and
// beside the bytes it copies: the structs themselves, and for a file its
// entries in the path index and the per-path spans (see finish).
const (
	fileCost        = int(unsafe.Sizeof(File{})) + indexEntryCost + int(unsafe.Sizeof(span{}))
	lineCost        = int(unsafe.Sizeof(Line{}))
	itemStructCost  = int(unsafe.Sizeof(Item{}))
	rangeStructCost = int(unsafe.Sizeof(Range{}))
	// indexEntryCost is a generous size of one map entry (key, value and
	// the map's own share).
	indexEntryCost = 64
	optionCost     = 2 * indexEntryCost
	stringCost     = int(unsafe.Sizeof(""))
)

// decodeCost is what readSnapshotFrom charges to decode the file of s
// (with a payload of rawLen bytes): the content buffer (with its probe
// byte), and the same sum parsePayloadWithin makes. Every frame
// encodeSnapshot writes declares its content size: a raw frame always, a
// compressed one because it holds more than maxRawFrameBytes (zstd leaves
// out only sizes below 256, which readSnapshotFrom charges as 255).
func decodeCost(s *Snapshot, rawLen int) int {
	n := rawLen + 1 + len(s.ID) + len(s.Meta.Root)
	for k, v := range s.Meta.Options {
		n += optionCost + len(k) + len(v)
	}
	for k, v := range s.Meta.Lists {
		n += optionCost + len(k)
		for _, x := range v {
			n += stringCost + len(x)
		}
	}
	for k, v := range s.Meta.Numbers {
		n += optionCost + len(k) + 8*len(v)
	}
	for _, f := range s.files {
		n += fileCost + len(f.Path)
	}
	n += len(s.lines) * lineCost
	for _, l := range s.lines {
		n += len(l.Ranges) * rangeStructCost
	}
	for _, it := range s.items {
		n += itemStructCost + len(it.Group) + len(it.Label) + len(it.Text)
	}
	return n
}

// parsePayload parses the uncompressed content of a snapshot file, with
// the budget of a file of that size.
func parsePayload(raw []byte) (*Snapshot, error) {
	return parsePayloadWithin(raw, maxDecodedBytes-len(raw))
}

// parsePayloadWithin parses the uncompressed content of a snapshot file,
// allocating at most about budget bytes beside raw: every count and length
// is checked against the format's bounds and charged before anything of
// that size is allocated.
func parsePayloadWithin(raw []byte, budget int) (s *Snapshot, err error) {
	r := &reader{buf: raw, budget: budget}
	if string(r.take(len(fileMagic))) != fileMagic {
		return nil, errors.New("not a snapshot file")
	}
	version := r.take(1)
	if len(version) != 1 || version[0] != fileVersion && version[0] != fileVersionItems && version[0] != fileVersionLines {
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
	if n := r.count(2, math.MaxInt, optionCost); n > 0 {
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
	nf := r.count(13, math.MaxInt, fileCost)
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
	nl := r.count(7, MaxRetainedLines, lineCost)
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
		l.Text = r.bytes(MaxLineBytes)
		l.Occurrences = r.int()
		nr := r.count(4, MaxRangesRetained, rangeStructCost)
		if nr > 0 {
			l.Ranges = make([]Range, nr)
		}
		for j := range l.Ranges {
			l.Ranges[j] = Range{Start: r.int(), End: r.int(), StartUTF16: r.int(), EndUTF16: r.int()}
		}
		s.lines = append(s.lines, l)
	}
	offered := 0
	if version[0] != fileVersionLines {
		offered = r.items(s)
	}
	switch {
	case version[0] == fileVersion:
		r.meta(&s.Meta)
	case s.analysis:
		r.fail("an analysis of an older format")
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
	if s.analysis {
		if err := s.validateItems(offered); err != nil {
			return nil, err
		}
	}
	s.finish()
	return s, nil
}

// items reads the Analysis byte and, for an analysis, its items into s;
// it returns the number of items the analysis was offered.
func (r *reader) items(s *Snapshot) int {
	switch v := r.take(1); {
	case len(v) == 1 && v[0] == 0:
		return 0
	case len(v) == 1 && v[0] == 1:
	default:
		r.fail("bad analysis flag")
		return 0
	}
	s.analysis = true
	offered := r.int()
	// An item takes at least 16 bytes: seven one-byte numbers and
	// lengths, a score of 8 and its Text length.
	n := r.count(16, MaxItems, itemStructCost)
	s.items = make([]Item, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		fi := r.int()
		if fi >= len(s.files) {
			r.fail("item of an unknown file")
			break
		}
		it := Item{Path: s.files[fi].Path}
		it.Line = r.int()
		it.EndLine = r.int()
		it.Start = r.varint()
		it.End = r.varint()
		it.Group = r.strMax(MaxItemKeyBytes)
		it.Label = r.strMax(MaxItemKeyBytes)
		if b := r.take(8); len(b) == 8 {
			it.Score = math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
		it.Text = r.strMax(MaxItemText)
		s.items = append(s.items, it)
	}
	return offered
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
// zero values. budget is what it may still allocate (see charge).
type reader struct {
	buf    []byte
	err    error
	budget int
}

func (r *reader) fail(msg string) {
	if r.err == nil {
		r.err = errors.New("corrupt snapshot: " + msg)
	}
	r.buf = nil
}

// charge takes n bytes from the budget before they are allocated; beyond
// it the file is refused.
func (r *reader) charge(n int) bool {
	if r.err != nil {
		return false
	}
	if n < 0 || n > r.budget {
		r.fail("too large to decode")
		return false
	}
	r.budget -= n
	return true
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
	if n <= 0 || n > 1 && r.buf[n-1] == 0 {
		// Not a number, or one written longer than the encoder writes
		// it (a zero last byte): each value has one encoding.
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
	if n <= 0 || n > 1 && r.buf[n-1] == 0 {
		// Not a number, or one written longer than the encoder writes
		// it (a zero last byte): each value has one encoding.
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

// count reads an element count of at most max, each element taking at
// least min bytes of the data and cost bytes of memory: a count the
// remaining data cannot hold, beyond the format's bound or beyond the
// budget is corrupt, and nothing of its size is allocated.
func (r *reader) count(min, max, cost int) int {
	n := r.int()
	switch {
	case r.err != nil:
		return 0
	case n > max:
		r.fail("count beyond its bound")
		return 0
	case n > len(r.buf)/min:
		r.fail("count beyond the data")
		return 0
	case n > 0 && cost > r.budget/n:
		r.fail("too large to decode")
		return 0
	}
	r.charge(n * cost)
	return n
}

// str reads a string; its bytes are copied, so they are charged.
func (r *reader) str() string {
	b := r.bytes(math.MaxInt)
	if !r.charge(len(b)) {
		return ""
	}
	return string(b)
}

// strMax reads a string of at most max bytes; its bytes are copied, so
// they are charged.
func (r *reader) strMax(max int) string {
	b := r.bytes(max)
	if !r.charge(len(b)) {
		return ""
	}
	return string(b)
}

// bytes reads a byte string of at most max bytes, sharing the data.
func (r *reader) bytes(max int) []byte {
	n := r.int()
	if r.err != nil {
		return nil
	}
	if n > max {
		r.fail("length beyond its bound")
		return nil
	}
	return r.take(n)
}
