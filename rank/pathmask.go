package rank

import "sort"

// pathMasker computes q.pathMask(pathTokens(path)) for many paths of one
// query without tokenizing each: a path's tokens are the union of the
// tokens of its runs of word characters (Tokens splits nothing across a
// run's ends), and the runs repeat from path to path (folder names), so
// each distinct run is tokenized once and its mask remembered.
type pathMasker struct {
	q     *Query
	words []int
	runs  map[string]uint64
	z     tokenizer
}

func newPathMasker(q *Query) *pathMasker {
	return &pathMasker{q: q, words: q.wordIndex(), runs: make(map[string]uint64, 256)}
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
			if wi := pm.words[ti]; wi >= 0 && wi < 64 && qt.Term == string(t) {
				m |= 1 << uint(wi)
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
	words := q.wordIndex()
	for ti, qt := range q.Terms {
		w := words[ti]
		if w < 0 || w >= 64 || m&(1<<uint(w)) != 0 {
			continue
		}
		i := sort.SearchStrings(toks, qt.Term)
		if i < len(toks) && toks[i] == qt.Term {
			m |= 1 << uint(w)
		}
	}
	return m
}
