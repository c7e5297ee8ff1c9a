package pcre2

import (
	"strconv"
	"strings"

	"github.com/evgrep/evgrep/matcher"
)

// The prefilter: PCRE2 here has no JIT, so a line reaches it only when a
// regex in evgrep's own dialect (package matcher: literal scans and a
// lazy DFA) finds a match of an over-approximation of the pattern in the
// line. The over-approximation matches every line PCRE2 would match (and
// maybe more): assertions (look-around, anchors, \b, \K) are dropped,
// back-references match any text, atomic groups and possessive
// quantifiers become ordinary ones, and every class is widened to cover
// PCRE2's UCP meaning. A pattern using anything the translation does not
// know keeps no prefilter (every line goes to PCRE2, as before).

// overApprox translates a PCRE2 pattern into package matcher's dialect,
// matching a superset of what it matches within one line. ok is false
// when the pattern uses a construct the translation does not handle;
// caseless reports an inline (?i) somewhere (the whole translation must
// then be compiled caseless).
func overApprox(p string) (out string, caseless, ok bool) {
	t := translator{p: p}
	t.alt()
	if t.bad || t.i != len(p) || t.depth != 0 {
		return "", false, false
	}
	if t.inlineI && t.negated {
		// The translation is compiled caseless as a whole, which would
		// widen a negated class outside the flag's scope: refused.
		return "", false, false
	}
	return t.b.String(), t.caseless, true
}

// anyChar is a superset of any one character of a line.
const anyChar = `[^\n]`

// translator is overApprox's recursive-descent state.
type translator struct {
	p        string
	i        int
	b        strings.Builder
	bad      bool
	caseless bool
	depth    int
	inlineI  bool // an inline flag group sets or clears i
	negated  bool // a negated class was kept as one
}

// alt translates an alternation up to ')' or the end.
// braced reports whether a {…} argument starts at j, and where it ends
// (past the '}'; j itself when there is none); ok is false for one that
// is never closed.
func (t *translator) braced(j int) (end int, braced, ok bool) {
	if j >= len(t.p) || t.p[j] != '{' {
		return j, false, true
	}
	k := strings.IndexByte(t.p[j:], '}')
	if k < 0 {
		return j, true, false
	}
	return j + k + 1, true, true
}

func (t *translator) alt() {
	for t.i < len(t.p) && !t.bad {
		c := t.p[t.i]
		switch c {
		case ')':
			return
		case '|':
			t.b.WriteByte('|')
			t.i++
		default:
			t.atom()
		}
	}
}

// atom translates one atom and the quantifier after it.
func (t *translator) atom() {
	c := t.p[t.i]
	quantifiable := true
	switch c {
	case '(':
		quantifiable = t.group()
	case '[':
		t.class()
	case '\\':
		quantifiable = t.escape(false)
	case '.':
		t.b.WriteString(anyChar)
		t.i++
	case '^', '$':
		t.i++
		quantifiable = false
	case '*', '+', '?', '{':
		if c == '{' && !t.isQuantifier() {
			t.b.WriteString(`\{`)
			t.i++
			break
		}
		t.bad = true // a quantifier with nothing before it
		return
	case '#', ' ', '\t':
		// Literal unless (?x), which is refused.
		t.b.WriteString(regexpQuote(string(c)))
		t.i++
	default:
		// A literal character (maybe several bytes).
		j := t.i + 1
		for j < len(t.p) && t.p[j]&0xC0 == 0x80 {
			j++
		}
		t.b.WriteString(regexpQuote(t.p[t.i:j]))
		t.i = j
	}
	if t.bad {
		return
	}
	t.quantifier(quantifiable)
}

// quantifier copies a quantifier (possessive made ordinary); after an
// assertion, which matches the empty string, it is dropped.
func (t *translator) quantifier(quantifiable bool) {
	if t.i >= len(t.p) {
		return
	}
	start := t.b.Len()
	switch c := t.p[t.i]; {
	case c == '*' || c == '+' || c == '?':
		t.b.WriteByte(c)
		t.i++
	case c == '{' && t.isQuantifier():
		j := strings.IndexByte(t.p[t.i:], '}')
		q := t.p[t.i : t.i+j+1]
		if !validCount(q) {
			t.bad = true
			return
		}
		t.b.WriteString(q)
		t.i += j + 1
	default:
		return
	}
	if t.i < len(t.p) && (t.p[t.i] == '?' || t.p[t.i] == '+') {
		if t.p[t.i] == '?' {
			t.b.WriteByte('?')
		}
		t.i++ // lazy kept, possessive dropped
	}
	if !quantifiable {
		s := t.b.String()[:start]
		t.b.Reset()
		t.b.WriteString(s)
	}
}

// isQuantifier reports whether the '{' at t.i starts {n}, {n,} or {n,m}.
func (t *translator) isQuantifier() bool {
	j := strings.IndexByte(t.p[t.i:], '}')
	if j < 0 {
		return false
	}
	body := t.p[t.i+1 : t.i+j]
	lo, hi, two := strings.Cut(body, ",")
	digits := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return false
			}
		}
		return true
	}
	return lo != "" && digits(lo) && (!two || digits(hi))
}

// validCount keeps counted repetitions within what package matcher
// compiles in reasonable size.
func validCount(q string) bool {
	lo, hi, _ := strings.Cut(q[1:len(q)-1], ",")
	for _, s := range []string{lo, hi} {
		if s == "" {
			continue
		}
		if n, err := strconv.Atoi(s); err != nil || n > maxCount {
			return false
		}
	}
	return true
}

// group translates a parenthesized group; it reports false for an
// assertion (dropped, so not quantifiable).
func (t *translator) group() bool {
	rest := t.p[t.i:]
	open := 1
	assertion := false
	switch {
	case strings.HasPrefix(rest, "(?:"), strings.HasPrefix(rest, "(?>"), strings.HasPrefix(rest, "(?|"):
		open = 3
	case strings.HasPrefix(rest, "(?=") || strings.HasPrefix(rest, "(?!"):
		open, assertion = 3, true
	case strings.HasPrefix(rest, "(?<=") || strings.HasPrefix(rest, "(?<!"):
		open, assertion = 4, true
	case strings.HasPrefix(rest, "(?P<") || strings.HasPrefix(rest, "(?<") || strings.HasPrefix(rest, "(?'"):
		close := byte('>')
		if rest[2] == '\'' {
			close = '\''
		}
		k := strings.IndexByte(rest[3:], close)
		if k < 0 {
			t.bad = true
			return false
		}
		open = 3 + k + 1
	case strings.HasPrefix(rest, "(?"):
		// Inline options: (?flags) or (?flags:...).
		j := 2
		for j < len(rest) && rest[j] != ')' && rest[j] != ':' {
			switch rest[j] {
			case 'i':
				t.caseless, t.inlineI = true, true
			case '^':
				t.inlineI = true
			case 'm', 's', 'n', 'U', 'J', '-':
			default:
				t.bad = true // x changes the syntax; verbs, recursion, conditionals
				return false
			}
			j++
		}
		if j >= len(rest) {
			t.bad = true
			return false
		}
		if rest[j] == ')' {
			t.i += j + 1
			return false
		}
		open = j + 1
	case strings.HasPrefix(rest, "(*"):
		t.bad = true
		return false
	}
	t.i += open
	t.depth++
	if assertion {
		mark := t.b.Len()
		t.b.WriteString("(?:")
		t.alt()
		s := t.b.String()[:mark]
		t.b.Reset()
		t.b.WriteString(s)
	} else {
		t.b.WriteString("(?:")
		t.alt()
		t.b.WriteByte(')')
	}
	if t.bad || t.i >= len(t.p) || t.p[t.i] != ')' {
		t.bad = true
		return false
	}
	t.i++
	t.depth--
	return !assertion
}

// escape translates a backslash sequence outside a class; it reports
// false for an assertion.
func (t *translator) escape(inClass bool) bool {
	if t.i+1 >= len(t.p) {
		t.bad = true
		return false
	}
	c := t.p[t.i+1]
	t.i += 2
	switch c {
	case 'w':
		t.classText(inClass, `\w\p{N}`)
	case 'd':
		t.classText(inClass, `\p{Nd}`)
	case 's':
		t.classText(inClass, `\s\x{180E}`)
	case 'h':
		t.classText(inClass, `\t\p{Zs}\x{180E}`)
	case 'W', 'D', 'S', 'H', 'V', 'N':
		if inClass {
			t.bad = true // a negated class inside a class: not widened here
			return false
		}
		t.b.WriteString(anyChar)
	case 'b', 'B', 'A', 'z', 'Z', 'G', 'K':
		if inClass {
			t.bad = true
			return false
		}
		return false // assertions (and \K): dropped
	case 'p', 'P':
		j, braced, ok := t.braced(t.i)
		if !ok {
			t.bad = true
			return false
		}
		if !braced {
			j++
		}
		if j > len(t.p) || c == 'P' || strings.ContainsAny(t.p[t.i:j], "^&") {
			t.bad = true // negated properties are not widened
			return false
		}
		t.classText(inClass, `\p`+t.p[t.i:j])
		t.i = j
	case 'Q':
		end := strings.Index(t.p[t.i:], `\E`)
		lit := t.p[t.i:]
		if end >= 0 {
			lit = t.p[t.i : t.i+end]
			t.i += end + 2
		} else {
			t.i = len(t.p)
		}
		if inClass {
			t.bad = true
			return false
		}
		t.b.WriteString("(?:" + regexpQuote(lit) + ")")
	case 'E':
		return false
	case 'x':
		j, braced, ok := t.braced(t.i)
		if !ok {
			t.bad = true
			return false
		}
		if !braced {
			for j < len(t.p) && j < t.i+2 && isHex(t.p[j]) {
				j++
			}
		}
		if j == t.i {
			t.bad = true
			return false
		}
		t.b.WriteString(`\x` + t.p[t.i:j])
		t.i = j
	case 'v':
		t.classText(inClass, `\x0B\f\r\x{85}\x{2028}\x{2029}`)
	case 't', 'n', 'r', 'f', 'a':
		t.b.WriteString(`\` + string(c))
	case 'e':
		t.b.WriteString(`\x1B`)
	case 'k', 'g':
		if inClass {
			t.bad = true
			return false
		}
		// A back-reference by name or number: any text of the line.
		if t.i < len(t.p) && (t.p[t.i] == '{' || t.p[t.i] == '<' || t.p[t.i] == '\'') {
			close := map[byte]byte{'{': '}', '<': '>', '\'': '\''}[t.p[t.i]]
			k := strings.IndexByte(t.p[t.i+1:], close)
			if k < 0 {
				t.bad = true
				return false
			}
			t.i += k + 2
		} else if c == 'g' {
			for t.i < len(t.p) && (t.p[t.i] == '-' || '0' <= t.p[t.i] && t.p[t.i] <= '9') {
				t.i++
			}
		} else {
			t.bad = true
			return false
		}
		t.b.WriteString(anyChar + "*")
	default:
		switch {
		case '1' <= c && c <= '9' && !inClass:
			for t.i < len(t.p) && '0' <= t.p[t.i] && t.p[t.i] <= '9' {
				t.i++
			}
			t.b.WriteString(anyChar + "*")
		case c < 0x80 && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'):
			t.b.WriteString(regexpQuote(string(c)))
		default:
			t.bad = true // \0 octal, \c, \R, \X, \C, …
			return false
		}
	}
	return true
}

// classText writes a set: inside a class as is, outside wrapped.
func (t *translator) classText(inClass bool, set string) {
	if inClass {
		t.b.WriteString(set)
		return
	}
	t.b.WriteString("[" + set + "]")
}

// class translates a bracketed class. A negated one is kept only when it
// holds plain characters and ranges (its complement is then the same in
// both dialects); otherwise it becomes any character.
func (t *translator) class() {
	t.i++
	negated := t.i < len(t.p) && t.p[t.i] == '^'
	if negated {
		t.i++
	}
	var inner strings.Builder
	saved := t.b
	t.b = strings.Builder{}
	first := true
	plain := true
	for !t.bad {
		if t.i >= len(t.p) {
			t.bad = true
			break
		}
		c := t.p[t.i]
		if c == ']' && !first {
			t.i++
			break
		}
		first = false
		switch {
		case c == '[':
			if strings.HasPrefix(t.p[t.i:], "[:") || strings.HasPrefix(t.p[t.i:], "[=") || strings.HasPrefix(t.p[t.i:], "[.") {
				t.bad = true // POSIX classes are Unicode under UCP
				break
			}
			t.b.WriteString(`\[`)
			t.i++
		case c == '\\':
			if t.i+1 < len(t.p) && strings.IndexByte("wdshp", t.p[t.i+1]) >= 0 {
				plain = false
			}
			t.escape(true)
		case c == '-':
			// A range between two members; literal first or last.
			if t.b.Len() == 0 || t.i+1 < len(t.p) && t.p[t.i+1] == ']' {
				t.b.WriteString(`\-`)
			} else {
				t.b.WriteByte('-')
			}
			t.i++
		case c == '&' || c == '~' || c == ']' || c == '^':
			t.b.WriteString(`\` + string(c))
			t.i++
		default:
			j := t.i + 1
			for j < len(t.p) && t.p[j]&0xC0 == 0x80 {
				j++
			}
			t.b.WriteString(t.p[t.i:j])
			t.i = j
		}
	}
	inner.WriteString(t.b.String())
	t.b = saved
	if t.bad {
		return
	}
	switch {
	case negated && !plain:
		t.b.WriteString(anyChar)
	case negated:
		t.negated = true
		t.b.WriteString(`[^\n` + inner.String() + "]")
	default:
		t.b.WriteString("[" + inner.String() + "]")
	}
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// regexpQuote escapes s for package matcher's dialect.
func regexpQuote(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if strings.IndexByte(`\.+*?()|[]{}^$#&-~ `, c) >= 0 {
			if c == ' ' {
				b.WriteString(`\x20`)
				continue
			}
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// compilePrefilter returns the line prefilter for a PCRE2 pattern, or nil
// when the pattern is outside the translation, the search is not of '\n'
// lines in Unicode mode, or the translation does not compile.
func compilePrefilter(pattern string, caseless bool, o matcher.Options) *matcher.Matcher {
	if o.NoUnicode || o.LineTerminator != '\n' || o.Multiline {
		return nil
	}
	tr, inlineCaseless, ok := overApprox(pattern)
	if !ok || len(tr) > maxPrefilterLen {
		return nil
	}
	mode := matcher.Sensitive
	if caseless || inlineCaseless {
		mode = matcher.Insensitive
	}
	m, err := matcher.Compile(matcher.Options{Patterns: []string{tr}, Case: mode, LineTerminator: '\n'})
	if err != nil {
		return nil
	}
	return m
}
