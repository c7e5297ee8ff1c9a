// Package pipeline is evgrep's one search pipeline, shared by the rg form
// (internal/app) and the agent (internal/agent): it walks the roots, opens
// each file the way ripgrep 13 reads it (a raw descriptor, a memory map by
// rg's rule, the whole file for -U, byte-order-mark and -E decoding, -z
// decompression), runs a pooled searcher over it and hands the results to
// a per-worker Sink. It prints nothing and knows no flags.
package pipeline

import (
	"bytes"
	"errors"
	"io"
	"os"
	"sync"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/oserr"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/walker"
)

// Options are the settings of one search run.
type Options struct {
	// Walk selects the files (rg's discovery rules).
	Walk walker.Options
	// Search configures every searcher. Its Binary field is ignored: each
	// file gets Binary.Implicit or Binary.Explicit. Multiline makes -U
	// search whole files across lines (set it only when a match may
	// contain the line terminator).
	Search search.Config
	// Binary is the NUL-byte handling of walked and of named files.
	Binary Binary
	// Input selects decompression (-z) and decoding (-E).
	Input input.Options
	// Mmap memory-maps files instead of reading them (rg's choice; see
	// MmapChoice).
	Mmap bool
	// Stdin is read for the root "-".
	Stdin io.Reader
	// Lines, when set, restricts the search of each file to the lines it
	// returns (see LineFilter; standard input is searched whole).
	Lines LineFilter
}

// Binary holds the binary detection of files found by the walk (Implicit)
// and of files named as roots or read from stdin (Explicit).
type Binary struct {
	Implicit, Explicit search.BinaryMode
}

// Sink receives one worker's files. The pipeline makes one Sink per
// worker goroutine (NewSink) and uses it for one file at a time: Begin,
// then the search.Sink calls of the search, then End.
type Sink interface {
	search.Sink
	// Begin is called with each entry the walk yields, before it is
	// opened. search reports whether to search it; more whether the walk
	// goes on.
	Begin(e walker.Entry) (search, more bool)
	// End is called after a searched entry, with the error that ended its
	// search (nil when it was searched to the end). It reports whether the
	// walk goes on.
	End(e walker.Entry, err error) (more bool)
}

// Opener is implemented by a Sink that opens its files itself, for
// example to apply a path policy and to record each file's revision. The
// pipeline then reads and decodes the file Open returns exactly as a file
// it opened, except that every raw byte of it passes through tap (when
// not nil) before any decoding. The pipeline closes f.
type Opener interface {
	Open(e walker.Entry) (f File, tap Tap, err error)
}

// Tap sees the raw bytes of a file as the pipeline reads them.
// revisions.Tracker is one.
type Tap interface {
	// Reader returns a reader over r that shows the tap every byte read.
	Reader(r io.Reader) io.Reader
	// Write shows the tap bytes obtained otherwise (a mapped file).
	io.Writer
}

// worker owns the per-goroutine state of a search.
type worker struct {
	implicit, explicit *search.Searcher
	sink               Sink
	opener             Opener
}

// Run walks roots and searches every file the walk yields with m, giving
// each worker's results to a Sink made by newSink. It returns the walk's
// error (options that do not compile, such as a bad glob); problems with
// single paths go to opts.Walk.OnError or to the Sinks' End. A file whose
// error wraps walker.ErrStopTree (a line filter's source that cannot be
// read further) ends the walk after it.
func Run(roots []string, opts *Options, m search.Matcher, newSink func() Sink) error {
	pool := sync.Pool{New: func() any {
		ic, ec := opts.Search, opts.Search
		ic.Binary = opts.Binary.Implicit
		ec.Binary = opts.Binary.Explicit
		w := &worker{implicit: search.New(ic, m), explicit: search.New(ec, m), sink: newSink()}
		w.opener, _ = w.sink.(Opener)
		return w
	}}
	return walker.Walk(roots, opts.Walk, func(e walker.Entry) bool {
		w := pool.Get().(*worker)
		defer pool.Put(w)
		doSearch, more := w.sink.Begin(e)
		if !doSearch {
			return more
		}
		s := w.implicit
		if e.Explicit || e.Stdin {
			s = w.explicit
		}
		var err error
		if opts.Lines != nil && !e.Stdin {
			err = opts.searchFiltered(s, w.sink, w.opener, e)
		} else if w.opener != nil && !e.Stdin {
			err = opts.searchOpened(s, w.sink, w.opener, e)
		} else {
			err = opts.searchOne(s, w.sink, e)
		}
		return w.sink.End(e, err) && !errors.Is(err, walker.ErrStopTree)
	})
}

// Files walks roots as a search does and calls visit for every file,
// without opening any (--files, and the agent's file lists).
func Files(roots []string, opts walker.Options, visit func(walker.Entry) bool) error {
	return walker.Walk(roots, opts, visit)
}

// MmapChoice is rg's rule for memory maps: never with noMmap, always with
// mmap, and otherwise only when there are at most 10 paths and all of them
// are regular files.
func MmapChoice(paths []string, mmap, noMmap bool) bool {
	if noMmap {
		return false
	}
	if mmap {
		return true
	}
	if len(paths) > maxMmapPaths {
		return false
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// searchOne searches one entry with the reader path rg would take.
func (o *Options) searchOne(s *search.Searcher, p search.Sink, e walker.Entry) error {
	iopts := o.Input
	multiline := o.Search.Multiline
	if e.Stdin {
		rd := input.Wrap(o.Stdin, iopts)
		if multiline {
			data, err := io.ReadAll(rd)
			if err != nil {
				return osErr(err)
			}
			return s.SearchSlice(data, p)
		}
		return s.SearchReader(rd, p)
	}
	zipped := iopts.SearchZip && input.CompressionFormat(e.Path) != ""
	if (o.Mmap || multiline) && !zipped {
		// -U and --mmap: the file's bytes at once, from one open (a small
		// file read into a pooled buffer, a larger one mapped; a FIFO or
		// device read to its end).
		data, release, err := readWhole(e.Path, e.Mode.IsRegular(), o.Mmap)
		if err != nil {
			return err
		}
		defer release()
		return searchBytes(s, p, data, e.Path, iopts, multiline)
	}
	if !zipped {
		// The common case: read the descriptor directly, decoding only
		// when the head holds a BOM or a label asks for it.
		f, err := openRaw(e.Path, e.Mode.IsRegular())
		if err != nil {
			return err
		}
		defer f.release()
		r := newSniffReader(f, e.Path, iopts, o.Search.BOMPeek)
		defer r.release()
		return s.SearchReader(r, p)
	}
	rc, err := input.Open(e.Path, iopts)
	if err != nil {
		return err
	}
	defer rc.Close()
	return s.SearchReader(rc, p)
}

// searchOpened is searchOne for a file an Opener opened: the same reads
// and decoding, from the opened file, with every raw byte shown to the tap.
func (o *Options) searchOpened(s *search.Searcher, p search.Sink, op Opener, e walker.Entry) error {
	f, tap, err := op.Open(e)
	if err != nil {
		return err
	}
	defer f.Close()
	if tap == nil {
		tap = noTap{}
	}
	iopts := o.Input
	multiline := o.Search.Multiline
	zipped := iopts.SearchZip && input.CompressionFormat(e.Path) != ""
	var src io.Reader = tap.Reader(f)
	if (o.Mmap || multiline) && !zipped {
		data, release := mapOpen(f)
		if data != nil {
			defer release()
			_, _ = tap.Write(data)
		} else if data, err = io.ReadAll(src); err != nil {
			return osErr(err)
		}
		return searchBytes(s, p, data, e.Path, iopts, multiline)
	}
	if zipped {
		rc, err := input.NewReader(src, e.Path, iopts)
		if err != nil {
			return err
		}
		defer rc.Close()
		return s.SearchReader(rc, p)
	}
	r := newSniffReader(src, e.Path, iopts, o.Search.BOMPeek)
	defer r.release()
	return s.SearchReader(r, p)
}

// searchBytes searches a file's bytes, read or mapped whole: as they are
// when no BOM or label asks for decoding, else decoded (a slice for -U, a
// reader otherwise), with memory faults of a mapping turned into errors.
func searchBytes(s *search.Searcher, p search.Sink, data []byte, path string, iopts input.Options, multiline bool) error {
	if input.Raw(path, data[:min(len(data), input.HeadLen)], iopts) {
		return guardFault(func() error { return s.SearchSlice(data, p) })
	}
	rc, err := input.NewReader(bytes.NewReader(data), path, iopts)
	if err != nil {
		return err
	}
	defer rc.Close()
	if !multiline {
		return guardFault(func() error { return s.SearchReader(rc, p) })
	}
	dec, err := guardRead(rc)
	if err != nil {
		return err
	}
	return s.SearchSlice(dec, p)
}

// guardRead reads r to its end with memory faults turned into errors.
func guardRead(r io.Reader) (data []byte, err error) {
	err = guardFault(func() error {
		var e error
		data, e = io.ReadAll(r)
		return e
	})
	return data, err
}

// osErr keeps err as the cause of an error worded as rg words it.
func osErr(err error) error {
	return &oserr.Error{Err: err, Msg: input.OSErrorText(err)}
}

// noTap is the Tap of an Opener that returned none.
type noTap struct{}

func (noTap) Reader(r io.Reader) io.Reader { return r }
func (noTap) Write(p []byte) (int, error)  { return len(p), nil }

// Decode returns raw, the bytes of the file at path as read from disk, the
// way a search reads them: a byte-order mark stripped or transcoded, an -E
// label applied (opts.SearchZip is ignored: raw is not decompressed). The
// agent shows context lines from disk with it, so that they are the lines
// the search numbered. A decoding error ends the text where it occurred.
func Decode(path string, raw []byte, opts input.Options) []byte {
	opts.SearchZip = false
	if input.Raw(path, raw[:min(len(raw), input.HeadLen)], opts) {
		return raw
	}
	rc, err := input.NewReader(bytes.NewReader(raw), path, opts)
	if err != nil {
		return raw
	}
	defer rc.Close()
	dec, _ := io.ReadAll(rc)
	return dec
}
