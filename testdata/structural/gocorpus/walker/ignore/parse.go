package ignore

// This file parses globset's glob dialect into tokens. The grammar is that
// of the globset ripgrep 15 ships: alternates nest, a '}' outside any group
// is an error, an unclosed '[' may be read as a literal (gitignore lines),
// and '**' is recursive only as a whole path component.

type tokenKind uint8

const (
	tLiteral             tokenKind = iota // one character
	tAny                                  // ?
	tZeroOrMore                           // *
	tRecursivePrefix                      // **/ at the start
	tRecursiveSuffix                      // /** at the end
	tRecursiveZeroOrMore                  // /**/ in the middle
	tClass                                // [...]
	tAlternates                           // {a,b}
)

// none marks "no character" for the parser's prev/cur/peek.
const none rune = -1

type runeRange struct{ lo, hi rune }

type token struct {
	kind    tokenKind
	ch      rune        // tLiteral
	negated bool        // tClass
	ranges  []runeRange // tClass
	alts    [][]token   // tAlternates
}

type parser struct {
	glob  string
	chars []rune
	pos   int
	prev  rune
	cur   rune
	// branches are the branches being parsed, innermost last; tokens go
	// to the last one. branches[0] is the glob itself.
	branches [][]token
	// groups holds, for each open '{', the index in branches of its
	// first branch.
	groups   []int
	escapeOK bool
	// unclosedOK reads a '[' without a ']' as a literal '['.
	unclosedOK bool
	// sawUnclosed is set once a '[' was found unclosed: no later '[' can
	// be closed either, so they are all literals (and parsing stays
	// linear).
	sawUnclosed bool
	// maxGroups is the deepest nesting of '{' seen.
	maxGroups int
}

// parsedGlob is a glob's tokens and how deeply its alternates nest.
type parsedGlob struct {
	toks  []token
	depth int // deepest nesting of '{'
}

// parseGlob turns a glob into tokens. backslashEscape makes '\' escape the
// next character; otherwise '\' is a literal. allowUnclosed reads an
// unclosed '[' as a literal, as gitignore lines do.
func parseGlob(glob string, backslashEscape, allowUnclosed bool) (parsedGlob, *GlobError) {
	p := &parser{
		glob:       glob,
		chars:      []rune(glob),
		prev:       none,
		cur:        none,
		branches:   [][]token{nil},
		escapeOK:   backslashEscape,
		unclosedOK: allowUnclosed,
	}
	if err := p.parse(); err != nil {
		return parsedGlob{}, err
	}
	if len(p.branches) > 1 {
		return parsedGlob{}, p.err(ErrUnclosedAlternates)
	}
	return parsedGlob{toks: p.branches[0], depth: p.maxGroups}, nil
}

func (p *parser) err(kind ErrorKind) *GlobError {
	return &GlobError{Glob: p.glob, Kind: kind}
}

func (p *parser) bump() rune {
	p.prev = p.cur
	if p.pos < len(p.chars) {
		p.cur = p.chars[p.pos]
		p.pos++
	} else {
		p.cur = none
	}
	return p.cur
}

func (p *parser) peek() rune {
	if p.pos < len(p.chars) {
		return p.chars[p.pos]
	}
	return none
}

func (p *parser) parse() *GlobError {
	for {
		c := p.bump()
		if c == none {
			return nil
		}
		var err *GlobError
		switch c {
		case '?':
			p.push(token{kind: tAny})
		case '*':
			p.parseStar()
		case '[':
			if p.sawUnclosed {
				p.push(token{kind: tLiteral, ch: c})
			} else {
				err = p.parseClass()
			}
		case '{':
			p.pushAlternate()
		case '}':
			err = p.popAlternate()
		case ',':
			p.parseComma()
		case '\\':
			err = p.parseBackslash()
		default:
			p.push(token{kind: tLiteral, ch: c})
		}
		if err != nil {
			return err
		}
	}
}

// push appends a token to the branch being parsed.
func (p *parser) push(t token) {
	top := len(p.branches) - 1
	p.branches[top] = append(p.branches[top], t)
}

// pop removes and returns the last token of the branch being parsed, which
// the caller knows is not empty.
func (p *parser) pop() token {
	top := len(p.branches) - 1
	br := p.branches[top]
	t := br[len(br)-1]
	p.branches[top] = br[:len(br)-1]
	return t
}

func (p *parser) haveTokens() bool {
	return len(p.branches[len(p.branches)-1]) > 0
}

// pushAlternate opens a group: its first branch.
func (p *parser) pushAlternate() {
	p.groups = append(p.groups, len(p.branches))
	p.branches = append(p.branches, nil)
	p.maxGroups = max(p.maxGroups, len(p.groups))
}

// popAlternate closes the innermost group into one token of the branch
// around it; a '}' with no group open is an error.
func (p *parser) popAlternate() *GlobError {
	if len(p.groups) == 0 {
		return p.err(ErrUnopenedAlternates)
	}
	start := p.groups[len(p.groups)-1]
	p.groups = p.groups[:len(p.groups)-1]
	alts := append([][]token(nil), p.branches[start:]...)
	clear(p.branches[start:])
	p.branches = p.branches[:start]
	p.push(token{kind: tAlternates, alts: alts})
	return nil
}

func (p *parser) parseComma() {
	if len(p.groups) == 0 {
		p.push(token{kind: tLiteral, ch: ','})
		return
	}
	p.branches = append(p.branches, nil)
}

func (p *parser) parseBackslash() *GlobError {
	if !p.escapeOK {
		p.push(token{kind: tLiteral, ch: '\\'})
		return nil
	}
	c := p.bump()
	if c == none {
		return p.err(ErrDanglingEscape)
	}
	p.push(token{kind: tLiteral, ch: c})
	return nil
}

func (p *parser) pushStarStar() {
	p.push(token{kind: tZeroOrMore})
	p.push(token{kind: tZeroOrMore})
}

// parseStar handles '*' and '**'. A '**' is recursive only when it is a
// whole path component (or a whole alternate); elsewhere it is two '*'.
func (p *parser) parseStar() {
	prev := p.prev
	if p.peek() != '*' {
		p.push(token{kind: tZeroOrMore})
		return
	}
	p.bump() // the second '*'
	if !p.haveTokens() {
		if next := p.peek(); next != none && next != '/' {
			p.pushStarStar()
		} else {
			p.push(token{kind: tRecursivePrefix})
			p.bump() // the '/' (or the end)
		}
		return
	}
	if prev != '/' {
		if len(p.branches) <= 1 || (prev != ',' && prev != '{') {
			p.pushStarStar()
			return
		}
	}
	var isSuffix bool
	switch next := p.peek(); {
	case next == none:
		p.bump()
		isSuffix = true
	case (next == ',' || next == '}') && len(p.branches) >= 2:
		isSuffix = true
	case next == '/':
		p.bump()
		isSuffix = false
	default:
		p.pushStarStar()
		return
	}
	switch last := p.pop(); last.kind {
	case tRecursivePrefix, tRecursiveSuffix:
		p.push(last)
	default:
		if isSuffix {
			p.push(token{kind: tRecursiveSuffix})
		} else {
			p.push(token{kind: tRecursiveZeroOrMore})
		}
	}
}

// parseClass parses a bracket expression after its '['. Backslash is not
// special inside it; ']' first and '-' first or last are literals. Without
// a closing ']' it is an error, or, when unclosed classes are allowed, the
// '[' is a literal and parsing goes on right after it.
func (p *parser) parseClass() *GlobError {
	savedPos, savedPrev, savedCur := p.pos, p.prev, p.cur
	var ranges []runeRange
	negated := false
	if c := p.peek(); c == '!' || c == '^' {
		p.bump()
		negated = true
	}
	first, inRange := true, false
	for {
		c := p.bump()
		if c == none {
			if !p.unclosedOK {
				return p.err(ErrUnclosedClass)
			}
			p.pos, p.prev, p.cur = savedPos, savedPrev, savedCur
			p.sawUnclosed = true
			p.push(token{kind: tLiteral, ch: '['})
			return nil
		}
		switch {
		case c == ']' && !first:
			if inRange {
				ranges = append(ranges, runeRange{'-', '-'})
			}
			p.push(token{kind: tClass, negated: negated, ranges: ranges})
			return nil
		case c == ']':
			ranges = append(ranges, runeRange{']', ']'})
		case c == '-' && first:
			ranges = append(ranges, runeRange{'-', '-'})
		case c == '-' && inRange:
			if err := p.extendRange(ranges, '-'); err != nil {
				return err
			}
			inRange = false
		case c == '-':
			inRange = true
		case inRange:
			if err := p.extendRange(ranges, c); err != nil {
				return err
			}
			inRange = false
		default:
			ranges = append(ranges, runeRange{c, c})
		}
		first = false
	}
}

// extendRange makes c the end of the last range of the class.
func (p *parser) extendRange(ranges []runeRange, c rune) *GlobError {
	r := &ranges[len(ranges)-1]
	r.hi = c
	if r.hi < r.lo {
		e := p.err(ErrInvalidRange)
		e.RangeStart, e.RangeEnd = r.lo, r.hi
		return e
	}
	return nil
}
