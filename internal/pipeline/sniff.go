package pipeline

import (
	"bytes"
	"io"
	"slices"
	"sync"

	"github.com/evgrep/evgrep/internal/input"
)

// sniffReader reads a file for a search and decides, from the bytes of
// the search's first read, whether they are searched as they are or
// decoded (a byte-order mark, an -E label: input.Raw, input.NewReader).
//
// rg reads the first input.HeadLen bytes with a read of their own before
// the rest (its BOM-sniffing reader), and they are its searcher's first
// buffer step; each file cost one more read call than its bytes need.
// Here the first read fills the searcher's buffer, its first bytes are the
// head, and the searcher takes those three bytes as its first step
// (search.SplitReader): the same head (at most HeadLen of what one read of
// the file gave) and the same steps, with one read call fewer. When the
// head asks for decoding, the bytes read are given to the decoder ahead of
// the rest of the file (a copy made only then).
type sniffReader struct {
	r    io.Reader
	path string
	opts input.Options
	// peek is the search's Config.BOMPeek: the search takes the first
	// read's first three bytes as a read of their own (search.SplitReader),
	// and so does a decoder's first read here.
	peek bool
	// dec is the decoding reader, once the head asked for one.
	dec io.ReadCloser
	// started: the first read is done.
	started bool
	// headBuf holds the head of a first read shorter than it (no
	// searcher asks for one).
	headBuf [input.HeadLen]byte
}

// sniffers keeps sniffReaders from one file to the next: one per searched
// file was garbage enough to raise a tree search's peak RSS by 1.7 MB
// (the GC target; bench/README.md, "Peak RSS").
var sniffers = sync.Pool{New: func() any { return new(sniffReader) }}

// newSniffReader returns a sniffReader of r, the file at path; the caller
// releases it when the search is over.
func newSniffReader(r io.Reader, path string, opts input.Options, peek bool) *sniffReader {
	s := sniffers.Get().(*sniffReader)
	*s = sniffReader{r: r, path: path, opts: opts, peek: peek}
	return s
}

// release closes the decoder, if any, and gives s back to sniffers; s is
// not used after.
func (s *sniffReader) release() {
	_ = s.Close()
	*s = sniffReader{}
	sniffers.Put(s)
}

// Read implements io.Reader.
func (s *sniffReader) Read(p []byte) (int, error) {
	switch {
	case s.dec != nil:
		return s.dec.Read(p)
	case s.started:
		return s.read(p)
	}
	s.started = true
	head := s.headBuf[:]
	buf := p
	if len(p) < len(head) {
		buf = head // (no searcher asks for less than a buffer)
	}
	n, err := s.read(buf)
	if err != nil && err != io.EOF {
		return 0, err
	}
	if input.Raw(s.path, buf[:min(n, len(head))], s.opts) {
		if len(p) < len(head) {
			s.dec = io.NopCloser(io.MultiReader(bytes.NewReader(slices.Clone(buf[:n])), readerFunc(s.read)))
			return s.dec.Read(p)
		}
		return n, err
	}
	dec, derr := input.NewReader(io.MultiReader(bytes.NewReader(slices.Clone(buf[:n])), readerFunc(s.read)), s.path, s.opts)
	if derr != nil {
		return 0, derr
	}
	s.dec = dec
	if s.peek && len(p) > len(head) {
		// The decoded bytes are not split by the search (a decoder's read
		// of n bytes need not be its reads of 3 and n-3): its first read
		// asks for three, as rg's reader gives them.
		p = p[:len(head)]
	}
	return dec.Read(p)
}

// SplitReads implements search.SplitReader: a raw file's bytes come one
// read of the file per call, and a decoder's first read is of three bytes.
func (s *sniffReader) SplitReads() {}

// read reads the file, its errors in rg's words.
func (s *sniffReader) read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	if err != nil && err != io.EOF {
		return n, osErr(err)
	}
	return n, err
}

// Close closes the decoder, if the head asked for one (not the file).
func (s *sniffReader) Close() error {
	if s.dec != nil {
		return s.dec.Close()
	}
	return nil
}

// readerFunc is a function as an io.Reader.
type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }
