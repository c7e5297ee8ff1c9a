package matcher

import "bytes"

// Two searches judge a line by the bytes around it, where the other
// searches hand the matcher the line alone.
//
// nulAnchors: a multiline search (-U) of NUL-terminated records
// (--null-data) whose pattern cannot match a NUL is made record by
// record, as rg 15 does, but rg's multiline regex knows no line
// terminator: its (?m)^ and $ hold at '\n' and at the ends of the buffer
// only, and it sees the bytes around the record. So "a\x00" does not match
// -U 'a$' (a NUL follows), and a record after the first does not match -U
// '^b' (a NUL precedes it).
//
// ctxAnchors: in CRLF mode (--crlf) rg's ^ and $ hold next to any \r
// (never between the \r and \n of a CRLF) and at the end of the input,
// and no match holds a \r. So in "a\rb" both 'a$' and '^b' match, and at
// the end of a file without a final \n, "x\r" ends a line after its \r.
// The line decision sees the line with its terminator; the occurrences see
// the line with a final CRLF cut off, as rg's printer does, and the end of
// that haystack as an end of input.

// lineHaystack is the haystack the occurrences of the line buf[start:end]
// (end before its terminator, or before the \n of a CRLF) are found in.
func (m *Matcher) lineHaystack(buf []byte, end int) []byte {
	switch {
	case m.nulAnchors && end < len(buf) && buf[end] == m.term:
		return buf[:end+1]
	case m.ctxAnchors:
		// A final \r goes only with the \n after it.
		if end > 0 && end < len(buf) && buf[end] == '\n' && buf[end-1] == '\r' {
			return buf[:end-1]
		}
		return buf[:end]
	}
	return m.trimCR(buf[:end])
}

// IsMatchIn reports whether the line buf[start:end] (end before its
// terminator, a CRLF in CRLF mode) contains a match, judged within its
// buffer as the line search judges it; outside the two cases above it is
// IsMatch of the line.
func (m *Matcher) IsMatchIn(buf []byte, start, end int) bool {
	if !m.nulAnchors && !m.ctxAnchors || m.none || start < 0 || start > end || end > len(buf) {
		return m.IsMatch(buf[start:end])
	}
	if m.fast != nil && bytes.IndexByte(buf[start:end], '\r') < 0 {
		return m.fast.IsMatch(buf[start:end])
	}
	h := buf[:end]
	switch {
	case m.nulAnchors:
		if end < len(buf) && buf[end] == m.term {
			h = buf[:end+1]
		}
	case end+1 < len(buf) && buf[end] == '\r' && buf[end+1] == '\n':
		h = buf[:end+2]
	case end < len(buf) && buf[end] == '\n':
		h = buf[:end+1]
	}
	// No match holds the terminator (nor, in CRLF mode, a \r): one that
	// starts in the line ends in it, where an empty one may stand just
	// before the terminator's last byte (rg's -w 'x*' matches between the
	// \r and \n of a CRLF), and before any (empty) match after the
	// terminator ends; so the earliest match to end says it.
	last := len(h)
	if len(h) > end {
		last--
	}
	caps := [2]int{-1, -1}
	return m.prog.execMode(h, start, execMode{earliest: true, asciiPrevAt: -1, realEnd: m.ctxAnchors}, caps[:]) && caps[1] <= last
}

// contextNextLine is NextLine for the two cases above: every line with a
// candidate is judged within its buffer. In CRLF mode the fast matcher
// finds the lines, exactly for those without a lone \r; the lines it
// passes over that hold one are judged here.
func (m *Matcher) contextNextLine(buf []byte, from int) (int, int, bool) {
	if m.fast != nil {
		return m.crlfNextLine(buf, from, func(f int) (int, int, bool) { return m.fast.NextLine(buf, f) })
	}
	for from < len(buf) {
		ls := from
		if m.pre != nil {
			p, found := m.pre.find(buf, from)
			if !found {
				return 0, 0, false
			}
			if i := bytes.LastIndexByte(buf[from:p], m.term); i >= 0 {
				ls = from + i + 1
			}
		}
		le := lineEnd(buf, ls, m.term)
		end := le
		if m.crlf && le < len(buf) && end > ls && buf[end-1] == '\r' {
			end--
		}
		if m.IsMatchIn(buf, ls, end) {
			return ls, advance(buf, le), true
		}
		from = advance(buf, le)
	}
	return 0, 0, false
}

// crlfNextLine is contextNextLine in CRLF mode; fast gives the fast
// matcher's next line at or after a position (a LineScanner remembers it).
func (m *Matcher) crlfNextLine(buf []byte, from int, fast func(int) (int, int, bool)) (int, int, bool) {
	for from < len(buf) {
		s, e, ok := fast(from)
		limit := len(buf)
		if ok {
			limit = s
		}
		// The lines before the fast matcher's that hold a lone \r.
		for at := from; at < limit; {
			i := bytes.IndexByte(buf[at:limit], '\r')
			if i < 0 {
				break
			}
			p := at + i
			ls := from
			if j := bytes.LastIndexByte(buf[from:p], '\n'); j >= 0 {
				ls = from + j + 1
			}
			le := lineEnd(buf, p, '\n')
			if !hasLoneCR(buf, ls, le) {
				at = advance(buf, le)
				continue
			}
			end := le
			if le < len(buf) && buf[le-1] == '\r' {
				end--
			}
			if m.IsMatchIn(buf, ls, end) {
				return ls, advance(buf, le), true
			}
			at = advance(buf, le)
		}
		if !ok {
			return 0, 0, false
		}
		le := e
		if le > s && buf[le-1] == '\n' {
			le--
		}
		if !hasLoneCR(buf, s, le) {
			return s, e, true
		}
		end := le
		if le < len(buf) && buf[le-1] == '\r' {
			end--
		}
		if m.IsMatchIn(buf, s, end) {
			return s, e, true
		}
		from = e
	}
	return 0, 0, false
}

// hasLoneCR reports whether the line buf[start:end] (end before its \n,
// or the end of the buffer) holds a \r other than the one of a final CRLF.
func hasLoneCR(buf []byte, start, end int) bool {
	if end > start && end < len(buf) && buf[end] == '\n' && buf[end-1] == '\r' {
		end--
	}
	return bytes.IndexByte(buf[start:end], '\r') >= 0
}
