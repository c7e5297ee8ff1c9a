package matcher

import (
	"bytes"

	"github.com/evgrep/evgrep/matcher/internal/litset"
)

// Many literals with -w or -x (-f with a word list) are answered without a
// regex engine, as many plain literals are (m.lits): the VM, RE2 and the
// prefilter all grow with the alternation, and each line cost a pass of
// the VM over tens of thousands of alternatives.
//
// -w: rg 15's \b{start-half}(?:l1|l2|…)\b{end-half} matches at the
// leftmost start where no word character ends and some literal occurs
// with no word character starting after it, and there takes the
// first-listed such literal. The multi-literal automaton finds the
// earliest end of any occurrence; every occurrence at or after the
// search's start begins within the longest literal's length before that
// end, so those starts are checked one by one against the trie (wordSet).
//
// -x: rg's ^(?:l1|l2|…)$ matches a line exactly when the line is one of
// the literals (lineSet): the match is the whole line.

// litWordSets enables the two sets (tests turn it off to compare them
// with the VM).
var litWordSets = true

// wordSet answers -w for an alternation of plain literals.
type wordSet struct {
	set *litset.Set
	uni bool // Unicode word characters (else ASCII, --no-unicode)
}

// next returns the first -w match in h at or after at.
func (w *wordSet) next(h []byte, at int) (int, int, bool) {
	end := func(e int) bool { return endHalf(h, e, w.uni) }
	for at < len(h) {
		e := w.set.FirstEnd(h, at)
		if e < 0 {
			return 0, 0, false
		}
		for p := max(at, e-w.set.MaxLen()); p < e; p++ {
			if !startHalf(h, p, w.uni) {
				continue
			}
			if n := w.set.FirstAt(h, p, end); n >= 0 {
				return p, p + n, true
			}
		}
		// Every start before e is checked: none ends before e, and those
		// that end after it were walked in the trie.
		at = e
	}
	return 0, 0, false
}

// lineSet answers -x for an alternation of plain literals: a line matches
// when it equals one of them.
type lineSet struct {
	lines          map[string]struct{}
	minLen, maxLen int
	term           byte
}

// newLineSet returns the set of lits.
func newLineSet(lits [][]byte, term byte) *lineSet {
	l := &lineSet{lines: make(map[string]struct{}, len(lits)), minLen: len(lits[0]), term: term}
	for _, b := range lits {
		l.lines[string(b)] = struct{}{}
		l.minLen = min(l.minLen, len(b))
		l.maxLen = max(l.maxLen, len(b))
	}
	return l
}

// has reports whether line is one of the literals.
func (l *lineSet) has(line []byte) bool {
	if len(line) < l.minLen || len(line) > l.maxLen {
		return false
	}
	_, ok := l.lines[string(line)]
	return ok
}

// next returns the first line of h that starts at or after at and is one
// of the literals (its bounds without the terminator).
func (l *lineSet) next(h []byte, at int) (int, int, bool) {
	ls := at
	if at > 0 && h[at-1] != l.term {
		i := bytes.IndexByte(h[at:], l.term)
		if i < 0 {
			return 0, 0, false
		}
		ls = at + i + 1
	}
	for ls < len(h) {
		le := lineEnd(h, ls, l.term)
		if l.has(h[ls:le]) {
			return ls, le, true
		}
		ls = le + 1
	}
	return 0, 0, false
}

// setFor returns, when -w or -x applies to an alternation of at least
// minLitSet plain literals (h, before -x's anchors), the set that
// answers for it alone.
func setFor(h *hir, o Options) (*wordSet, *lineSet) {
	if !litWordSets || !o.Word && !o.Line || o.Multiline || o.CRLF || h.kind != hAlt || len(h.subs) < minLitSet {
		return nil, nil
	}
	if o.Line && o.LineTerminator != '\n' {
		return nil, nil
	}
	lits, ok := altLiterals(h.subs)
	if !ok {
		return nil, nil
	}
	for _, l := range lits {
		if bytes.IndexByte(l, o.LineTerminator) >= 0 || bytes.IndexByte(l, '\n') >= 0 {
			return nil, nil
		}
	}
	if o.Line {
		// -x wins over -w (rg's flags override each other; both at once
		// would be the same: a line's ends are half word boundaries).
		return nil, newLineSet(lits, o.LineTerminator)
	}
	return &wordSet{set: litset.New(lits), uni: !o.NoUnicode}, nil
}

// setFind is findAt for a wordSet or a lineSet.
func (m *Matcher) setFind(h []byte, at int, caps []int) (int, int, bool) {
	var s, e int
	var ok bool
	if m.wordSet != nil {
		s, e, ok = m.wordSet.next(h, at)
	} else {
		s, e, ok = m.lineSet.next(h, at)
	}
	if ok && caps != nil {
		caps[0], caps[1] = s, e
	}
	return s, e, ok
}

// compileLitWords compiles -w or -x of many plain literals (plainLiterals)
// without parsing their alternation, which took most of the time and
// memory of such a search: the pattern's HIR is made from the literals
// as the parser and translator make it (TestLitWordsHIR), rg's size rule
// is checked on it, and the set answers. ok is false when o is not such
// a search.
func compileLitWords(o Options) (m *Matcher, ok bool, err error) {
	if !litWordSets || !o.Word && !o.Line || o.Multiline || o.CRLF || o.Line && o.LineTerminator != '\n' {
		return nil, false, nil
	}
	lits, ok := plainLiterals(o)
	if !ok {
		return nil, false, nil
	}
	inner := literalAlt(lits)
	h := inner
	if o.Line {
		h = lineWrap(h)
	}
	limit := o.SizeLimit
	if limit <= 0 {
		limit = DefaultSizeLimit
	}
	if _, err := checkRgSize(h, o.Word, limit); err != nil {
		return nil, true, err
	}
	ws, ls := setFor(inner, o)
	if ws == nil && ls == nil {
		return nil, false, nil
	}
	m = &Matcher{term: o.LineTerminator, word: o.Word, names: map[string]int{}, wordSet: ws, lineSet: ls}
	return m, true, nil
}

// literalAlt is the HIR of the alternation of lits (valid UTF-8, case
// sensitive, Unicode mode): per literal one hLit per character, in a
// concatenation when there are several.
func literalAlt(lits [][]byte) *hir {
	alt := &hir{kind: hAlt, subs: make([]*hir, len(lits))}
	for i, l := range lits {
		var subs []*hir
		for _, r := range string(l) {
			subs = append(subs, &hir{kind: hLit, r: r})
		}
		if len(subs) == 1 {
			alt.subs[i] = subs[0]
		} else {
			alt.subs[i] = &hir{kind: hConcat, subs: subs}
		}
	}
	return alt
}
