package pipeline

import (
	"bytes"
	"errors"
	"io"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/walker"
)

// TreeSink is implemented by a Sink that wants the bytes of each file of
// a tree search before they are searched (the agent records their
// revision). The bytes are the file's raw content; they must not be kept.
type TreeSink interface {
	TreeFile(e walker.Entry, raw []byte)
}

// RunTree is Run over a walker.Tree (a Git commit's tree, package gitrev)
// instead of the file system: walker.WalkTree chooses the files with the
// rules of opts.Walk, each file's bytes come from t.ReadFile, and they
// are decoded, decompressed (-z) and searched as Run searches a file it
// reads without a memory map (the whole file with Mmap or Multiline).
// It is Run's seam for sources that are not files: one goroutine walks
// and searches, in the tree's order, so the output order is the tree's
// (git grep's). A Sink's Opener is not used, there being no file to
// open; a TreeSink gets the bytes. A file that cannot be read (a blob
// over gitrev's size bound) ends with that error in Sink.End; one whose
// error wraps walker.ErrStopTree ends the walk after it.
func RunTree(t walker.Tree, roots []string, opts *Options, m search.Matcher, newSink func() Sink) error {
	ic, ec := opts.Search, opts.Search
	ic.Binary = opts.Binary.Implicit
	ec.Binary = opts.Binary.Explicit
	implicit, explicit := search.New(ic, m), search.New(ec, m)
	sink := newSink()
	ts, _ := sink.(TreeSink)
	return walker.WalkTree(t, roots, opts.Walk, func(e walker.Entry, treePath string) bool {
		doSearch, more := sink.Begin(e)
		if !doSearch {
			return more
		}
		s := implicit
		if e.Explicit || e.Stdin {
			s = explicit
		}
		var err error
		if e.Stdin {
			err = opts.searchOne(s, sink, e)
			return sink.End(e, err)
		}
		data, err := t.ReadFile(treePath)
		if err == nil {
			if ts != nil {
				ts.TreeFile(e, data)
			}
			err = opts.searchBytes(s, sink, e.Path, data)
		}
		return sink.End(e, err) && !errors.Is(err, walker.ErrStopTree)
	})
}

// searchBytes searches the raw bytes of a file held in memory as
// searchOne searches a file read from disk.
func (o *Options) searchBytes(s *search.Searcher, p search.Sink, path string, data []byte) error {
	iopts := o.Input
	zipped := iopts.SearchZip && input.CompressionFormat(path) != ""
	if zipped {
		rc, err := input.NewReader(bytes.NewReader(data), path, iopts)
		if err != nil {
			return err
		}
		defer rc.Close()
		if o.Search.Multiline {
			dec, err := io.ReadAll(rc)
			if err != nil {
				return err
			}
			return s.SearchSlice(dec, p)
		}
		return s.SearchReader(rc, p)
	}
	if o.Mmap || o.Search.Multiline {
		if input.Raw(path, data[:min(len(data), input.HeadLen)], iopts) {
			return s.SearchSlice(data, p)
		}
		rc, err := input.NewReader(bytes.NewReader(data), path, iopts)
		if err != nil {
			return err
		}
		defer rc.Close()
		if !o.Search.Multiline {
			return s.SearchReader(rc, p)
		}
		dec, err := io.ReadAll(rc)
		if err != nil {
			return err
		}
		return s.SearchSlice(dec, p)
	}
	r := newSniffReader(bytes.NewReader(data), path, iopts, o.Search.BOMPeek)
	defer r.release()
	return s.SearchReader(r, p)
}

// FilesTree is Files over a walker.Tree (--files with --rev).
func FilesTree(t walker.Tree, roots []string, opts walker.Options, visit func(walker.Entry) bool) error {
	return walker.WalkTree(t, roots, opts, func(e walker.Entry, _ string) bool { return visit(e) })
}
