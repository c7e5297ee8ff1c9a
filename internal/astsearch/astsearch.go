// Package astsearch runs a structural search (package structural) over
// files found and read by the one pipeline (internal/pipeline): the
// pattern's literal tokens prefilter files with the existing matcher
// before any parse, the files that can match are parsed in the pipeline's
// parallel workers (through the syntax package's tree cache), and each
// file's matches go to the caller together with the bytes and revision
// they came from. Files that are not UTF-8 text are passed over, as
// ast-grep does. It prints nothing and knows no flags.
package astsearch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/oserr"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/progress"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/structural"
	"github.com/evgrep/evgrep/syntax"
	"github.com/evgrep/evgrep/walker"
)

// Options are one structural search.
type Options struct {
	// Roots are the paths searched.
	Roots []string
	// Walk selects the files (rg's discovery rules). Files found in
	// directories are searched only when their extension is the
	// language's; files named as roots always are.
	Walk walker.Options
	// Lang is the language of the files; Matcher what is looked for.
	Lang    *structural.Lang
	Matcher structural.Matcher
	// Rules, when set, are matched in place of Matcher (rules of Lang),
	// each match carrying its rule's id.
	Rules []*structural.Rule
	// Literals must all occur in a file for it to be parsed (the
	// pattern's named tokens); the first one is searched by the pipeline.
	Literals []string
	// Skip, when set, passes over an entry before it is opened (the
	// agent's path policy).
	Skip func(walker.Entry) bool
	// Open, when set, opens a file in place of os.Open (the agent's
	// link-free, checked open).
	Open func(path string) (*os.File, error)
	// Read, when set, is called (under the same lock as each) for every
	// file read whole, with the revision read.
	Read func(path string, rev revisions.Revision)
}

// File is the outcome for one file that was parsed.
type File struct {
	// Path is the path as the walk yielded it.
	Path string
	// Src is the file's bytes as read; Tree its parse (nil on error).
	Src  []byte
	Tree *syntax.Tree
	// Rev is the revision the bytes came from.
	Rev revisions.Revision
	// Matches are the structural matches, in source order.
	Matches []structural.Match
	// Err is a parse or matching error of this file (matches found
	// before it are kept), or ErrTooLarge (Src and Tree nil).
	Err error
}

// ErrTooLarge is the error of a file that may match but is larger than
// package syntax parses (syntax.MaxSource): it is reported, not searched.
var ErrTooLarge = errors.New("file too large for a structural search")

// Stats count the work of one search.
type Stats struct {
	// Seen counts the files of the language the walk yielded, Read the
	// files read whole, Parsed the ones that passed the prefilter.
	Seen, Read, Parsed int64
}

// Run searches and calls each for every parsed file with at least one
// match or an error, from the pipeline's workers (each is called from
// one goroutine at a time, under a lock). The error is the walk's
// (options that do not compile); per-file read errors go to
// opts.Walk.OnError. ctx is polled before each file: once it is
// cancelled the walk stops and Run returns ctx's error.
func Run(ctx context.Context, o *Options, each func(*File)) (Stats, error) {
	mo := matcher.Options{CRLF: true, LineTerminator: '\n', Fixed: true}
	if len(o.Literals) > 0 {
		mo.Patterns = []string{o.Literals[0]}
	}
	m, err := matcher.Compile(mo)
	if err != nil {
		return Stats{}, err
	}
	popts := &pipeline.Options{
		Walk:   o.Walk,
		Search: search.Config{LineTerm: '\n', CRLF: true},
		Binary: pipeline.Binary{Implicit: search.BinaryQuit, Explicit: search.BinaryQuit},
	}
	r := &run{ctx: ctx, o: o, each: each}
	err = pipeline.Run(o.Roots, popts, m, func() pipeline.Sink { return &sink{r: r} })
	if err == nil && r.stopped.Load() {
		err = ctx.Err()
	}
	return Stats{Seen: r.seen.Load(), Read: r.read.Load(), Parsed: r.parsed.Load()}, err
}

// run is what the workers of one search share.
type run struct {
	ctx                context.Context
	o                  *Options
	each               func(*File)
	mu                 sync.Mutex
	seen, read, parsed atomic.Int64
	stopped            atomic.Bool
}

// sink is one worker's pipeline.Sink and pipeline.Opener.
type sink struct {
	r   *run
	hit bool
	tap *revisions.Tap
}

// Begin implements pipeline.Sink.
func (s *sink) Begin(e walker.Entry) (bool, bool) {
	o := s.r.o
	if s.r.stopped.Load() {
		return false, false
	}
	if progress.Cancelled(s.r.ctx) {
		s.r.stopped.Store(true)
		return false, false
	}
	if e.Stdin || (!e.Explicit && !o.Lang.HasFile(e.Path)) || (o.Skip != nil && o.Skip(e)) {
		return false, true
	}
	s.r.seen.Add(1)
	s.hit, s.tap = false, nil
	return true, true
}

// Open implements pipeline.Opener: the file's bytes are captured as the
// pipeline reads them, and its revision is tracked.
func (s *sink) Open(e walker.Entry) (pipeline.File, pipeline.Tap, error) {
	if s.r.o.Open == nil && e.Mode.IsRegular() {
		// A walked regular file: a bare descriptor (pipeline.OpenRegular).
		f, fi, err := pipeline.OpenRegular(e.Path)
		if err != nil {
			return nil, nil, oserr.Wrap(err)
		}
		// The bytes of a file of at most syntax.MaxSource are kept to parse.
		s.tap = revisions.NewTapStat(f, fi, syntax.MaxSource, nil)
		return f, s.tap, nil
	}
	open := s.r.o.Open
	if open == nil {
		open = os.Open
	}
	f, err := open(e.Path)
	if err != nil {
		return nil, nil, oserr.Wrap(err)
	}
	c, err := revisions.NewTap(f, syntax.MaxSource, nil)
	if err != nil {
		f.Close()
		return nil, nil, oserr.Wrap(err)
	}
	s.tap = c
	return f, c, nil
}

// End implements pipeline.Sink: a file read whole that holds every
// literal is parsed and matched.
func (s *sink) End(e walker.Entry, err error) bool {
	c := s.tap
	s.tap = nil
	if err != nil || c == nil {
		return !s.r.stopped.Load()
	}
	rev := c.Finish()
	o := s.r.o
	size := c.Identity().Size
	if size > syntax.MaxSource && c.BytesRead() == size && (len(o.Literals) == 0 || s.hit) {
		// Read whole (text), and it may match: too large to parse,
		// which is said, never passed over in silence.
		s.r.mu.Lock()
		s.r.each(&File{Path: e.Path, Rev: rev, Err: fmt.Errorf("%w (%d bytes, over the %d MiB parse limit); not searched", ErrTooLarge, size, syntax.MaxSource>>20)})
		s.r.mu.Unlock()
		return true
	}
	if !c.Whole() {
		// Stopped early (a NUL byte: binary), or too large and holding
		// no literal of the pattern.
		return true
	}
	s.r.read.Add(1)
	if o.Read != nil {
		s.r.mu.Lock()
		o.Read(e.Path, rev)
		s.r.mu.Unlock()
	}
	if len(o.Literals) > 0 && !s.hit {
		return true
	}
	for _, lit := range o.Literals[min(1, len(o.Literals)):] {
		if !bytes.Contains(c.Bytes(), []byte(lit)) {
			return true
		}
	}
	if !utf8.Valid(c.Bytes()) {
		// ast-grep reads sources as UTF-8 text and passes over the rest.
		return true
	}
	s.r.parsed.Add(1)
	f := &File{Path: e.Path, Src: c.Bytes(), Rev: rev}
	f.Tree, f.Err = o.Lang.ParseFile(e.Path, c.Bytes())
	if f.Err == nil {
		if o.Rules != nil {
			f.Matches, f.Err = structural.FindRules(f.Tree, o.Rules)
		} else {
			f.Matches, f.Err = structural.FindAll(f.Tree, o.Matcher)
		}
	}
	if len(f.Matches) == 0 && f.Err == nil {
		return true
	}
	s.r.mu.Lock()
	s.r.each(f)
	s.r.mu.Unlock()
	return true
}

// Matched implements search.Sink: the prefilter literal occurs.
func (s *sink) Matched(*search.Searcher, *search.Match) (bool, error) {
	s.hit = true
	return true, nil
}

// Context implements search.Sink.
func (s *sink) Context(*search.Searcher, *search.Context) (bool, error) { return true, nil }

// ContextBreak implements search.Sink.
func (s *sink) ContextBreak(*search.Searcher) (bool, error) { return true, nil }

// BinaryData implements search.Sink.
func (s *sink) BinaryData(*search.Searcher, int64) (bool, error) { return true, nil }

// Finish implements search.Sink.
func (s *sink) Finish(*search.Searcher, *search.Finish) error { return nil }
