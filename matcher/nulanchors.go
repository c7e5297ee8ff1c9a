package matcher

// A multiline search (-U) of NUL-terminated records (--null-data) whose
// pattern cannot match a NUL is made record by record, as rg 15 does, but
// rg's multiline regex knows no line terminator: its (?m)^ and $ hold at
// '\n' and at the ends of the buffer only, and it sees the bytes around
// the record. So "a\x00" does not match -U 'a$' (a NUL follows), and a
// record after the first does not match -U '^b' (a NUL precedes it).
// nulAnchors marks that case for patterns with line anchors; the matcher
// then judges each record within its buffer, terminator included.

// recordHaystack is the haystack the record buf[start:end] (end before
// its terminator) is searched in: the buffer up to the record's end, and
// in the nulAnchors case its terminator as well, which no match can hold
// but which the anchors see.
func (m *Matcher) recordHaystack(buf []byte, end int) []byte {
	if m.nulAnchors && end < len(buf) && buf[end] == m.term {
		return buf[:end+1]
	}
	return m.trimCR(buf[:end])
}

// IsMatchIn reports whether the line buf[start:end] (end before its
// terminator) contains a match, judged within its buffer as the line
// search judges it (see nulAnchors); otherwise it is IsMatch.
func (m *Matcher) IsMatchIn(buf []byte, start, end int) bool {
	if !m.nulAnchors || m.none || start < 0 || start > end || end > len(buf) {
		return m.IsMatch(buf[start:end])
	}
	var caps [2]int
	return m.prog.execMode(m.recordHaystack(buf, end), start, execMode{earliest: true, asciiPrevAt: -1}, caps[:])
}

// nulAnchorsNextLine is NextLine in the nulAnchors case: every record is
// judged within its buffer.
func (m *Matcher) nulAnchorsNextLine(buf []byte, from int) (int, int, bool) {
	for from < len(buf) {
		le := lineEnd(buf, from, m.term)
		if m.IsMatchIn(buf, from, le) {
			return from, advance(buf, le), true
		}
		from = advance(buf, le)
	}
	return 0, 0, false
}
