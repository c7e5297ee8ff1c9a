package matcher

import (
	"bytes"
	"unicode/utf8"
)

// plainBytes returns the byte string h matches when h is nothing but
// literal characters (possibly grouped): then every occurrence is exactly
// that string, and matching needs no regex engine at all — bytes.Index
// (SIMD in Go's runtime) finds and confirms in one step.
func plainBytes(h *hir) ([]byte, bool) {
	sets, ok := exactSets(h)
	if !ok {
		return nil, false
	}
	out := make([]byte, 0, len(sets))
	for _, s := range sets {
		if s.count() != 1 {
			return nil, false
		}
		out = append(out, s.members()[0])
	}
	return out, true
}

// plainFindAll appends the occurrences of m.plain in h from at on.
func (m *Matcher) plainFindAll(h []byte, at int, dst []Range) []Range {
	for at <= len(h) {
		i := bytes.Index(h[at:], m.plain)
		if i < 0 {
			break
		}
		s := at + i
		dst = append(dst, Range{s, s + len(m.plain)})
		at = s + len(m.plain)
	}
	return dst
}

// plainNextLine is NextLine for a plain literal: the first occurrence is
// the match, so its line is the answer.
func (m *Matcher) plainNextLine(buf []byte, from int) (int, int, bool) {
	i := bytes.Index(buf[from:], m.plain)
	if i < 0 {
		return 0, 0, false
	}
	return m.lineAround(buf, from, from+i)
}

// lineAround returns the bounds of the line holding position p (at or
// after from, which is a line start), end after its terminator.
func (m *Matcher) lineAround(buf []byte, from, p int) (int, int, bool) {
	ls := from
	if j := bytes.LastIndexByte(buf[from:p], m.term); j >= 0 {
		ls = from + j + 1
	}
	return ls, advance(buf, lineEnd(buf, p, m.term)), true
}

// exactSets returns, for a pattern made only of literal characters and
// ASCII-only classes (what -i makes of an ASCII literal without k or s,
// whose Unicode folds leave ASCII), the byte set of each position: every
// match has exactly that length and is confirmed by checking the sets.
func exactSets(h *hir) (lit, bool) {
	var out lit
	var walk func(*hir) bool
	walk = func(h *hir) bool {
		switch h.kind {
		case hLit:
			if h.isByte {
				out = append(out, single(byte(h.r)))
				return true
			}
			for _, b := range utf8.AppendRune(nil, h.r) {
				out = append(out, single(b))
			}
			return true
		case hClass:
			var s byteSet
			for _, r := range h.cls.r {
				if r.hi > 0x7f || r.lo < 0 {
					return false
				}
				for c := r.lo; c <= r.hi; c++ {
					s.add(byte(c))
				}
			}
			if s.count() == 0 {
				return false
			}
			out = append(out, s)
			return true
		case hCapture:
			return walk(h.subs[0])
		case hConcat:
			for _, s := range h.subs {
				if !walk(s) {
					return false
				}
			}
			return true
		}
		return false
	}
	if !walk(h) || len(out) == 0 {
		return nil, false
	}
	return out, true
}

// exactScan builds the scanner of an exact byte-set literal, or nil when
// no position has few enough bytes to scan for.
func exactScan(l lit) *litScan {
	pos, cost := scanPos(l)
	if pos < 0 || cost < 0 {
		return nil
	}
	return &litScan{l: l, pos: pos, bytes: l[pos].members()}
}

// exactFindAll appends the occurrences of the exact literal in h from at.
func (m *Matcher) exactFindAll(h []byte, at int, dst []Range) []Range {
	n := len(m.exact.l)
	for at+n <= len(h) {
		s, ok := m.exact.find(h, at, len(h))
		if !ok {
			break
		}
		dst = append(dst, Range{s, s + n})
		at = s + n
	}
	return dst
}

// litMultiNextLine is NextLine for a plain or exact literal by the
// vector scan (m.litMulti).
func (m *Matcher) litMultiNextLine(buf []byte, from int) (int, int, bool) {
	p, ok := m.litMulti.find(buf, from)
	if !ok {
		return 0, 0, false
	}
	return m.lineAround(buf, from, p)
}

// exactNextLine is NextLine for an exact literal.
func (m *Matcher) exactNextLine(buf []byte, from int) (int, int, bool) {
	p, ok := m.exact.find(buf, from, len(buf))
	if !ok {
		return 0, 0, false
	}
	return m.lineAround(buf, from, p)
}
