package ignore

import "unicode/utf8"

// ripgrep compiles a glob to a regular expression, and its parser refuses
// one that nests deeper than regexNestLimit. This file measures that depth
// the way regex-syntax counts it for the expression globset writes: a
// concatenation, a group, an alternation, a repetition and a bracketed
// class (and a union of class items) each count one level; literals, '.',
// flags and anchors none.

// globNestDepth returns the nesting depth of the regular expression of a
// glob's tokens.
func globNestDepth(toks []token, o GlobOptions) int {
	if len(toks) == 1 && toks[0].kind == tRecursivePrefix {
		return 2 // (?-u)^.*$
	}
	// (?-u)^...$ is a concatenation.
	d := 0
	for _, t := range toks {
		d = max(d, tokenNestDepth(t, o))
	}
	return 1 + d
}

// tokenNestDepth is the depth of one token's expression inside the
// concatenation holding it.
func tokenNestDepth(t token, o GlobOptions) int {
	switch t.kind {
	case tAny:
		if o.LiteralSeparator {
			return 1 // [^/]
		}
		return 0 // .
	case tZeroOrMore:
		if o.LiteralSeparator {
			return 2 // [^/]*
		}
		return 1 // .*
	case tRecursivePrefix, tRecursiveZeroOrMore:
		return 4 // (?:/?|.*/) and (?:/|/.*/)
	case tRecursiveSuffix:
		return 1 // /.*
	case tClass:
		return classNestDepth(t)
	case tAlternates:
		parts := 0
		d := 0
		for _, br := range t.alts {
			n := branchItems(br)
			if n == 0 {
				continue // globset drops an empty branch
			}
			parts++
			bd := 0
			for _, bt := range br {
				bd = max(bd, tokenNestDepth(bt, o))
			}
			if n > 1 {
				bd++ // the branch is a concatenation
			}
			d = max(d, bd)
		}
		switch parts {
		case 0:
			return 0 // nothing is written
		case 1:
			return 1 + d // (?:x)
		}
		return 2 + d // (?:x|y)
	}
	return 0
}

// classNestDepth is the depth of a bracketed class: one level, and one more
// when it holds more than one item (each byte of a non-ASCII character is
// an item of its own).
func classNestDepth(t token) int {
	items := 0
	for _, r := range t.ranges {
		lo, hi := utf8.RuneLen(r.lo), utf8.RuneLen(r.hi)
		if r.lo == r.hi {
			items += max(lo, 1)
		} else {
			items += max(lo, 1) + max(hi, 1) - 1
		}
	}
	if items > 1 {
		return 2
	}
	return 1
}

// branchItems counts the items of the concatenation a branch's tokens
// write (0 when the branch writes nothing).
func branchItems(br []token) int {
	n := 0
	for _, t := range br {
		switch t.kind {
		case tLiteral:
			n += max(utf8.RuneLen(t.ch), 1)
		case tRecursiveSuffix:
			n += 2
		case tAlternates:
			for _, a := range t.alts {
				if branchItems(a) > 0 {
					n++
					break
				}
			}
		default:
			n++
		}
	}
	return n
}

// tooDeep reports whether a parsed glob's regular expression would nest
// deeper than ripgrep's parser allows. Each nested '{' adds at least one
// level, so a glob nested deeper than the limit is not measured further.
func tooDeep(pg parsedGlob, o GlobOptions) bool {
	if pg.depth > regexNestLimit {
		return true
	}
	return globNestDepth(pg.toks, o) > regexNestLimit
}
