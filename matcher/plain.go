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
	var out []byte
	var walk func(*hir) bool
	walk = func(h *hir) bool {
		switch h.kind {
		case hLit:
			if h.isByte {
				out = append(out, byte(h.r))
			} else {
				out = utf8.AppendRune(out, h.r)
			}
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
	p := from + i
	ls := from
	if j := bytes.LastIndexByte(buf[from:p], m.term); j >= 0 {
		ls = from + j + 1
	}
	return ls, advance(buf, lineEnd(buf, p, m.term)), true
}
