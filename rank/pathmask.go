package rank

import "sort"

// pathMasker computes q.pathMask(pathTokens(path)) for many paths of one
// query without tokenizing each: a path's tokens are the union of the
// tokens of its runs of word characters (Tokens splits nothing across a
// run's ends), and the runs repeat from path to path (folder names), so
// each distinct run is tokenized once and its mask remembered.
type pathMasker struct {
	q     *Query
	words []uint64
	runs  map[string]uint64
	z     tokenizer
}

func newPathMasker(q *Query) *pathMasker {
	return &pathMasker{q: q, words: q.wordBits(), runs: make(map[string]uint64, 256)}
}

// mask is the set of query words (bits by word index) that a token of
// path's text holds: q.pathMask(pathTokens(path)).
func (pm *pathMasker) mask(path string) uint64 {
	var m uint64
	eachRun([]byte(pathText(path)), func(w []byte) {
		rm, ok := pm.runs[string(w)]
		if !ok {
			rm = pm.runMask(w)
			pm.runs[string(w)] = rm
		}
		m |= rm
	})
	return m
}

// runMask is the mask of one run's tokens.
func (pm *pathMasker) runMask(w []byte) uint64 {
	var m uint64
	pm.z.word(w, func(t []byte, _ int) {
		for ti, qt := range pm.q.Terms {
			if qt.Term == string(t) {
				m |= pm.words[ti]
			}
		}
	})
	return m
}

// pathTokens are the sorted distinct tokens of a path's text.
func pathTokens(path string) []string {
	var out []string
	Tokens(pathText(path), func(t string, _ int) { out = append(out, t) })
	sort.Strings(out)
	k := 0
	for i, t := range out {
		if i == 0 || t != out[k-1] {
			out[k] = t
			k++
		}
	}
	return out[:k]
}

// pathMask is the set of query words (bits by word index) that a term of
// the path holds.
func (q *Query) pathMask(toks []string) uint64 {
	var m uint64
	words := q.wordBits()
	for ti, qt := range q.Terms {
		b := words[ti]
		if b == 0 || m&b == b {
			continue
		}
		i := sort.SearchStrings(toks, qt.Term)
		if i < len(toks) && toks[i] == qt.Term {
			m |= b
		}
	}
	return m
}
