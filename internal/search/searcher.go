package search

import (
	"bytes"
	"io"

	"github.com/evgrep/evgrep/internal/growbuf"
	"github.com/evgrep/evgrep/matcher"
)

// BufferCapacity is the size of the rolling read buffer and of the prefix
// that slice searches inspect for NUL bytes (grep-searcher's default).
const BufferCapacity = 64 * 1024

// maxKeptBuffer is the largest read buffer a Searcher keeps from one file
// to the next; a buffer grown beyond it for a long line is dropped.
const maxKeptBuffer = 4 * BufferCapacity

// Config selects the searcher's behaviour.
type Config struct {
	LineTerm    byte // '\n', or 0 for --null-data
	CRLF        bool // lines end in \r\n for matching purposes
	Invert      bool
	Before      int
	After       int
	Passthru    bool
	LineNumbers bool
	// Multiline makes slice searches find matches across lines.
	Multiline bool
	Binary    BinaryMode
	// MaxMatches is -m (0: none). As in rg 15, the searcher enforces it,
	// not the printers: it counts matching lines (inverted lines with -v;
	// regex matches in a multiline search), stops finding matches once
	// it has that many, and then shows the after context line by line,
	// where a line that matches on its own is reported as a match.
	MaxMatches int64
	// EveryLine tests every line, as rg does when its matcher's line
	// terminator is NUL (--null-data without -U): past -m no line matches
	// any more, so with -v every line does.
	EveryLine bool
	// StopOnNonmatch ends a search at the first non-matching line after a
	// matching one (rg 15's --stop-on-nonmatch; no effect with Invert).
	StopOnNonmatch bool
	// BOMPeek reproduces rg's BOM-sniffing reader, whose first read
	// returns at most three bytes. It decides where the first buffer ends,
	// which is visible in how binary files are reported.
	BOMPeek bool
}

// A SplitReader is a reader whose one Read of n bytes gives the bytes that
// a Read of 3 and one of n-3 would (one read of a file or pipe per call).
// With Config.BOMPeek the searcher asks it for a whole buffer at once and
// takes the first three bytes as the first read, the rest as the next
// one: rg's buffer steps, one read call fewer per file.
type SplitReader interface {
	io.Reader
	// SplitReads marks the reader; it does nothing.
	SplitReads()
}

// Searcher searches inputs with one matcher. It is not safe for concurrent
// use; make one per worker. Its buffer is reused between searches.
type Searcher struct {
	cfg    Config
	m      Matcher
	lines  lineFinder // m, or a per-searcher scanner with its own cache
	buf    []byte
	ranges []matcher.Range
	// cur and fin are the state and the Finish of the search in progress:
	// a Searcher runs one search at a time, and one of each per file was
	// most of a tree search's garbage (peak RSS, bench/README.md).
	cur core
	fin Finish
}

// lineFinder finds the next matching line.
type lineFinder interface {
	NextLine(buf []byte, from int) (start, end int, ok bool)
}

// resetter is implemented by finders with a cache tied to one buffer.
type resetter interface{ Reset() }

// resetLines drops the line finder's cache: the buffer's content changed.
func (s *Searcher) resetLines() {
	if r, ok := s.lines.(resetter); ok {
		r.Reset()
	}
}

// scannerMaker is implemented by matchers that keep per-search state for
// faster scanning (matcher.Matcher's LineScanner).
type scannerMaker interface {
	NewLineScanner() *matcher.LineScanner
}

// New returns a Searcher.
func New(cfg Config, m Matcher) *Searcher {
	s := &Searcher{cfg: cfg, m: m, lines: m}
	if sm, ok := m.(scannerMaker); ok {
		s.lines = sm.NewLineScanner()
	}
	return s
}

// Config returns the searcher's configuration (printers consult it).
func (s *Searcher) Config() *Config { return &s.cfg }

// Matcher returns the matcher.
func (s *Searcher) Matcher() Matcher { return s.m }

// core holds the per-search state of grep-searcher's Core.
type core struct {
	s               *Searcher
	sink            Sink
	match           Match // the Match handed to sink.Matched (reused: no allocation per line)
	slice           bool  // check every reported range for NUL bytes
	absOffset       int64
	pos             int
	lineNumber      uint64
	lastLineCounted int
	lastLineVisited int
	afterLeft       int
	hasSunk         bool
	hasMatched      bool // a line matched (for StopOnNonmatch)
	binaryOffset    int64
	count           int64 // matches counted against MaxMatches
}

// exceeded reports whether -m's count is reached (grep-searcher's
// has_exceeded_match_limit).
func (c *core) exceeded() bool {
	return c.s.cfg.MaxMatches > 0 && c.count >= c.s.cfg.MaxMatches
}

func (s *Searcher) newCore(sink Sink, slice bool) *core {
	c := &s.cur
	*c = core{s: s, sink: sink, slice: slice, binaryOffset: -1}
	if s.cfg.LineNumbers {
		c.lineNumber = 1
	}
	return c
}

func (c *core) term() byte { return c.s.cfg.LineTerm }

func (c *core) lineNo() uint64 {
	if !c.s.cfg.LineNumbers {
		return 0
	}
	return c.lineNumber
}

func (c *core) countLines(buf []byte, upto int) {
	if !c.s.cfg.LineNumbers || c.lastLineCounted >= upto {
		return
	}
	c.lineNumber += uint64(bytes.Count(buf[c.lastLineCounted:upto], []byte{c.term()}))
	c.lastLineCounted = upto
}

func (c *core) maxContext() int { return max(c.s.cfg.Before, c.s.cfg.After) }

// roll keeps what later context may need and returns how much of buf was
// consumed.
func (c *core) roll(buf []byte) int {
	consumed := len(buf)
	if c.maxContext() > 0 {
		consumed = max(preceding(buf, c.term(), c.maxContext()), c.lastLineVisited)
	}
	c.countLines(buf, consumed)
	c.absOffset += int64(consumed)
	c.lastLineCounted = 0
	c.lastLineVisited = 0
	c.pos = len(buf) - consumed
	return consumed
}

// detectBinary is used by slice searches: it reports whether to stop.
func (c *core) detectBinary(buf []byte, start, end int) (bool, error) {
	if c.binaryOffset >= 0 {
		return c.s.cfg.Binary == BinaryQuit, nil
	}
	if c.s.cfg.Binary == BinaryNone {
		return false, nil
	}
	i := bytes.IndexByte(buf[start:end], 0)
	if i < 0 {
		return false, nil
	}
	c.binaryOffset = int64(start + i)
	ok, err := c.sink.BinaryData(c.s, c.binaryOffset)
	if err != nil {
		return true, err
	}
	if !ok {
		return true, nil
	}
	return c.s.cfg.Binary == BinaryQuit, nil
}

func (c *core) sinkBreakContext(lineStart int) (bool, error) {
	isGap := c.lastLineVisited < lineStart
	anyContext := c.s.cfg.Before > 0 || c.s.cfg.After > 0
	if !anyContext || !c.hasSunk || !isGap {
		return true, nil
	}
	return c.sink.ContextBreak(c.s)
}

func (c *core) sinkMatched(buf []byte, start, end int) (bool, error) {
	if c.slice {
		if stop, err := c.detectBinary(buf, start, end); stop || err != nil {
			return false, err
		}
	}
	if ok, err := c.sinkBreakContext(start); !ok || err != nil {
		return false, err
	}
	c.countLines(buf, start)
	c.match = Match{Bytes: buf[start:end], AbsOffset: c.absOffset + int64(start), LineNumber: c.lineNo(), Buffer: buf, Start: start}
	ok, err := c.sink.Matched(c.s, &c.match)
	if !ok || err != nil {
		return false, err
	}
	c.lastLineVisited = end
	c.afterLeft = c.s.cfg.After
	c.hasSunk = true
	return true, nil
}

func (c *core) sinkContext(buf []byte, start, end int, kind ContextKind) (bool, error) {
	if c.slice {
		if stop, err := c.detectBinary(buf, start, end); stop || err != nil {
			return false, err
		}
	}
	if kind != ContextAfter {
		if ok, err := c.sinkBreakContext(start); !ok || err != nil {
			return false, err
		}
	}
	c.countLines(buf, start)
	ctx := Context{Bytes: buf[start:end], Kind: kind, AbsOffset: c.absOffset + int64(start), LineNumber: c.lineNo()}
	ok, err := c.sink.Context(c.s, &ctx)
	if !ok || err != nil {
		return false, err
	}
	c.lastLineVisited = end
	if kind == ContextAfter {
		c.afterLeft--
	}
	c.hasSunk = true
	return true, nil
}

func (c *core) beforeContextByLine(buf []byte, upto int) (bool, error) {
	if c.s.cfg.Before == 0 {
		return true, nil
	}
	start := c.lastLineVisited
	if start >= upto {
		return true, nil
	}
	start += preceding(buf[start:upto], c.term(), c.s.cfg.Before-1)
	for ls := start; ls < upto; {
		le := lineEnd(buf, ls, upto, c.term())
		if ok, err := c.sinkContext(buf, ls, le, ContextBefore); !ok || err != nil {
			return false, err
		}
		ls = le
	}
	return true, nil
}

func (c *core) afterContextByLine(buf []byte, upto int) (bool, error) {
	if c.afterLeft == 0 {
		return true, nil
	}
	exceeded := c.exceeded()
	for ls := c.lastLineVisited; ls < upto; {
		le := lineEnd(buf, ls, upto, c.term())
		if exceeded && c.lineMatches(buf, ls, le) != c.s.cfg.Invert {
			// Past -m, a line of the after context that matches on its
			// own is reported as a match, and still uses up one line.
			left := c.afterLeft
			c.pos = le
			if ok, err := c.sinkMatched(buf, ls, le); !ok || err != nil {
				return false, err
			}
			c.afterLeft = left - 1
		} else if ok, err := c.sinkContext(buf, ls, le, ContextAfter); !ok || err != nil {
			return false, err
		}
		if c.afterLeft == 0 {
			break
		}
		ls = le
	}
	return true, nil
}

func (c *core) otherContextByLine(buf []byte, upto int) (bool, error) {
	for ls := c.lastLineVisited; ls < upto; {
		le := lineEnd(buf, ls, upto, c.term())
		if ok, err := c.sinkContext(buf, ls, le, ContextOther); !ok || err != nil {
			return false, err
		}
		ls = le
	}
	return true, nil
}

// withoutTerminator strips the line terminator (and a \r before \n in CRLF
// mode) so patterns like `$` cannot match after it.
func (c *core) withoutTerminator(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == c.term() {
		line = line[:n-1]
		if c.s.cfg.CRLF && len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
	}
	return line
}

// contextMatcher is a Matcher that judges a line within its buffer (the
// bytes around it can decide, as for -U --null-data's line anchors).
type contextMatcher interface {
	IsMatchIn(buf []byte, start, end int) bool
}

// lineMatches reports whether the line buf[ls:le] (le after its
// terminator) matches.
func (c *core) lineMatches(buf []byte, ls, le int) bool {
	line := c.withoutTerminator(buf[ls:le])
	if m, ok := c.s.m.(contextMatcher); ok {
		return m.IsMatchIn(buf, ls, ls+len(line))
	}
	return c.s.m.IsMatch(line)
}

// findLine returns the next matching line at or after c.pos.
func (c *core) findLine(buf []byte) (int, int, bool) {
	if c.pos >= len(buf) || c.exceeded() {
		return 0, 0, false
	}
	s, e, ok := c.s.lines.NextLine(buf, c.pos)
	if !ok || s >= len(buf) {
		return 0, 0, false
	}
	return s, e, true
}

// matchByLine searches the complete lines of buf from c.pos on. It reports
// false when the search must stop.
func (c *core) matchByLine(buf []byte) (bool, error) {
	// rg tests every line for --passthru, --stop-on-nonmatch and
	// EveryLine; the two ways differ past -m.
	if c.s.cfg.Passthru || (c.s.cfg.StopOnNonmatch && !c.s.cfg.Invert) || c.s.cfg.EveryLine {
		return c.matchByLineSlow(buf)
	}
	for c.pos < len(buf) {
		if c.s.cfg.Invert {
			ok, limit, err := c.matchByLineInvert(buf)
			if err != nil {
				return false, err
			}
			if !ok || limit {
				// As rg 15.2: a sink that stops (-l, -q) ends this
				// buffer only; the search reads on, so a NUL further
				// on still makes the file binary.
				break
			}
			continue
		}
		s, e, found := c.findLine(buf)
		if !found {
			break
		}
		c.count++
		if c.maxContext() > 0 {
			if ok, err := c.afterContextByLine(buf, s); !ok || err != nil {
				return false, err
			}
			if ok, err := c.beforeContextByLine(buf, s); !ok || err != nil {
				return false, err
			}
		}
		c.pos = e
		if ok, err := c.sinkMatched(buf, s, e); !ok || err != nil {
			return false, err
		}
	}
	if ok, err := c.afterContextByLine(buf, len(buf)); !ok || err != nil {
		return false, err
	}
	if c.exceeded() && c.afterLeft == 0 {
		return false, nil
	}
	c.pos = len(buf)
	return true, nil
}

// matchByLineInvert reports the lines before the next matching line (or
// the end of buf); limit tells that -m's count was reached.
func (c *core) matchByLineInvert(buf []byte) (ok, limit bool, err error) {
	start := c.pos
	var end int
	if s, e, found := c.findLine(buf); found {
		end = s
		c.pos = e
	} else {
		end = len(buf)
		c.pos = end
	}
	if start >= end {
		return true, false, nil
	}
	if ok, err := c.afterContextByLine(buf, start); !ok || err != nil {
		return false, false, err
	}
	if ok, err := c.beforeContextByLine(buf, start); !ok || err != nil {
		return false, false, err
	}
	for ls := start; ls < end; {
		le := lineEnd(buf, ls, end, c.term())
		c.count++
		if ok, err := c.sinkMatched(buf, ls, le); !ok || err != nil {
			return false, false, err
		}
		if c.exceeded() {
			// rg goes on with the after context of this line (c.pos is
			// past the matching line that ended the run, as in rg).
			return false, true, nil
		}
		ls = le
	}
	return true, false, nil
}

// matchByLineSlow tests every line; used for --passthru and
// --stop-on-nonmatch.
func (c *core) matchByLineSlow(buf []byte) (bool, error) {
	for c.pos < len(buf) {
		exceeded := c.exceeded()
		if exceeded && !c.s.cfg.Passthru && c.afterLeft == 0 {
			return false, nil
		}
		ls := c.pos
		le := lineEnd(buf, ls, len(buf), c.term())
		// Past -m no line matches any more (so with -v every line does).
		matched := !exceeded && c.lineMatches(buf, ls, le)
		c.pos = le
		if matched != c.s.cfg.Invert {
			c.count++
			if ok, err := c.beforeContextByLine(buf, ls); !ok || err != nil {
				return false, err
			}
			if ok, err := c.sinkMatched(buf, ls, le); !ok || err != nil {
				return false, err
			}
		} else if c.afterLeft >= 1 {
			if ok, err := c.sinkContext(buf, ls, le, ContextAfter); !ok || err != nil {
				return false, err
			}
		} else if c.s.cfg.Passthru {
			if ok, err := c.sinkContext(buf, ls, le, ContextOther); !ok || err != nil {
				return false, err
			}
		}
		if matched != c.s.cfg.Invert {
			c.hasMatched = true
		} else if c.s.cfg.StopOnNonmatch && !c.s.cfg.Invert && c.hasMatched {
			return false, nil
		}
	}
	return true, nil
}

// lineEnd returns the end of the line starting at start (after its
// terminator), bounded by limit.
func lineEnd(buf []byte, start, limit int, term byte) int {
	if i := bytes.IndexByte(buf[start:limit], term); i >= 0 {
		return start + i + 1
	}
	return limit
}

// preceding returns the start of the line that lies count lines before the
// last line of buf (grep-searcher's lines::preceding).
func preceding(buf []byte, term byte, count int) int {
	pos := len(buf)
	if pos == 0 {
		return 0
	}
	if buf[pos-1] == term {
		pos--
	}
	for {
		i := bytes.LastIndexByte(buf[:pos], term)
		if i < 0 {
			return 0
		}
		if count == 0 {
			return i + 1
		}
		if i == 0 {
			return 0
		}
		count--
		pos = i
	}
}

// locate widens [start,end) to whole lines.
func locate(buf []byte, term byte, start, end int) (int, int) {
	ls := bytes.LastIndexByte(buf[:start], term) + 1
	var le int
	if end > ls && buf[end-1] == term {
		le = end
	} else if i := bytes.IndexByte(buf[end:], term); i >= 0 {
		le = end + i + 1
	} else {
		le = len(buf)
	}
	return ls, le
}

// SearchSlice searches an input held whole in memory (a memory map or a
// multiline read): NUL detection looks at the first BufferCapacity bytes
// and at every reported line, and NULs are not converted.
func (s *Searcher) SearchSlice(data []byte, sink Sink) (err error) {
	defer recoverAbort(&err)
	s.resetLines()
	c := s.newCore(sink, true)
	keepGoing := true
	stop, err := c.detectBinary(data, 0, min(len(data), BufferCapacity))
	if err != nil {
		return err
	}
	if !stop {
		if s.cfg.Multiline {
			err = c.multiline(data)
		} else {
			for c.pos < len(data) && keepGoing {
				keepGoing, err = c.matchByLine(data)
				if err != nil {
					break
				}
			}
		}
		if err != nil {
			return err
		}
	}
	// rg 15 counts the bytes up to where the search stopped (the end of
	// the last line it looked at), never past the first NUL byte.
	count := int64(c.pos)
	if c.binaryOffset >= 0 && c.binaryOffset < count {
		count = c.binaryOffset
	}
	s.fin = Finish{ByteCount: count, BinaryOffset: c.binaryOffset}
	return sink.Finish(s, &s.fin)
}

// multiline finds matches that may span lines and reports each group of
// adjacent matching lines once (grep-searcher's MultiLine).
func (c *core) multiline(data []byte) error {
	term := c.term()
	matches := c.s.m.FindAll(data, c.s.ranges[:0])
	c.s.ranges = matches
	if c.s.cfg.Invert {
		return c.multilineInvert(data, matches)
	}
	haveLast := false
	var lastS, lastE int
	flush := func(ls, le int) (bool, error) {
		if ls >= le {
			return false, nil
		}
		if c.s.cfg.Passthru {
			if ok, err := c.otherContextByLine(data, ls); !ok || err != nil {
				return false, err
			}
		} else {
			if ok, err := c.afterContextByLine(data, ls); !ok || err != nil {
				return false, err
			}
			if ok, err := c.beforeContextByLine(data, ls); !ok || err != nil {
				return false, err
			}
		}
		return c.sinkMatched(data, ls, le)
	}
	keepGoing := true
	for _, m := range matches {
		if c.exceeded() {
			// rg's find answers nothing past -m; the after context
			// follows line by line.
			break
		}
		c.count++
		// The search has reached the end of each match it found (rg's
		// MultiLine advances past it before reporting the block before).
		c.pos = max(m.End, min(m.Start+1, len(data)))
		ls, le := locate(data, term, m.Start, m.End)
		if !haveLast {
			haveLast, lastS, lastE = true, ls, le
			continue
		}
		if lastE >= ls {
			lastE = max(lastE, le)
			continue
		}
		var err error
		keepGoing, err = flush(lastS, lastE)
		if err != nil || !keepGoing {
			return err
		}
		lastS, lastE = ls, le
	}
	c.pos = len(data)
	if haveLast {
		var err error
		keepGoing, err = flush(lastS, lastE)
		if err != nil {
			return err
		}
	}
	if keepGoing {
		if c.s.cfg.Passthru {
			_, err := c.otherContextByLine(data, len(data))
			return err
		}
		_, err := c.afterContextByLine(data, len(data))
		return err
	}
	return nil
}

// multilineInvert reports the lines outside every match's lines.
func (c *core) multilineInvert(data []byte, matches []matcher.Range) error {
	term := c.term()
	emit := func(start, end int) (bool, error) {
		if start >= end {
			return true, nil
		}
		if c.s.cfg.Passthru {
			// The lines of the matches before the run are context.
			if ok, err := c.otherContextByLine(data, start); !ok || err != nil {
				return false, err
			}
		} else {
			if ok, err := c.afterContextByLine(data, start); !ok || err != nil {
				return false, err
			}
			if ok, err := c.beforeContextByLine(data, start); !ok || err != nil {
				return false, err
			}
		}
		for ls := start; ls < end; {
			le := lineEnd(data, ls, end, term)
			if ok, err := c.sinkMatched(data, ls, le); !ok || err != nil {
				return false, err
			}
			ls = le
		}
		return true, nil
	}
	pos := 0
	for _, m := range matches {
		if c.exceeded() {
			// Past -m rg finds no match: the rest is one inverted run.
			break
		}
		ls, le := locate(data, term, m.Start, m.End)
		if le <= pos {
			continue
		}
		c.pos = max(c.pos, m.End)
		c.count++
		if ok, err := emit(pos, max(pos, ls)); !ok || err != nil {
			return err
		}
		pos = max(pos, le)
	}
	if ok, err := emit(pos, len(data)); !ok || err != nil {
		return err
	}
	c.pos = len(data)
	if c.s.cfg.Passthru {
		_, err := c.otherContextByLine(data, len(data))
		return err
	}
	_, err := c.afterContextByLine(data, len(data))
	return err
}

// SearchReader searches a stream through a rolling buffer, as rg does for
// files it does not memory-map and for stdin. In quit mode the buffer that
// holds the first NUL is not searched; in convert mode NULs become line
// terminators.
func (s *Searcher) SearchReader(r io.Reader, sink Sink) (err error) {
	defer recoverAbort(&err)
	c := s.newCore(sink, false)
	lb := lineBuffer{r: r, term: s.cfg.LineTerm, binary: s.cfg.Binary, peek: s.cfg.BOMPeek, binaryOffset: -1}
	_, lb.split = r.(SplitReader)
	if cap(s.buf) < BufferCapacity {
		s.buf = make([]byte, BufferCapacity)
	}
	lb.buf = s.buf[:cap(s.buf)]
	// Keep the buffer for the next file unless a long line grew it: one
	// such file must not hold megabytes per worker for the rest of the walk
	// (peak RSS, bench/README.md). Deferred: a matcher may abort the search.
	defer func() {
		if lb.mapped {
			growbuf.Release(lb.buf)
		} else if cap(lb.buf) <= maxKeptBuffer {
			s.buf = lb.buf
		}
	}()
	for {
		var more bool
		more, err = c.fillReader(&lb)
		if err != nil || !more {
			break
		}
		s.resetLines()
		var keep bool
		keep, err = c.matchByLine(lb.buffer())
		if err != nil || !keep {
			break
		}
	}
	if err == nil {
		// Bytes searched, as rg 15 counts them: up to the end of the last
		// line the search reached (lines kept for context included).
		s.fin = Finish{ByteCount: c.absOffset + int64(c.pos), BinaryOffset: lb.binaryOffset}
		err = sink.Finish(s, &s.fin)
	}
	return err
}

// fillReader is ReadByLine::fill.
func (c *core) fillReader(lb *lineBuffer) (bool, error) {
	alreadyBinary := lb.binaryOffset >= 0
	oldLen := len(lb.buffer())
	consumed := c.roll(lb.buffer())
	lb.consume(consumed)
	didRead, err := lb.fill()
	if err != nil {
		return false, err
	}
	if !alreadyBinary && lb.binaryOffset >= 0 {
		ok, err := c.sink.BinaryData(c.s, lb.binaryOffset)
		if err != nil || !ok {
			return false, err
		}
	}
	if !didRead || (lb.binaryOffset >= 0 && c.s.cfg.Binary == BinaryQuit) {
		return false, nil
	}
	if consumed == 0 && oldLen == len(lb.buffer()) {
		lb.consume(oldLen)
		return false, nil
	}
	return true, nil
}

// lineBuffer is grep-searcher's LineBuffer: a buffer of complete lines over
// a reader, rolled and refilled, growing only for lines longer than it.
type lineBuffer struct {
	r            io.Reader
	buf          []byte
	pos          int // start of unconsumed data
	lastTerm     int // end of the last complete line
	end          int // end of data read
	absOffset    int64
	eof          bool
	term         byte
	binary       BinaryMode
	binaryOffset int64
	peek         bool // first read limited to 3 bytes
	// split: the reader is a SplitReader; the first read, with peek, then
	// takes a whole buffer and leaves all but 3 bytes pending, at
	// buf[end:end+pending], for the next fill.
	split   bool
	pending int
	reads   int
	mapped  bool // buf is growbuf's mapping (release it when done)
}

func (lb *lineBuffer) buffer() []byte { return lb.buf[lb.pos:lb.lastTerm] }

func (lb *lineBuffer) consume(n int) { lb.pos += n }

func (lb *lineBuffer) roll() {
	if lb.pos == 0 {
		return
	}
	n := copy(lb.buf, lb.buf[lb.pos:lb.end+lb.pending])
	lb.absOffset += int64(lb.pos)
	lb.lastTerm -= lb.pos
	lb.end = n - lb.pending
	lb.pos = 0
}

func (lb *lineBuffer) fill() (bool, error) {
	if lb.eof {
		return false, nil
	}
	lb.roll()
	for {
		n, err := lb.read()
		if err != nil {
			return false, err
		}
		if n == 0 {
			lb.lastTerm = lb.end
			lb.eof = true
			return lb.pos < lb.lastTerm, nil
		}
		oldEnd := lb.end
		lb.end += n
		newBytes := lb.buf[oldEnd:lb.end]
		switch lb.binary {
		case BinaryQuit:
			if i := bytes.IndexByte(newBytes, 0); i >= 0 {
				lb.end = oldEnd + i
				lb.lastTerm = lb.end
				lb.binaryOffset = lb.absOffset + int64(lb.end)
				return lb.pos < lb.end, nil
			}
		case BinaryConvert:
			if i := bytes.IndexByte(newBytes, 0); i >= 0 {
				if lb.binaryOffset < 0 {
					lb.binaryOffset = lb.absOffset + int64(oldEnd+i)
				}
				for j := i; j < len(newBytes); j++ {
					if newBytes[j] == 0 {
						newBytes[j] = lb.term
					}
				}
			}
		}
		if i := bytes.LastIndexByte(newBytes, lb.term); i >= 0 {
			lb.lastTerm = oldEnd + i + 1
			return true, nil
		}
	}
}

// read reads once into the buffer's free space (grown when there is
// none), or gives the bytes a split first read left pending.
func (lb *lineBuffer) read() (int, error) {
	if n := lb.pending; n > 0 {
		lb.pending = 0
		return n, nil
	}
	if lb.end == len(lb.buf) {
		lb.buf, lb.mapped = growbuf.Grow(lb.buf, lb.end, 2*len(lb.buf), lb.mapped)
	}
	free := lb.buf[lb.end:]
	first := lb.peek && lb.reads == 0 && len(free) > 3
	if first && !lb.split {
		free = free[:3]
	}
	lb.reads++
	n, err := readSome(lb.r, free)
	if first && n > 3 {
		lb.pending, n = n-3, 3
	}
	return n, err
}

// readSome reads once, retrying on zero-byte reads that are not EOF.
func readSome(r io.Reader, p []byte) (int, error) {
	for {
		n, err := r.Read(p)
		if n > 0 {
			return n, nil
		}
		if err == io.EOF {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
	}
}
