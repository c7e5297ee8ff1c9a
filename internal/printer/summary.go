package printer

import (
	"time"

	"github.com/evgrep/evgrep/internal/search"
)

// Summary is rg's summary printer: counts, files with or without matches,
// or nothing at all (--quiet).
type Summary struct {
	w            out
	m            Matcher
	path         []byte // nil when the path is not shown
	hpath        []byte // its hyperlink path (nil: none)
	kind         SummaryKind
	matchCount   uint64
	binaryOffset int64
	start        time.Time
	stats        Stats
	track        bool // stats tracked (--stats or --count-matches)
}

// NewSummary returns a summary printer.
func NewSummary(opts *Options, m Matcher) *Summary {
	p := &Summary{m: m, kind: opts.SummaryKind}
	p.w.opts = opts
	p.track = opts.Stats || opts.SummaryKind == SummaryCountMatches
	return p
}

func (p *Summary) requiresPath() bool {
	return p.kind == SummaryPathWithMatch || p.kind == SummaryPathWithoutMatch
}

// Reset prepares the printer for a search of path.
func (p *Summary) Reset(path string) {
	p.w.reset()
	buf := p.path // reused: Reset runs for every file
	p.path, p.hpath = nil, nil
	if p.w.opts.WithFilename || p.requiresPath() {
		p.path = p.w.opts.AppendPath(buf[:0], path)
		if p.path == nil {
			p.path = []byte{}
		}
		p.hpath = p.w.opts.hyperlinkPath(path)
	}
	p.matchCount = 0
	p.binaryOffset = -1
	p.start = time.Now()
	p.stats = Stats{}
}

// Bytes returns the output of the last search.
func (p *Summary) Bytes() []byte { return p.w.buf.Bytes() }

// Stats returns the statistics of the last search.
func (p *Summary) Stats() *Stats { return &p.stats }

// MatchCount is the number of matches counted in the last search.
func (p *Summary) MatchCount() int64 { return int64(p.matchCount) }

// quitEarly reports whether the first match ends the search. Not for the
// kinds that want files without a match: rg 15 counts their lines to the
// end of the file (a NUL past the first match then still makes the file
// binary, so neither listed nor a success).
func (p *Summary) quitEarly() bool {
	return p.kind == SummaryQuiet || p.kind == SummaryPathWithMatch
}

// Matched implements search.Sink.
func (p *Summary) Matched(s *search.Searcher, m *search.Match) (bool, error) {
	multi := s.Config().Multiline
	n := uint64(1)
	if p.track || multi {
		// A look-ahead past the printer's window can hide the match the
		// searcher found; rg 15 counts at least one.
		n = max(countMatches(s, p.m, m.Buffer, m.Start, m.Start+len(m.Bytes), true), 1)
	}
	if multi {
		p.matchCount += n
	} else {
		p.matchCount++
	}
	if p.track {
		p.stats.Matches += n
		p.stats.MatchedLines += countLines(m.Bytes, s.Config().LineTerm)
	} else if p.quitEarly() {
		return false, nil
	}
	return true, nil
}

// Context implements search.Sink.
func (p *Summary) Context(*search.Searcher, *search.Context) (bool, error) {
	return true, nil
}

// ContextBreak implements search.Sink.
func (p *Summary) ContextBreak(*search.Searcher) (bool, error) { return true, nil }

// BinaryData implements search.Sink.
func (p *Summary) BinaryData(s *search.Searcher, offset int64) (bool, error) {
	p.binaryOffset = offset
	return true, nil
}

// Finish implements search.Sink.
func (p *Summary) Finish(s *search.Searcher, f *search.Finish) error {
	p.binaryOffset = f.BinaryOffset
	if p.track {
		p.stats.Elapsed = time.Since(p.start)
		p.stats.Searches = 1
		if p.matchCount > 0 {
			p.stats.SearchesWithMatch = 1
		}
		p.stats.BytesSearched = uint64(f.ByteCount)
	}
	if p.binaryOffset >= 0 && s.Config().Binary == search.BinaryQuit {
		p.matchCount = 0
		return nil
	}
	showCount := p.w.opts.IncludeZero || p.matchCount > 0
	switch p.kind {
	case SummaryCount:
		if showCount {
			p.writePathField()
			p.w.writeUint(p.matchCount)
			p.w.writeLineTerm()
		}
	case SummaryCountMatches:
		if showCount {
			p.writePathField()
			p.w.writeUint(p.stats.Matches)
			p.w.writeLineTerm()
		}
	case SummaryPathWithMatch:
		if p.matchCount > 0 {
			p.writePathLine()
		}
	case SummaryPathWithoutMatch:
		if p.matchCount == 0 {
			p.writePathLine()
		}
	}
	// rg's summary printer counts no bytes printed ("0 bytes printed").
	return nil
}

func (p *Summary) writePathField() {
	if p.path == nil {
		return
	}
	p.w.writeLinkedPath(p.w.opts.Colors.Path, p.path, p.hpath)
	if p.w.opts.NullPath {
		p.w.write([]byte{0})
	} else {
		p.w.write([]byte(":"))
	}
}

func (p *Summary) writePathLine() {
	if p.path == nil {
		return
	}
	p.w.writeLinkedPath(p.w.opts.Colors.Path, p.path, p.hpath)
	if p.w.opts.NullPath {
		p.w.write([]byte{0})
	} else {
		p.w.writeLineTerm()
	}
}
