package rank

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Token kinds that Tokens reports to its callback.
const (
	// Whole is a compound identifier as written, lower-cased
	// ("routecontext" for RouteContext), or a single word.
	Whole = iota
	// Part is one piece of a compound identifier ("route", "context").
	Part
)

// Tokens splits text into identifier-aware tokens and calls emit for each,
// in order: for every run of letters, digits and underscores (with inner
// hyphens, for kebab-case) it emits the run lower-cased as Whole, then,
// when the run is a compound (camelCase, PascalCase, snake_case,
// kebab-case, letters and digits), each of its pieces as Part. Pieces and
// single words are stemmed lightly (Stem); a compound is kept as written.
// Tokens longer than MaxTokenBytes are cut.
func Tokens(text string, emit func(tok string, kind int)) {
	i := 0
	for i < len(text) {
		r, n := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(text[i:])
		}
		if !isWord(r) {
			i += n
			continue
		}
		j := i + n
		for j < len(text) {
			r, n := rune(text[j]), 1
			if r >= utf8.RuneSelf {
				r, n = utf8.DecodeRuneInString(text[j:])
			}
			if isWord(r) {
				j += n
				continue
			}
			// kebab-case: a hyphen between two word characters.
			if r == '-' && j+1 < len(text) && isASCIIAlnum(text[j+1]) && isASCIIAlnum(text[j-1]) {
				j++
				continue
			}
			break
		}
		word(text[i:j], emit)
		i = j
	}
}

func isWord(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIIAlnum(byte(r)) || r == '_'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isASCIIAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// word emits one run: the whole, then its parts.
func word(w string, emit func(string, int)) {
	if plainLower(w) {
		// The common case ("err", "return"): one lower-case ASCII word,
		// nothing to split or lower.
		emit(Stem(cut(w)), Whole)
		return
	}
	var buf [16]string
	parts := splitParts(w, buf[:0])
	if len(parts) <= 1 {
		t := strings.ToLower(strings.Trim(w, "_-"))
		if t == "" {
			return
		}
		emit(Stem(cut(t)), Whole)
		return
	}
	emit(cut(strings.ToLower(w)), Whole)
	for _, p := range parts {
		emit(Stem(cut(strings.ToLower(p))), Part)
	}
}

// cut bounds a token at MaxTokenBytes on a rune boundary.
func cut(t string) string {
	if len(t) <= MaxTokenBytes {
		return t
	}
	k := MaxTokenBytes
	for k > 0 && !utf8.RuneStart(t[k]) {
		k--
	}
	return t[:k]
}

// plainLower reports whether w is only lower-case ASCII letters.
func plainLower(w string) bool {
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return false
		}
	}
	return len(w) > 0
}

// splitParts appends to parts the pieces of identifier w: it splits at
// underscores and hyphens, at a lower-to-upper change (fooBar), before the last capital of a run of
// capitals followed by a lower-case letter (HTTPServer: HTTP, Server),
// and between letters and digits (utf16 → utf, 16).
func splitParts(w string, parts []string) []string {
	start := -1
	prev := 0 // class of the previous rune: 0 none, 1 lower, 2 upper, 3 digit
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, w[start:end])
		}
		start = -1
	}
	for i, r := range w {
		if r == '_' || r == '-' {
			flush(i)
			prev = 0
			continue
		}
		c := class(r)
		if start < 0 {
			start, prev = i, c
			continue
		}
		switch {
		case c == 2 && prev == 1, c == 3 && prev != 3, c != 3 && prev == 3:
			flush(i)
			start = i
		case c == 1 && prev == 2:
			// HTTPServer: the capital before this lower-case letter
			// starts the next part.
			k := i - 1
			for k > start && !utf8.RuneStart(w[k]) {
				k--
			}
			if k > start {
				flush(k)
				start = k
			}
		}
		prev = c
	}
	flush(len(w))
	return parts
}

func class(r rune) int {
	switch {
	case r >= '0' && r <= '9' || r >= utf8.RuneSelf && unicode.IsDigit(r):
		return 3
	case r >= 'A' && r <= 'Z' || r >= utf8.RuneSelf && unicode.IsUpper(r):
		return 2
	}
	return 1
}

// Stem removes common English inflections from a lower-case word so that
// "parses", "parsed", "parsing" and "parse" meet ("pars"): plural -s/-es/-ies,
// -ing and -ed (undoubling a final consonant), then a final -e. Words of
// three letters or fewer, and words with digits, are kept.
func Stem(w string) string {
	if len(w) <= 3 {
		return w
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; c < 'a' || c > 'z' {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) >= 5:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") && len(w) >= 4:
		w = w[:len(w)-1]
	}
	switch {
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ed") && len(w) >= 5:
		w = undouble(w[:len(w)-2])
	}
	if strings.HasSuffix(w, "e") && len(w) >= 5 {
		w = w[:len(w)-1]
	}
	return w
}

// undouble turns "runn" into "run" (but keeps "ll", "ss" and "zz").
func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] {
		switch w[n-1] {
		case 'l', 's', 'z', 'a', 'e', 'i', 'o', 'u':
			return w
		}
		return w[:n-1]
	}
	return w
}

// stopWords are left out of queries (never out of documents): English
// function words and the question words of a request for code.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the of in on at to for from by with
		and or not is are be been was were it its this that these those there
		how where what which who whom why when does do did can could should would
		i we you my our me find show code function functions method methods implementation
		implemented implement defined define definition
		into as if than then so such any all some each use used using via`) {
		stopWords[w] = true
	}
}

// IsStopWord reports whether the lower-case word w is left out of queries.
func IsStopWord(w string) bool { return stopWords[w] }
