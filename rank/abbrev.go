package rank

import (
	"math/bits"
	"sort"
	"strings"
)

// abbreviations adds to a natural-language query the index's terms that
// are contractions of its words, each at p.Abbrev of the word's weight
// and counted as that word (coverage, name evidence): "comparison" meets
// the cmp of a C project's qsort, "buffer" buf, "configuration" config.
// What is abbreviated is learned from the index's own dictionary: a term
// is a contraction of word w when it starts with w's first letter and is
// either a short prefix of w (at most abbrevPrefixShare of it: str for
// string, alloc for allocation, not pars for parser) or w's first letter
// followed by consonants of w in order (cmp, cpy, msg, ctx); the index
// uses it in more chunks than w itself (the project writes it so); and it
// shares chunks with w's family (the terms that start with w's first
// five letters: compare, comparison) at least minAbbrevLift times as
// often as chance would (cooccurring), which leaves out the contractions
// that belong to other words (exp, the math function, for expression).
// The contractions met most often are kept, at most maxAbbrevs a word.
// Only a word that fewer than maxAbbrevWordDF chunks hold is expanded: a
// word met often enough on its own has its evidence, and there the
// contraction's other chunks only compete with it (stmt for statement,
// nat for natural in GOROOT).
func (ix *Index) abbreviations(q *Query, p *Params) {
	if p.Abbrev == 0 || q.Symbol || len(q.Terms) == 0 {
		return
	}
	words := q.wordBits()
	consistent := len(q.termBits) == len(q.Terms)
	have := make(map[string]bool, len(q.Terms))
	for _, qt := range q.Terms {
		have[qt.Term] = true
	}
	n := len(q.Terms)
	for ti := 0; ti < n; ti++ {
		qt := q.Terms[ti]
		w := qt.Term
		if qt.Weight < 1 || len(w) < minAbbrevWord || !lowerLetters(w) {
			continue
		}
		wdf := 0
		if id, ok := ix.lookupTerm(w); ok {
			wdf = ix.df(id)
		}
		if wdf >= maxAbbrevWordDF {
			continue // the word is met often enough on its own
		}
		var cs []cand
		ix.eachTermFrom(w[:1], func(id uint32, t []byte) bool {
			if t[0] != w[0] {
				return false
			}
			if contraction(t, w) && !have[string(t)] && !IsStopWord(string(t)) {
				if df := ix.df(id); df > wdf {
					cs = append(cs, cand{string(t), df})
				}
			}
			return true
		})
		if len(cs) == 0 {
			continue
		}
		cs = ix.cooccurring(w, cs)
		sort.Slice(cs, func(a, b int) bool { return cs[a].df > cs[b].df || cs[a].df == cs[b].df && cs[a].term < cs[b].term })
		for _, c := range cs[:min(len(cs), maxAbbrevs)] {
			if len(q.Terms) >= MaxQueryTerms {
				return
			}
			have[c.term] = true
			q.Terms = append(q.Terms, QueryTerm{c.term, p.Abbrev * qt.Weight})
			if consistent {
				q.termBits = append(q.termBits, words[ti])
			}
		}
	}
}

// contraction reports whether term a abbreviates word w (both lower-case
// letters): a starts with w's first letter and is a prefix of w of at
// least minAbbrev letters and at most abbrevPrefixShare of w, or w's
// first letter and then consonants of w's in their order.
func contraction(a []byte, w string) bool {
	if len(a) < minAbbrev || len(a) > maxAbbrev || len(a) >= len(w) || a[0] != w[0] || !lowerLetters(a) {
		return false
	}
	if strings.HasPrefix(w, string(a)) {
		return float64(len(a)) <= abbrevPrefixShare*float64(len(w))
	}
	j := 1
	for i := 1; i < len(a); i++ {
		if vowel(a[i]) {
			return false
		}
		for j < len(w) && w[j] != a[i] {
			j++
		}
		if j == len(w) {
			return false
		}
		j++
	}
	return true
}

func vowel(c byte) bool { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' }

func lowerLetters[S string | []byte](s S) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return true
}

// eachTermFrom calls fn with the index's terms from the first one >= from
// in sorted order until fn returns false.
func (ix *Index) eachTermFrom(from string, fn func(id uint32, t []byte) bool) {
	n := ix.terms()
	i := sort.Search(n, func(i int) bool { return string(ix.termOff.span(ix.termBlob, i)) >= from })
	for ; i < n; i++ {
		if !fn(uint32(i), ix.termOff.span(ix.termBlob, i)) {
			return
		}
	}
}

type cand struct {
	term string
	df   int
}

// cooccurring keeps the candidates that share chunks with w's family
// more often than chance: at least one chunk, and minAbbrevLift times
// the chunks that independent terms of their frequencies would share.
func (ix *Index) cooccurring(w string, cs []cand) []cand {
	fam, nFam := ix.familyChunks(w)
	if nFam == 0 {
		return nil
	}
	k := 0
	for _, c := range cs {
		id, _ := ix.lookupTerm(c.term)
		co := 0
		ix.postings(id, func(ch, _ uint32) { co += int(fam[ch/64] >> (ch % 64) & 1) })
		if co > 0 && float64(co)*float64(ix.nChunks) >= minAbbrevLift*float64(c.df)*float64(nFam) {
			cs[k] = c
			k++
		}
	}
	return cs[:k]
}

// familyChunks is the set (a bit a chunk) and the number of the chunks
// that hold a term starting with w's first five letters (w's family).
func (ix *Index) familyChunks(w string) ([]uint64, int) {
	stem := w[:min(len(w), 5)]
	set := make([]uint64, (ix.nChunks+63)/64)
	ix.eachTermFrom(stem, func(id uint32, t []byte) bool {
		if !strings.HasPrefix(string(t), stem) {
			return false
		}
		ix.postings(id, func(c, _ uint32) { set[c/64] |= 1 << (c % 64) })
		return true
	})
	n := 0
	for _, x := range set {
		n += bits.OnesCount64(x)
	}
	return set, n
}
