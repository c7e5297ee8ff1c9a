package matcher

import (
	"bytes"
	"unicode"

	"github.com/evgrep/evgrep/matcher/internal/litset"
)

// TermRange is one occurrence of one term of a TermSet in a line: the
// term's index and its byte range in the line.
type TermRange struct {
	Term       int
	Start, End int
}

// TermSet searches a list of literal terms at once (the agent's and the
// CLI's multi-term search): Lines finds the lines that hold any term, as
// rg -F -e t1 … -e tn would, and Each lists every occurrence of every
// term in such a line in one pass of a multi-literal automaton
// (internal/litset). Each term's occurrences are its own, as a search for
// that term alone finds them (non-overlapping, leftmost first);
// occurrences of different terms may overlap. It is safe for concurrent
// use.
type TermSet struct {
	terms [][]byte
	fold  []bool // per term: letter case ignored
	// all answers the terms with auto set; with ASCII folding (allFold)
	// when some term folds, so that a case-sensitive term's candidates
	// are checked byte for byte.
	all     *litset.All
	allFold bool
	auto    []bool
	idx     []int // the automaton's literal k is term idx[k]
	// own[i] is term i's own matcher when it folds: it answers the term
	// on lines that are not ASCII (Unicode simple case folding), and on
	// every line when the term itself is not ASCII.
	own   []*Matcher
	lines *Matcher
	// slot[i] is term i's place in the per-line record of previous ends
	// when the term can overlap itself ("aa", "abab"), else -1: only such
	// terms need it to keep their occurrences apart. nslot counts them.
	slot  []int
	nslot int
}

// TermFolds reports whether term is searched case-insensitively under
// mode, with rg's smart-case rule (-S) applied to the term alone: it
// folds when it has no uppercase letter.
func TermFolds(term string, mode CaseMode) bool {
	switch mode {
	case Insensitive:
		return true
	case Smart:
		for _, r := range term {
			if uniUpperClass().contains(r) {
				return false
			}
		}
		return term != ""
	}
	return false
}

// CompileTerms compiles terms (non-empty, no line terminator; the caller
// validates them), each case-insensitive when TermFolds says so under
// mode.
func CompileTerms(terms []string, mode CaseMode) (*TermSet, error) {
	t := &TermSet{
		terms: make([][]byte, len(terms)),
		fold:  make([]bool, len(terms)),
		auto:  make([]bool, len(terms)),
		own:   make([]*Matcher, len(terms)),
	}
	var autoLits [][]byte
	anyFold, allFold := false, true
	for i, s := range terms {
		t.terms[i] = []byte(s)
		t.fold[i] = TermFolds(s, mode) && hasCaseFold(s)
		anyFold = anyFold || t.fold[i]
		allFold = allFold && t.fold[i]
		if t.fold[i] {
			m, err := Compile(Options{Patterns: []string{s}, Fixed: true, Case: Insensitive, LineTerminator: '\n'})
			if err != nil {
				return nil, err
			}
			t.own[i] = m
		}
		t.slot = append(t.slot, -1)
		if selfOverlaps(t.terms[i], t.fold[i]) {
			t.slot[i] = t.nslot
			t.nslot++
		}
		t.auto[i] = !t.fold[i] || isASCII(t.terms[i])
		if t.auto[i] {
			autoLits = append(autoLits, t.terms[i])
			t.idx = append(t.idx, i)
		}
	}
	t.allFold = anyFold
	if len(autoLits) > 0 {
		t.all = litset.NewAll(autoLits, anyFold)
	}
	// The line finder: the alternation of the terms, each with its own
	// case rule.
	o := Options{LineTerminator: '\n'}
	switch {
	case !anyFold:
		o.Patterns, o.Fixed = terms, true
	case allFold:
		o.Patterns, o.Fixed, o.Case = terms, true, Insensitive
	default:
		for i, s := range terms {
			p := escapeLiteral(s)
			if t.fold[i] {
				p = "(?i:" + p + ")"
			}
			o.Patterns = append(o.Patterns, p)
		}
	}
	m, err := Compile(o)
	if err != nil {
		return nil, err
	}
	t.lines = m
	return t, nil
}

// selfOverlaps reports whether two occurrences of term can overlap: a
// proper prefix of it is also its suffix (compared with ASCII letters
// folded when fold; a folded non-ASCII term is answered by its own
// matcher, which keeps its occurrences apart itself).
func selfOverlaps(term []byte, fold bool) bool {
	eq := bytes.Equal
	if fold {
		eq = bytes.EqualFold
	}
	for k := 1; k < len(term); k++ {
		if eq(term[:k], term[len(term)-k:]) {
			return true
		}
	}
	return false
}

// hasCaseFold reports whether some character of s has another case.
func hasCaseFold(s string) bool {
	for _, r := range s {
		if unicode.SimpleFold(r) != r {
			return true
		}
	}
	return false
}

// Len returns the number of terms.
func (t *TermSet) Len() int { return len(t.terms) }

// Folds reports whether term i ignores letter case.
func (t *TermSet) Folds(i int) bool { return t.fold[i] }

// Lines returns the matcher of the lines that hold any term (the
// pipeline's matcher for a multi-term search).
func (t *TermSet) Lines() *Matcher { return t.lines }

// Each calls fn with every occurrence of every term in line (without
// its terminator): per term, the occurrences a search for that term
// alone finds, left to right; across terms in no set order (sort what is
// kept). It stops when fn returns false.
func (t *TermSet) Each(line []byte, fn func(TermRange) bool) {
	var lastBuf [8]int
	last := lastBuf[:0]
	for range t.nslot {
		last = append(last, 0)
	}
	ascii := !t.allFold || isASCII(line)
	stopped := false
	if t.all != nil {
		idx := t.idx
		t.all.Each(line, func(k, end int) bool {
			i := idx[k]
			n := len(t.terms[i])
			start := end - n
			sl := t.slot[i]
			switch {
			case sl >= 0 && start < last[sl]:
				return true // overlaps the term's previous occurrence
			case t.fold[i] && !ascii:
				return true // its own matcher answers below
			case t.allFold && !t.fold[i] && !bytes.Equal(line[start:end], t.terms[i]):
				return true
			}
			if sl >= 0 {
				last[sl] = end
			}
			if !fn(TermRange{Term: i, Start: start, End: end}) {
				stopped = true
				return false
			}
			return true
		})
	}
	if stopped {
		return
	}
	for i, m := range t.own {
		if m == nil || t.auto[i] && ascii {
			continue
		}
		m.EachOccurrenceIn(line, 0, len(line), func(r Range) bool {
			if !fn(TermRange{Term: i, Start: r.Start, End: r.End}) {
				stopped = true
			}
			return !stopped
		})
		if stopped {
			return
		}
	}
}
