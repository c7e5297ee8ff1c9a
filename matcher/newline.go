package matcher

// canMatchByte reports whether some match of h can contain the byte b
// (b < 0x80): a literal b, a class holding it, or for '\n' a line anchor.
func canMatchByte(h *hir, b byte) bool {
	switch h.kind {
	case hLit:
		return h.r == rune(b)
	case hClass:
		return h.cls.contains(rune(b))
	case hRepeat:
		return h.max != 0 && canMatchByte(h.subs[0], b)
	case hAssert:
		// As rg's non-matching bytes: a line anchor counts as matching
		// '\n' (so -U '^' searches whole files).
		return b == '\n' && (h.assert == assertStartLine || h.assert == assertEndLine)
	}
	for _, s := range h.subs {
		if canMatchByte(s, b) {
			return true
		}
	}
	return false
}

// MatchesMayCross reports whether a match may contain the line terminator
// or depends on the whole buffer (\A, \z, (?-m) anchors): then a -U search
// must look at whole files, as rg's multi_line_with_matcher decides; else
// it searches line by line, and counts lines, not matches.
func (m *Matcher) MatchesMayCross() bool {
	return m.crosses
}

// hasLineAnchor reports whether h holds a (?m) line anchor.
func hasLineAnchor(h *hir) bool {
	if h.kind == hAssert {
		return h.assert == assertStartLine || h.assert == assertEndLine
	}
	for _, s := range h.subs {
		if hasLineAnchor(s) {
			return true
		}
	}
	return false
}
