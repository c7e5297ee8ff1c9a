package matcher

import (
	"bytes"
	"unicode/utf8"
)

// wordLit answers -w for a pattern that is a fixed-length literal (a plain
// byte string, or per-position byte sets as -i makes of an ASCII word):
// rg 15's \b{start-half}(?:lit)\b{end-half} matches at an occurrence of the
// literal exactly when no word character ends before it and none starts
// after it. Checking that around each occurrence needs no regex engine,
// so a -w search of a word never instantiates RE2 (its WebAssembly memory
// is about 2.5 MB of a run's resident set) and never runs the VM to say
// whether a line matches.
type wordLit struct {
	plain []byte   // the literal, when each position is one byte
	exact *litScan // else its byte sets (nil when plain is set)
	n     int      // its length
	uni   bool     // Unicode word characters (else ASCII, --no-unicode)
}

// newWordLit returns the -w checker of h, or nil when h is not a
// fixed-length literal of byte sets.
func newWordLit(h *hir, uni bool) *wordLit {
	sets, ok := exactSets(h)
	if !ok || len(sets) > maxLitLen {
		return nil
	}
	w := &wordLit{n: len(sets), uni: uni}
	if p, ok := plainBytes(h); ok {
		w.plain = p
		return w
	}
	pos, cost := scanPos(sets)
	if pos < 0 || cost < 0 {
		return nil
	}
	w.exact = &litScan{l: sets, pos: pos, bytes: sets[pos].members()}
	return w
}

// find returns the start of the first occurrence of the literal in h at or
// after at, whatever surrounds it.
func (w *wordLit) find(h []byte, at int) (int, bool) {
	if at > len(h) {
		return 0, false
	}
	if w.plain != nil {
		i := bytes.Index(h[at:], w.plain)
		if i < 0 {
			return 0, false
		}
		return at + i, true
	}
	return w.exact.find(h, at, len(h))
}

// bounded reports whether h[s:e] stands between the half word boundaries
// the VM evaluates (assertOK): in Unicode mode a neighbour that does not
// decode as UTF-8 fails them, as in rg 15.
func (w *wordLit) bounded(h []byte, s, e int) bool {
	return startHalf(h, s, w.uni) && endHalf(h, e, w.uni)
}

// startHalf reports whether \b{start-half} holds at s in h: no word
// character ends there (with uni, Unicode word characters, and a byte that
// does not decode as UTF-8 fails it).
func startHalf(h []byte, s int, uni bool) bool {
	if s == 0 {
		return true
	}
	c := h[s-1]
	if !uni || c < utf8.RuneSelf {
		return !isASCIIWord(c)
	}
	r, n := utf8.DecodeLastRune(h[:s])
	return !(r == utf8.RuneError && n <= 1 || isUniWord(r))
}

// endHalf reports whether \b{end-half} holds at e in h: no word character
// starts there (as startHalf).
func endHalf(h []byte, e int, uni bool) bool {
	if e == len(h) {
		return true
	}
	c := h[e]
	if !uni || c < utf8.RuneSelf {
		return !isASCIIWord(c)
	}
	r, n := utf8.DecodeRune(h[e:])
	return !(r == utf8.RuneError && n <= 1 || isUniWord(r))
}

// next returns the first -w match in h at or after at: occurrences that
// fail the boundaries are passed over one byte at a time, as the regex
// tries every start.
func (w *wordLit) next(h []byte, at int) (int, int, bool) {
	for at <= len(h) {
		s, ok := w.find(h, at)
		if !ok {
			return 0, 0, false
		}
		if w.bounded(h, s, s+w.n) {
			return s, s + w.n, true
		}
		at = s + 1
	}
	return 0, 0, false
}
