package app

import (
	"errors"
	"sync/atomic"

	"github.com/evgrep/evgrep/internal/cli"
	"github.com/evgrep/evgrep/internal/printer"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/walker"
)

// filePrinter is the common face of the three printers.
type filePrinter interface {
	search.Sink
	Reset(path string)
	Bytes() []byte
	Stats() *printer.Stats
	MatchCount() int64
}

// printSink is a search worker's printer and its per-file bookkeeping.
type printSink struct {
	filePrinter
	r        *run
	searched *atomic.Bool
	spilled  bool // part of this file's output is written
	// sequential: one search at a time (rg's single-threaded search,
	// whose printer writes straight to stdout).
	sequential bool
}

// Begin implements pipeline.Sink.
func (p *printSink) Begin(e walker.Entry) (bool, bool) {
	p.searched.Store(true)
	r := p.r
	if r.quit.Load() {
		return false, false
	}
	if r.quitSearch.Load() {
		// -q found a match: search no more, but let the walk report
		// the remaining paths' errors as rg does.
		return false, true
	}
	p.Reset(r.displayPath(e))
	p.spilled = false
	return true, true
}

// End implements pipeline.Sink.
func (p *printSink) End(e walker.Entry, err error) bool {
	r, cfg := p.r, p.r.cfg
	if errors.Is(err, errStdoutGone) {
		return false // as rg: the search that hit the closed pipe ends the run quietly
	}
	if err != nil {
		if p.spilled {
			r.emit(p.Bytes(), false)
		} else if r.keepsPartialOutput(err) {
			r.emit(p.Bytes(), cfg.Output == cli.OutputStandard)
		}
		r.message("%s: %s", r.displayPath(e), err)
		return !r.quit.Load()
	}
	hasMatch := p.MatchCount() > 0
	if cfg.SuccessWithoutMatch {
		// rg reports success when a file had no match (printed or, with
		// -q, not: rg 15).
		hasMatch = !hasMatch
	}
	if !p.sequential {
		// rg's parallel search counts a file's match before it prints
		// the file's output.
		p.record(hasMatch)
	}
	r.emit(p.Bytes(), cfg.Output == cli.OutputStandard && !p.spilled)
	if p.sequential && !r.pipeClosed() {
		// One search at a time, rg's printer writes to stdout as it
		// searches: a search that hits the closed pipe fails, and its
		// match does not count (`evgrep -n '' FILE | head -1` exits 1).
		p.record(hasMatch)
	}
	return !r.quit.Load()
}

// errStdoutGone ends a search once a write to stdout failed (End takes
// it for the end of the run, not for an error of the file).
var errStdoutGone = errors.New("stdout is gone")

// Matched implements search.Sink: once stdout is gone (a closed pipe)
// the search stops, as rg's does at the write that fails.
func (p *printSink) Matched(s *search.Searcher, m *search.Match) (bool, error) {
	if p.r.quit.Load() {
		return false, errStdoutGone
	}
	return p.filePrinter.Matched(s, m)
}

// Context implements search.Sink, as Matched.
func (p *printSink) Context(s *search.Searcher, c *search.Context) (bool, error) {
	if p.r.quit.Load() {
		return false, errStdoutGone
	}
	return p.filePrinter.Context(s, c)
}

// record counts the file's match and statistics.
func (p *printSink) record(hasMatch bool) {
	r, cfg := p.r, p.r.cfg
	if hasMatch {
		r.matched.Store(true)
		if cfg.Quiet && !cfg.Printer.Stats {
			r.quitSearch.Store(true)
		}
	}
	if cfg.Printer.Stats {
		r.statsMu.Lock()
		r.stats.Add(p.Stats())
		r.statsMu.Unlock()
	}
}

// pipeClosed reports whether a write to stdout failed on a closed pipe.
func (r *run) pipeClosed() bool {
	r.outMu.Lock()
	defer r.outMu.Unlock()
	return isBrokenPipe(r.outErr)
}
