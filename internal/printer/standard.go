package printer

import (
	"bytes"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/search"
)

// Standard is rg's grep-like printer for one file at a time. Reset it with
// a path before each search; its output is collected in Bytes().
type Standard struct {
	w        out
	m        Matcher
	path     []byte // nil when paths are not shown
	matches  []Range
	repl     []byte
	replRngs []Range
	// per search
	matchCount   int64
	binaryOffset int64
	start        time.Time
	stats        Stats
	needMatches  bool
	listMatches  bool     // a match line's matches are printed, not only counted
	one          [1]Range // the range of one -o occurrence
	// sunk are the matches of the line being printed (after -r).
	sunk []Range
	// hpath is the file's hyperlink path (nil: no hyperlinks).
	hpath   []byte
	scratch []byte
}

// NewStandard returns a standard printer.
func NewStandard(opts *Options, m Matcher) *Standard {
	p := &Standard{m: m}
	p.w.opts = opts
	p.listMatches = (opts.Color && !opts.Colors.Match.IsNone()) || opts.HyperlinksOn() || opts.Column || opts.HasReplacement || opts.PerMatch || opts.OnlyMatching
	p.needMatches = p.listMatches || opts.Stats
	return p
}

// Reset prepares the printer for a search of path.
func (p *Standard) Reset(path string) {
	p.w.reset()
	p.hpath = nil
	if p.w.opts.WithFilename {
		// Into the previous file's buffer: Reset runs for every file.
		p.path = p.w.opts.AppendPath(p.path[:0], path)
		if p.path == nil {
			p.path = []byte{}
		}
		p.hpath = p.w.opts.hyperlinkPath(path)
	} else {
		p.path = nil
	}
	p.matchCount = 0
	p.binaryOffset = -1
	p.start = time.Now()
	p.stats = Stats{}
}

// SetSpill hands the output to fn whenever more than SpillBytes of it
// are held, for a caller that may write a file's output before the search
// of that file is done (one search at a time); Bytes is then what is left.
// A nil fn holds the whole output.
func (p *Standard) SetSpill(fn func([]byte)) { p.w.buf.SetSpill(SpillBytes, fn) }

// Bytes returns the output of the last search.
func (p *Standard) Bytes() []byte { return p.w.buf.Bytes() }

// Stats returns the statistics of the last search.
func (p *Standard) Stats() *Stats { return &p.stats }

// MatchCount is the number of matches reported in the last search.
func (p *Standard) MatchCount() int64 { return p.matchCount }

func (p *Standard) opts() *Options { return p.w.opts }

// Matched implements search.Sink.
func (p *Standard) Matched(s *search.Searcher, m *search.Match) (bool, error) {
	p.matchCount++
	start, end := m.Start, m.Start+len(m.Bytes)
	// A preview without colour counts the line's matches (rg), which the
	// streaming -o path does not keep.
	preview := p.opts().MaxColumns > 0 && p.opts().MaxColumnsPreview
	if p.opts().OnlyMatching && !p.opts().HasReplacement && !s.Config().Multiline && !preview &&
		!(s.Config().Binary == search.BinaryConvert && p.binaryOffset >= 0) {
		p.onlyMatching(s, m)
		return true, nil
	}
	p.matches = p.matches[:0]
	// With --stats alone rg lists them too, but only -M's preview ("N
	// more matches") and multiline blocks print differently for it.
	list := p.listMatches || p.opts().Stats && (p.opts().MaxColumns > 0 || s.Config().Multiline)
	if list {
		p.matches = findMatches(s, p.m, m.Buffer, start, end, true, p.matches)
	}
	hasRepl := p.replace(s, m.Buffer, start, end, true)
	if p.opts().Stats {
		if list {
			p.stats.Matches += uint64(len(p.matches))
		} else {
			// Counted, not listed: nothing else needs them.
			p.stats.Matches += countMatches(s, p.m, m.Buffer, start, end, true)
		}
		p.stats.MatchedLines += countLines(m.Bytes, s.Config().LineTerm)
	}
	if s.Config().Binary == search.BinaryConvert && p.binaryOffset >= 0 {
		return false, nil
	}
	p.sink(s, m.Bytes, m.AbsOffset, m.LineNumber, false, hasRepl)
	return true, nil
}

// onlyMatching prints a match line's occurrences as -o does (sink's
// OnlyMatching case) as they are found: a huge line of a billion
// occurrences lists none of them in memory.
func (p *Standard) onlyMatching(s *search.Searcher, m *search.Match) {
	p.writeSearchPrelude()
	p.sunk = nil
	hayEnd := max(m.Start, trimTerm(s, m.Buffer[:m.Start+len(m.Bytes)]))
	var n uint64
	end := m.Start + len(m.Bytes)
	p.m.EachOccurrenceIn(m.Buffer, m.Start, hayEnd, func(r Range) bool {
		if pastLine(r, m.Start, hayEnd, end) {
			return true
		}
		n++
		p.writePrelude(m.AbsOffset+int64(r.Start), m.LineNumber, 0, uint64(r.Start)+1, false)
		b := m.Bytes[r.Start:r.End]
		p.one[0] = Range{Start: 0, End: len(b)}
		// nOrig only tells the long-line notes apart, and -o has one.
		p.writeColoredLine(p.one[:], b, false, 1)
		return true
	})
	if n == 0 {
		p.writePrelude(m.AbsOffset, m.LineNumber, 0, 0, false)
		p.writeLine(m.Bytes, nil, false, 0)
	}
	if p.opts().Stats {
		p.stats.Matches += n
		p.stats.MatchedLines += countLines(m.Bytes, s.Config().LineTerm)
	}
}

// Context implements search.Sink.
func (p *Standard) Context(s *search.Searcher, c *search.Context) (bool, error) {
	p.matches = p.matches[:0]
	hasRepl := false
	if s.Config().Invert {
		if p.needMatches {
			p.matches = findMatches(s, p.m, c.Bytes, 0, len(c.Bytes), false, p.matches)
		}
		hasRepl = p.replace(s, c.Bytes, 0, len(c.Bytes), false)
	}
	if s.Config().Binary == search.BinaryConvert && p.binaryOffset >= 0 {
		return false, nil
	}
	p.sink(s, c.Bytes, c.AbsOffset, c.LineNumber, true, hasRepl)
	return true, nil
}

// ContextBreak implements search.Sink.
func (p *Standard) ContextBreak(s *search.Searcher) (bool, error) {
	if sep := p.opts().ContextSeparator; sep != nil {
		p.w.write(sep)
		p.w.writeLineTerm()
	}
	return true, nil
}

// BinaryData implements search.Sink.
func (p *Standard) BinaryData(s *search.Searcher, offset int64) (bool, error) {
	p.binaryOffset = offset
	return true, nil
}

// Finish implements search.Sink.
func (p *Standard) Finish(s *search.Searcher, f *search.Finish) error {
	if p.binaryOffset >= 0 && p.matchCount > 0 {
		if p.path != nil {
			p.w.writeLinkedPath(p.opts().Colors.Path, p.path, p.hpath)
			p.w.writeString(": ")
		}
		switch s.Config().Binary {
		case search.BinaryQuit:
			fmt.Fprintf(&p.w.buf, "WARNING: stopped searching binary file after match (found \"\\0\" byte around offset %d)\n", p.binaryOffset)
		case search.BinaryConvert:
			fmt.Fprintf(&p.w.buf, "binary file matches (found \"\\0\" byte around offset %d)\n", p.binaryOffset)
		}
	}
	if p.opts().Stats {
		p.stats.Elapsed = time.Since(p.start)
		p.stats.Searches = 1
		if p.matchCount > 0 {
			p.stats.SearchesWithMatch = 1
		}
		p.stats.BytesSearched = uint64(f.ByteCount)
		p.stats.BytesPrinted = p.w.printed()
	}
	return nil
}

// replace computes the replaced line when -r is given.
func (p *Standard) replace(s *search.Searcher, buf []byte, start, end int, multi bool) bool {
	if !p.opts().HasReplacement {
		return false
	}
	// In a multiline block the pattern sees the look-ahead window past
	// the block, but (rg 15) only the matches that start inside the block
	// are replaced, and nothing past the block is printed.
	hayEnd := min(len(buf), end+multilineLookAhead)
	if !s.Config().Multiline || !multi {
		hayEnd = max(start, trimTerm(s, buf[:end]))
	}
	if cr, ok := p.m.(contextReplacer); ok {
		p.repl, p.replRngs = cr.ReplaceIn(p.repl[:0], buf[:hayEnd], start, end, p.opts().Replacement, p.replRngs[:0])
		if !s.Config().Multiline || !multi {
			p.repl = append(p.repl, buf[hayEnd:end]...)
		}
		return true
	}
	hay := buf[start:hayEnd]
	p.repl, p.replRngs = p.m.Replace(p.repl[:0], hay, p.opts().Replacement, p.replRngs[:0])
	if !s.Config().Multiline || !multi {
		if n := len(p.replRngs); n > len(p.matches) && n > 0 && hayEnd == end && p.replRngs[n-1].End == len(p.repl) {
			// The empty match at the end of a last line without a
			// terminator is not one (pastLine): nothing replaces it.
			p.repl, p.replRngs = p.repl[:p.replRngs[n-1].Start], p.replRngs[:n-1]
		}
		// rg 15 keeps the line's own terminator after the replaced text
		// ("\n" stays "\n" with --crlf when printed without colour).
		p.repl = append(p.repl, buf[hayEnd:end]...)
	}
	if s.Config().Multiline && multi {
		k, blockLen := len(p.matches), end-start
		if k <= len(p.replRngs) {
			cut, from := 0, 0
			if k > 0 {
				cut, from = p.replRngs[k-1].End, p.matches[k-1].End
			}
			p.repl = p.repl[:cut]
			if from < blockLen {
				p.repl = append(p.repl, hay[from:blockLen]...)
			}
			p.replRngs = p.replRngs[:k]
		}
	}
	return true
}

// contextReplacer is a Matcher whose replacements see the buffer around
// the line or block (PCRE2's look-behind), as rg 15's replacer does:
// ReplaceIn searches hay from start, replaces the matches that start
// before end (the line's or block's end, terminator included: an empty
// match at the end of a line's text counts) and returns
// hay[start:min(end, len(hay))] so replaced.
type contextReplacer interface {
	ReplaceIn(dst, hay []byte, start, end int, template []byte, ranges []Range) ([]byte, []Range)
}

// sink prints one match or context line (or block).
func (p *Standard) sink(s *search.Searcher, bytes []byte, absOffset int64, lineNo uint64, isCtx, hasRepl bool) {
	p.writeSearchPrelude()
	matches := p.matches
	original := p.matches
	if hasRepl {
		bytes = p.repl
		matches = p.replRngs
	}
	p.sunk = matches
	multi := s.Config().Multiline && !isCtx
	if len(matches) == 0 {
		if multi {
			term := s.Config().LineTerm
			off := absOffset
			i := uint64(0)
			for ls := 0; ls < len(bytes); i++ {
				le := lineEndIn(bytes, ls, term)
				p.writePrelude(off, lineNo, i, 0, isCtx)
				off += int64(le - ls)
				p.writeLine(bytes[ls:le], nil, isCtx, len(original))
				ls = le
			}
			return
		}
		p.writePrelude(absOffset, lineNo, 0, 0, isCtx)
		p.writeLine(bytes, nil, isCtx, len(original))
		return
	}
	if multi {
		p.sinkSlowMulti(s, bytes, absOffset, lineNo, matches, len(original))
		return
	}
	switch {
	case p.opts().OnlyMatching:
		for _, m := range matches {
			p.writePrelude(absOffset+int64(m.Start), lineNo, 0, uint64(m.Start)+1, isCtx)
			b := bytes[m.Start:m.End]
			p.writeColoredLine([]Range{{Start: 0, End: len(b)}}, b, isCtx, len(original))
		}
	case p.opts().PerMatch:
		for _, m := range matches {
			p.writePrelude(absOffset+int64(m.Start), lineNo, 0, uint64(m.Start)+1, isCtx)
			p.writeColoredLine([]Range{m}, bytes, isCtx, len(original))
		}
	default:
		p.writePrelude(absOffset, lineNo, 0, uint64(matches[0].Start)+1, isCtx)
		p.writeColoredLine(matches, bytes, isCtx, len(original))
	}
}

func (p *Standard) sinkSlowMulti(s *search.Searcher, bytes []byte, absOffset int64, lineNo uint64, matches []Range, nOrig int) {
	term := s.Config().LineTerm
	spec := p.opts().Colors.Match
	switch {
	case p.opts().OnlyMatching:
		midx := 0
		count := uint64(0)
		for ls := 0; ls < len(bytes); count++ {
			le := lineEndIn(bytes, ls, term)
			line := Range{Start: ls, End: le}
			ls = le
			if p.hasTerm(bytes[line.Start:line.End]) {
				line.End--
			}
			if p.opts().Trim {
				line = trimPrefix(bytes, line)
			}
			for line.Start < line.End {
				if matches[midx].End <= line.Start {
					if midx+1 < len(matches) {
						midx++
						continue
					}
					break
				}
				m := matches[midx]
				if line.Start < m.Start {
					line.Start = min(line.End, m.Start)
				} else {
					upto := min(line.End, m.End)
					p.writePrelude(absOffset+int64(m.Start), lineNo, count, uint64(m.Start)+1, false)
					this := Range{Start: line.Start, End: upto}
					line.Start = upto
					if p.exceeds(bytes[this.Start:this.End]) {
						p.writeExceeded(bytes, this, matches, &midx, false, nOrig)
					} else {
						p.w.writeSpec(spec, bytes[this.Start:this.End])
						p.w.writeLineTerm()
					}
				}
			}
		}
	case p.opts().PerMatch:
		for _, m := range matches {
			count := uint64(0)
			for ls := 0; ls < len(bytes); {
				le := lineEndIn(bytes, ls, term)
				line := Range{Start: ls, End: le}
				ls = le
				if line.Start >= m.End {
					break
				} else if line.End <= m.Start {
					count++
					continue
				}
				col := 0
				if m.Start > line.Start {
					col = m.Start - line.Start
				}
				p.writePrelude(absOffset+int64(line.Start), lineNo, count, uint64(col)+1, false)
				count++
				line = p.trimLead(bytes, line)
				if p.exceeds(bytes[line.Start:line.End]) {
					zero := 0
					p.writeExceeded(bytes, line, []Range{m}, &zero, false, nOrig)
					continue
				}
				if p.hasTerm(bytes[line.Start:line.End]) {
					line.End--
				}
				if p.opts().Trim {
					line = trimPrefix(bytes, line)
				}
				for line.Start < line.End {
					if m.End <= line.Start {
						p.w.write(bytes[line.Start:line.End])
						line.Start = line.End
					} else if line.Start < m.Start {
						upto := min(line.End, m.Start)
						p.w.write(bytes[line.Start:upto])
						line.Start = upto
					} else {
						upto := min(line.End, m.End)
						p.w.writeSpec(spec, bytes[line.Start:upto])
						line.Start = upto
					}
				}
				p.w.writeLineTerm()
				break // vimgrep shows one line per match
			}
		}
	default:
		midx := 0
		count := uint64(0)
		for ls := 0; ls < len(bytes); {
			le := lineEndIn(bytes, ls, term)
			line := Range{Start: ls, End: le}
			ls = le
			p.writePrelude(absOffset+int64(line.Start), lineNo, count, uint64(matches[0].Start)+1, false)
			count++
			line = p.trimLead(bytes, line)
			if p.exceeds(bytes[line.Start:line.End]) {
				p.writeExceeded(bytes, line, matches, &midx, false, nOrig)
				continue
			}
			p.writeColoredMatches(bytes, line, matches, &midx)
			p.w.writeLineTerm()
		}
	}
}

func (p *Standard) hasTerm(b []byte) bool {
	lt := p.opts().LineTerm
	return len(b) > 0 && b[len(b)-1] == lt[len(lt)-1]
}

// writeSearchPrelude prints the heading of a file before its first line.
func (p *Standard) writeSearchPrelude() {
	if p.w.buf.Written() > 0 {
		return
	}
	if p.opts().Heading && p.path != nil {
		p.w.writeLinkedPath(p.opts().Colors.Path, p.path, p.hpath)
		if p.opts().NullPath {
			p.w.write([]byte{0})
		} else {
			p.w.writeLineTerm()
		}
	}
}

// writePrelude writes the fields before a line: path, line number,
// column, byte offset, each followed by its separator. With hyperlinks
// (rg 15) a link spans them all but the last separator, and is written
// whenever the file's path is shown (in a heading too).
func (p *Standard) writePrelude(absOffset int64, lineNo, lineDelta, column uint64, isCtx bool) {
	sep := p.opts().FieldMatchSep
	if isCtx {
		sep = p.opts().FieldContextSep
	}
	var pending []byte // the separator owed before the next field
	field := func(spec Spec, b []byte, after []byte) {
		p.w.write(pending)
		p.w.writeSpec(spec, b)
		pending = after
	}
	// Under a heading, a line gets a link of its own only when the format
	// names the line (else the heading's link says it all).
	link := p.hpath != nil && (!p.opts().Heading || p.opts().Hyperlink.usesLine)
	if link {
		line := uint64(0)
		if lineNo > 0 {
			line = lineNo + lineDelta
		}
		p.scratch = p.opts().Hyperlink.appendOpen(p.scratch[:0], p.hpath, line, column)
		p.w.writeEsc(string(p.scratch))
	}
	if !p.opts().Heading && p.path != nil {
		after := sep
		if p.opts().NullPath {
			after = []byte{0}
		}
		field(p.opts().Colors.Path, p.path, after)
	}
	if lineNo > 0 {
		field(p.opts().Colors.Line, strconv.AppendUint(p.scratch[:0], lineNo+lineDelta, 10), sep)
	}
	if column > 0 && p.opts().Column {
		field(p.opts().Colors.Column, strconv.AppendUint(p.scratch[:0], column, 10), sep)
	}
	if p.opts().ByteOffset {
		field(p.opts().Colors.Column, strconv.AppendInt(p.scratch[:0], absOffset, 10), sep)
	}
	if link {
		p.w.writeEsc(hyperlinkClose)
	}
	p.w.write(pending)
}

func (p *Standard) exceeds(line []byte) bool {
	return p.opts().MaxColumns > 0 && len(line) > p.opts().MaxColumns
}

func (p *Standard) writeLine(line []byte, matches []Range, isCtx bool, nOrig int) {
	// rg 15 trims before it measures the line against -M.
	line = line[p.trimLead(line, Range{Start: 0, End: len(line)}).Start:]
	if p.exceeds(line) {
		zero := 0
		p.writeExceeded(line, Range{Start: 0, End: len(line)}, matches, &zero, isCtx, nOrig)
		return
	}
	p.w.write(line)
	if !p.hasTerm(line) {
		p.w.writeLineTerm()
	}
}

// trimLead drops the ASCII whitespace that starts b[r] with --trim, but
// not a line terminator.
func (p *Standard) trimLead(b []byte, r Range) Range {
	if !p.opts().Trim {
		return r
	}
	lt := p.opts().LineTerm
	for r.Start < r.End && bytes.IndexByte(lt, b[r.Start]) < 0 {
		switch b[r.Start] {
		case '\t', '\n', '\v', '\f', '\r', ' ':
			r.Start++
			continue
		}
		break
	}
	return r
}

// lenTerm is the length of the line terminator that ends line (0 if none).
func lenTerm(p *Standard, line []byte) int {
	if !p.hasTerm(line) {
		return 0
	}
	if lt := p.opts().LineTerm; len(lt) == 2 && len(line) >= 2 && line[len(line)-2] == '\r' {
		return 2
	}
	return 1
}

func (p *Standard) writeColoredLine(matches []Range, b []byte, isCtx bool, nOrig int) {
	if !p.opts().Color || p.opts().Colors.Match.IsNone() {
		// As rg: without colour the line is written plainly, and a
		// preview counts the line's own matches.
		p.writeLine(b, p.sunk, isCtx, nOrig)
		return
	}
	line := p.trimLead(b, Range{Start: 0, End: len(b)})
	if p.exceeds(b[line.Start:line.End]) {
		zero := 0
		p.writeExceeded(b, line, matches, &zero, isCtx, nOrig)
		return
	}
	zero := 0
	p.writeColoredMatches(b, line, matches, &zero)
	p.w.writeLineTerm()
}

func (p *Standard) writeColoredMatches(b []byte, line Range, matches []Range, midx *int) {
	line.End -= lenTerm(p, b[line.Start:line.End])
	if p.opts().Trim {
		line = trimPrefix(b, line)
	}
	if len(matches) == 0 {
		p.w.write(b[line.Start:line.End])
		return
	}
	spec := p.opts().Colors.Match
	inColor := false
	for line.Start < line.End {
		if matches[*midx].End <= line.Start {
			if *midx+1 < len(matches) {
				*midx++
				continue
			}
			if inColor {
				p.w.writeEsc(colorReset)
				inColor = false
			}
			p.w.write(b[line.Start:line.End])
			break
		}
		m := matches[*midx]
		if line.Start < m.Start {
			upto := min(line.End, m.Start)
			if inColor {
				p.w.writeEsc(colorReset)
				inColor = false
			}
			p.w.write(b[line.Start:upto])
			line.Start = upto
		} else {
			upto := min(line.End, m.End)
			if !inColor && p.opts().Color && !spec.IsNone() {
				p.w.writeEsc(spec.Start())
				inColor = true
			}
			p.w.write(b[line.Start:upto])
			line.Start = upto
		}
	}
	if inColor {
		p.w.writeEsc(colorReset)
	}
}

func (p *Standard) writeExceeded(b []byte, line Range, matches []Range, midx *int, isCtx bool, nOrig int) {
	if p.opts().MaxColumnsPreview {
		original := line
		end := line.Start
		n := 0
		for i := line.Start; i < line.End && n < p.opts().MaxColumns; n++ {
			_, size := utf8.DecodeRune(b[i:line.End])
			i += size
			end = i
		}
		line.End = end
		p.writeColoredMatches(b, line, matches, midx)
		if len(matches) == 0 {
			p.w.writeString(" [... omitted end of long line]")
		} else {
			remaining := 0
			for _, m := range matches {
				if m.Start >= line.End && m.Start < original.End {
					remaining++
				}
			}
			tense := "matches"
			if remaining == 1 {
				tense = "match"
			}
			fmt.Fprintf(&p.w.buf, " [... %d more %s]", remaining, tense)
		}
		p.w.writeLineTerm()
		return
	}
	switch {
	case nOrig == 0 || p.opts().OnlyMatching:
		if isCtx {
			p.w.writeString("[Omitted long context line]")
		} else {
			p.w.writeString("[Omitted long matching line]")
		}
	default:
		fmt.Fprintf(&p.w.buf, "[Omitted long line with %d matches]", nOrig)
	}
	p.w.writeLineTerm()
}

func trimPrefix(b []byte, r Range) Range {
	for r.Start < r.End {
		switch b[r.Start] {
		case '\t', '\n', '\v', '\f', '\r', ' ':
			r.Start++
			continue
		}
		break
	}
	return r
}

func lineEndIn(b []byte, start int, term byte) int {
	for i := start; i < len(b); i++ {
		if b[i] == term {
			return i + 1
		}
	}
	return len(b)
}
