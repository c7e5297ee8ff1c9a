package rank

// compounds adds to a natural-language query the index's terms that join
// two of its words, at least one of them contracted, in either order, as
// C names its functions: "compare two strings" meets strcmp (str, cmp),
// "copy a block of memory" memcpy (mem, cpy), "open a directory" opendir
// (open, dir), "find a substring in a string" strstr. A compound term
// stands for both words (coverage, name evidence) at p.Compound of a
// word's weight. The contractions here are a word's prefixes of 3
// letters or more (up to abbrevPrefixShare of it) and its first letter
// with two of its later consonants in order (wordForms); they need not
// be terms themselves (cpy is only ever written inside memcpy, strcpy):
// the compound must be a term of the index, which is what makes it
// evidence. Two whole words joined (token buffer → tokenbuffer) are
// left out: on the dev splits they cost more than they gave.
func (ix *Index) compounds(q *Query, p *Params) {
	if p.Compound == 0 || q.Symbol || len(q.Terms) < 2 {
		return
	}
	bits := q.wordBits()
	consistent := len(q.termBits) == len(q.Terms)
	type word struct {
		bit   uint64
		forms []string
	}
	var words []word
	have := make(map[string]bool, len(q.Terms))
	for ti, qt := range q.Terms {
		have[qt.Term] = true
		if qt.Weight < 1 || bits[ti] == 0 || !lowerLetters(qt.Term) || len(qt.Term) < 2 {
			continue
		}
		words = append(words, word{bits[ti], wordForms(qt.Term)})
	}
	added := 0
	for i := range words {
		for j := range words {
			if words[i].bit == words[j].bit {
				continue
			}
			for _, a := range words[i].forms {
				for _, b := range words[j].forms {
					t := a + b
					if a == words[i].forms[0] && b == words[j].forms[0] {
						continue // two whole words: a contraction makes the C name
					}
					if len(t) < minCompound || have[t] || added >= maxCompounds || len(q.Terms) >= MaxQueryTerms {
						continue
					}
					if _, ok := ix.lookupTerm(t); !ok {
						continue
					}
					have[t] = true
					added++
					q.Terms = append(q.Terms, QueryTerm{t, p.Compound})
					if consistent {
						q.termBits = append(q.termBits, words[i].bit|words[j].bit)
					}
				}
			}
		}
	}
}

// wordForms are w (first) and its contractions for compounds: its
// prefixes of minForm letters up to abbrevPrefixShare of it (at most
// maxAbbrev), and its first letter followed by two of its later
// consonants in order (cmp, cpy, msg).
func wordForms(w string) []string {
	forms := []string{w}
	for n := minForm; n < len(w) && n <= maxAbbrev && float64(n) <= abbrevPrefixShare*float64(len(w)); n++ {
		forms = append(forms, w[:n])
	}
	if len(w) < 4 {
		return forms
	}
	seen := map[string]bool{}
	for _, f := range forms {
		seen[f] = true
	}
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			forms = append(forms, f)
		}
	}
	for i := 1; i < len(w); i++ {
		if vowel(w[i]) {
			continue
		}
		for j := i + 1; j < len(w); j++ {
			if !vowel(w[j]) {
				add(w[:1] + w[i:i+1] + w[j:j+1])
			}
		}
	}
	return forms
}
