package rank

import (
	"bytes"
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
	var z tokenizer
	z.run([]byte(text), func(tok []byte, kind int) { emit(string(tok), kind) })
}

// run emits the tokens of text (see Tokens).
func (z *tokenizer) run(text []byte, emit func(tok []byte, kind int)) {
	eachRun(text, func(w []byte) { z.word(w, emit) })
}

// tokenizer is Tokens with a scratch buffer of its own: each token is
// lower-cased and stemmed into it and handed to emit as bytes that stay
// valid until emit returns, so that counting the terms of a file
// allocates only for the tokens it has not seen before.
type tokenizer struct {
	buf   []byte
	parts [][2]int
}

// eachRun calls fn for every run of letters, digits and underscores in
// text (with inner hyphens, for kebab-case), as written. ASCII bytes are
// classed by one table (runByte) in tight loops; only a byte of a
// multi-byte character is decoded (a call of isWord per byte was most
// of the scan's cost).
func eachRun(text []byte, fn func(w []byte)) {
	i, n := 0, len(text)
	for i < n {
		for i < n && runByte[text[i]] == runNone {
			i++
		}
		if i >= n {
			return
		}
		j := i + 1
		if text[i] >= utf8.RuneSelf {
			r, k := utf8.DecodeRune(text[i:])
			if !isWord(r) {
				i += k
				continue
			}
			j = i + k
		}
		for j < n {
			for j < n && runByte[text[j]] == runWord {
				j++
			}
			if j >= n {
				break
			}
			if c := text[j]; c < utf8.RuneSelf {
				// kebab-case: a hyphen between two ASCII letters or digits.
				if c == '-' && j+1 < n && isASCIIAlnum(text[j+1]) && isASCIIAlnum(text[j-1]) {
					j++
					continue
				}
				break
			}
			r, k := utf8.DecodeRune(text[j:])
			if !isWord(r) {
				break
			}
			j += k
		}
		fn(text[i:j])
		i = j
	}
}

// The classes of a byte for eachRun: none (an ASCII byte that is no word
// character), word (an ASCII letter, digit or underscore), or a byte of a
// multi-byte character (decoded to tell).
const (
	runNone = iota
	runWord
	runMulti
)

// runByte is each byte's class for eachRun.
var runByte = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= utf8.RuneSelf:
			t[c] = runMulti
		case isASCIIAlnum(byte(c)) || c == '_':
			t[c] = runWord
		}
	}
	return t
}()

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
func (z *tokenizer) word(w []byte, emit func([]byte, int)) {
	if plainLower(w) {
		// The common case ("err", "return"): one lower-case ASCII word,
		// nothing to split or lower.
		z.buf = append(z.buf[:0], cut(w)...)
		emit(stemBytes(z.buf), Whole)
		return
	}
	z.parts = splitParts(w, z.parts[:0])
	if len(z.parts) <= 1 {
		t := bytes.Trim(w, "_-")
		if len(t) == 0 {
			return
		}
		emit(stemBytes(z.lower(t)), Whole)
		return
	}
	emit(z.lower(w), Whole)
	for _, p := range z.parts {
		emit(stemBytes(z.lower(w[p[0]:p[1]])), Part)
	}
}

// lower writes w lower-cased and cut (MaxTokenBytes) into the scratch
// buffer and returns it.
func (z *tokenizer) lower(w []byte) []byte {
	z.buf = z.buf[:0]
	for _, c := range w {
		if c >= utf8.RuneSelf {
			// Unicode case mapping, as strings.ToLower does it.
			z.buf = append(z.buf[:0], cut(bytes.ToLower(w))...)
			return z.buf
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		z.buf = append(z.buf, c)
	}
	z.buf = cut(z.buf)
	return z.buf
}

// cut bounds a token at MaxTokenBytes on a rune boundary.
func cut(t []byte) []byte {
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
func plainLower(w []byte) bool {
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return len(w) > 0
}

// splitParts appends to parts the spans of the pieces of identifier w: it
// splits at underscores and hyphens, at a lower-to-upper change (fooBar),
// before the last capital of a run of capitals followed by a lower-case
// letter (HTTPServer: HTTP, Server), and between letters and digits
// (utf16 → utf, 16).
func splitParts(w []byte, parts [][2]int) [][2]int {
	start := -1
	prev := 0 // class of the previous rune: 0 none, 1 lower, 2 upper, 3 digit
	flush := func(end int) {
		if start >= 0 && end > start {
			parts = append(parts, [2]int{start, end})
		}
		start = -1
	}
	for i := 0; i < len(w); {
		r, n := rune(w[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(w[i:])
		}
		if r == '_' || r == '-' {
			flush(i)
			prev = 0
			i += n
			continue
		}
		c := class(r)
		if start < 0 {
			start, prev = i, c
			i += n
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
		i += n
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
	return string(stemBytes([]byte(w)))
}

// stemBytes is Stem on a word in a buffer of the caller's, which it may
// change (-ies becomes -y in place).
func stemBytes(w []byte) []byte {
	if len(w) <= 3 {
		return w
	}
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return w
		}
	}
	switch {
	case hasSuffix(w, "ies") && len(w) >= 5:
		w = append(w[:len(w)-3], 'y')
	case hasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case hasSuffix(w, "s") && !hasSuffix(w, "ss") && !hasSuffix(w, "us") && !hasSuffix(w, "is") && len(w) >= 4:
		w = w[:len(w)-1]
	}
	switch {
	case hasSuffix(w, "ing") && len(w) >= 6:
		w = undouble(w[:len(w)-3])
	case hasSuffix(w, "ed") && len(w) >= 5:
		w = undouble(w[:len(w)-2])
	}
	if hasSuffix(w, "e") && len(w) >= 5 {
		w = w[:len(w)-1]
	}
	return w
}

func hasSuffix(w []byte, suf string) bool {
	return len(w) >= len(suf) && string(w[len(w)-len(suf):]) == suf
}

// undouble turns "runn" into "run" (but keeps "ll", "ss" and "zz").
func undouble(w []byte) []byte {
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
