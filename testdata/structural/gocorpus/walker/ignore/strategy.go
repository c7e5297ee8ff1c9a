package ignore

import "strings"

// strategy is how a glob is matched: globset's choice for the glob, in
// globset's order of preference. Every strategy but the three that look at
// the basename or the extension gives exactly the glob's regex verdict.
type strategy uint8

const (
	stratRegex             strategy = iota // run the compiled glob
	stratLiteral                           // path == lit
	stratBasenameLiteral                   // basename == lit (`**/lit`)
	stratExtension                         // extension == lit (`*.ext`, `**/*.ext`)
	stratPrefix                            // path starts with lit (`lit*`, `lit/**`)
	stratSuffix                            // path ends with lit (`*lit`)
	stratComponentSuffix                   // path ends with lit, lit = "/..." (`**/a/b`), or is lit[1:]
	stratRequiredExtension                 // extension == lit and the compiled glob matches
)

// chooseStrategy picks globset's strategy for a glob's tokens. A
// case-insensitive glob always runs compiled.
func chooseStrategy(toks []token, o GlobOptions) (strategy, string) {
	if o.CaseInsensitive {
		return stratRegex, ""
	}
	if lit, ok := basenameLiteral(toks); ok {
		return stratBasenameLiteral, lit
	}
	if lit, ok := literalOf(toks); ok && lit != "" {
		return stratLiteral, lit
	}
	if ext, ok := extensionOf(toks, o); ok {
		return stratExtension, ext
	}
	if pre, ok := prefixOf(toks, o); ok {
		return stratPrefix, pre
	}
	if suf, component, ok := suffixOf(toks, o); ok {
		if component {
			return stratComponentSuffix, suf
		}
		return stratSuffix, suf
	}
	if ext, ok := requiredExtension(toks); ok {
		return stratRequiredExtension, ext
	}
	return stratRegex, ""
}

// literalOf concatenates toks if they are all literals.
func literalOf(toks []token) (string, bool) {
	var sb strings.Builder
	for _, t := range toks {
		if t.kind != tLiteral {
			return "", false
		}
		sb.WriteRune(t.ch)
	}
	return sb.String(), true
}

// basenameLiteral: `**/` followed by a non-empty literal without '/'.
func basenameLiteral(toks []token) (string, bool) {
	if len(toks) < 2 || toks[0].kind != tRecursivePrefix {
		return "", false
	}
	for _, t := range toks[1:] {
		if t.kind != tLiteral || t.ch == '/' {
			return "", false
		}
	}
	return literalOf(toks[1:])
}

// extensionOf: `*.ext` (only when '*' may match '/') or `**/*.ext`, where
// ext holds no '.' or '/'. Returns ".ext".
func extensionOf(toks []token, o GlobOptions) (string, bool) {
	start := 0
	if len(toks) > 0 && toks[0].kind == tRecursivePrefix {
		start = 1
	}
	if len(toks) < start+2 || toks[start].kind != tZeroOrMore {
		return "", false
	}
	if start == 0 && o.LiteralSeparator {
		return "", false
	}
	if t := toks[start+1]; t.kind != tLiteral || t.ch != '.' {
		return "", false
	}
	for _, t := range toks[start+2:] {
		if t.kind != tLiteral || t.ch == '.' || t.ch == '/' {
			return "", false
		}
	}
	lit, _ := literalOf(toks[start+1:])
	return lit, true
}

// prefixOf: a literal followed by `*` (only when '*' may match '/') or by
// `/**`.
func prefixOf(toks []token, o GlobOptions) (string, bool) {
	if len(toks) == 0 {
		return "", false
	}
	end, sep := len(toks), false
	switch toks[len(toks)-1].kind {
	case tZeroOrMore:
		if o.LiteralSeparator {
			return "", false
		}
		end = len(toks) - 1
	case tRecursiveSuffix:
		end, sep = len(toks)-1, true
	}
	lit, ok := literalOf(toks[:end])
	if !ok {
		return "", false
	}
	if sep {
		lit += "/"
	}
	return lit, lit != ""
}

// suffixOf: `**/lit` (component: lit must start a path component), `*lit`
// (only when '*' may match '/'), `**/*lit` likewise, or a plain literal.
func suffixOf(toks []token, o GlobOptions) (lit string, component, ok bool) {
	if len(toks) == 0 {
		return "", false, false
	}
	start := 0
	prefix := ""
	if toks[0].kind == tRecursivePrefix {
		start = 1
		if len(toks) > 1 && toks[1].kind == tLiteral {
			prefix, component = "/", true
		}
	}
	if start >= len(toks) {
		return "", false, false
	}
	if toks[start].kind == tZeroOrMore {
		if o.LiteralSeparator {
			return "", false, false
		}
		start++
	}
	body, isLit := literalOf(toks[start:])
	if !isLit {
		return "", false, false
	}
	lit = prefix + body
	if lit == "" || lit == "/" {
		return "", false, false
	}
	return lit, component, true
}

// requiredExtension: the glob ends in a literal ".ext" with no '/' in it.
// Necessary for a match, not sufficient.
func requiredExtension(toks []token) (string, bool) {
	for i := len(toks) - 1; i >= 0; i-- {
		t := toks[i]
		if t.kind != tLiteral || t.ch == '/' {
			return "", false
		}
		if t.ch == '.' {
			lit, _ := literalOf(toks[i:])
			return lit, true
		}
	}
	return "", false
}
