package rank

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Query is a parsed query.
type Query struct {
	// Terms are the scored terms with their weights, in first-seen order.
	Terms []QueryTerm
	// Symbol is true when the query looks like identifiers ("RouteContext",
	// "http.Server", "parse_args") rather than natural language.
	Symbol bool
	// Idents are the lower-cased identifiers the query names; a chunk
	// that defines one of them is boosted.
	Idents []string
	// words are the query's lower-case stemmed words, for the path priors.
	words map[string]bool
	// termBits is, for each term, the query words it stands for (a bit
	// each, by word index; a term joined from two words has both);
	// nWords is how many words gave terms.
	termBits []uint64
	nWords   int
}

// wordBits is termBits, or no words for each term of a query made
// without them (Related).
func (q *Query) wordBits() []uint64 {
	if len(q.termBits) == len(q.Terms) {
		return q.termBits
	}
	return make([]uint64, len(q.Terms))
}

// wordBit is the bit of word w (none past the 64th).
func wordBit(w int) uint64 {
	if w < 0 || w >= 64 {
		return 0
	}
	return 1 << uint(w)
}

func (q *Query) wordCount() int { return q.nWords }

// QueryTerm is one term of a query and its weight.
type QueryTerm struct {
	Term   string
	Weight float64
}

// ParseQuery reads a query: words split as Tokens splits text, stop words
// left out of natural-language words, identifiers recognised by their
// shape. p.PartWeight weighs the pieces of a compound against the whole.
func ParseQuery(q string, p *Params) Query {
	if len(q) > MaxQueryBytes {
		q = q[:MaxQueryBytes]
	}
	var out Query
	out.words = map[string]bool{}
	fields := strings.FieldsFunc(q, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == '"' || r == '\'' || r == '?' })
	fields = dropFrame(fields)
	symbols := 0
	weights := map[string]float64{}
	fromWord := map[string]int{}
	var order []string
	addTerm := func(t string, w float64) {
		if _, ok := fromWord[t]; !ok {
			fromWord[t] = out.nWords
		}
		if old, ok := weights[t]; ok {
			if w > old {
				weights[t] = w
			}
			return
		}
		if len(order) >= MaxQueryTerms {
			return
		}
		weights[t] = w
		order = append(order, t)
	}
	for _, f := range fields {
		sym := symbolLike(f)
		if sym {
			symbols++
			out.Idents = append(out.Idents, identsOf(f)...)
		}
		if !sym && IsStopWord(strings.ToLower(strings.Trim(f, ".:;!()[]{}"))) {
			continue
		}
		gave := false
		Tokens(f, func(t string, kind int) {
			if !sym && IsStopWord(t) {
				return
			}
			gave = true
			out.words[t] = true
			if kind == Part {
				addTerm(t, p.PartWeight)
			} else {
				addTerm(t, 1)
			}
		})
		if gave {
			out.nWords++
		}
	}
	out.Symbol = len(fields) > 0 && (len(fields) == 1 || 2*symbols >= len(fields))
	if out.Symbol && len(fields) == 1 && len(out.Idents) == 0 {
		// One plain word ("tokenize") is read as the name it may be.
		out.Idents = append(out.Idents, identsOf(fields[0])...)
	}
	for _, t := range order {
		out.Terms = append(out.Terms, QueryTerm{t, weights[t]})
		out.termBits = append(out.termBits, wordBit(fromWord[t]))
	}
	return out
}

// symbolLike reports whether a query word is shaped like an identifier:
// an upper-case letter after a lower-case one (camelCase, PascalCase), an
// underscore or "::" or "." between word characters, or a call's "()".
func symbolLike(w string) bool {
	w = strings.TrimRight(w, ".:;!")
	if strings.HasSuffix(w, "()") || strings.Contains(w, "::") {
		return true
	}
	lower := false
	for i, r := range w {
		switch {
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r) && lower:
			return true
		case r == '_' && i > 0 && i < len(w)-1:
			return true
		case r == '.' && i > 0 && i < len(w)-1:
			next, _ := utf8.DecodeRuneInString(w[i+1:])
			if isWord(next) {
				return true
			}
		}
	}
	// ALLCAPS words of three letters or more are constants ("EOF", "MAX_SIZE" above).
	return !lower && utf8.RuneCountInString(w) >= 3 && strings.IndexFunc(w, unicode.IsUpper) == 0 && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsUpper(r) && !unicode.IsDigit(r) }) < 0
}

// identsOf returns the lower-cased identifiers a word names: the last
// component of a qualified name ("http.Server" → "server") and a call's
// name without "()".
func identsOf(w string) []string {
	w = strings.Trim(w, ".:;!()[]{}<>*&")
	if w == "" {
		return nil
	}
	w = strings.ReplaceAll(w, "::", ".")
	parts := strings.Split(w, ".")
	last := strings.ToLower(parts[len(parts)-1])
	if last == "" {
		return nil
	}
	return []string{last}
}

// mentions reports whether the query has one of words (stemmed).
func (q *Query) mentions(words ...string) bool {
	for _, w := range words {
		if q.words[w] {
			return true
		}
	}
	return false
}

// frameEnds are the last words of a question's frame: "how does the
// cache work", "where is a timeout handled", "what happens when a
// request fails" ask about the cache, a timeout, a request failing, and
// these words match code everywhere.
var frameEnds = map[string]bool{"work": true, "works": true, "handled": true, "happen": true, "happens": true}

// dropFrame leaves out the last word of a question ("how", "where",
// "what", "why" first) when it only closes the frame.
func dropFrame(fields []string) []string {
	if len(fields) < 4 {
		return fields
	}
	switch strings.ToLower(fields[0]) {
	case "how", "where", "what", "why":
	default:
		return fields
	}
	if last := strings.ToLower(strings.TrimRight(fields[len(fields)-1], ".!")); frameEnds[last] {
		return fields[:len(fields)-1]
	}
	return fields
}
