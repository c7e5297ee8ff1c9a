package ignore

// This file parses globset's glob dialect into tokens. The grammar is
// globset 0.4.8's (the version ripgrep 13 ships): alternates do not nest, a
// '}' outside any group closes an empty group, and '**' is recursive only as
// a whole path component.

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
	glob     string
	chars    []rune
	pos      int
	prev     rune
	cur      rune
	stack    [][]token
	escapeOK bool
}

// parseGlob turns a glob into tokens. backslashEscape makes '\' escape the
// next character; otherwise '\' is a literal.
func parseGlob(glob string, backslashEscape bool) ([]token, *GlobError) {
	p := &parser{
		glob:     glob,
		chars:    []rune(glob),
		prev:     none,
		cur:      none,
		stack:    [][]token{nil},
		escapeOK: backslashEscape,
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	if len(p.stack) > 1 {
		return nil, p.err(ErrUnclosedAlternates)
	}
	return p.stack[0], nil
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
			err = p.parseClass()
		case '{':
			err = p.pushAlternate()
		case '}':
			p.popAlternate()
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
	top := len(p.stack) - 1
	p.stack[top] = append(p.stack[top], t)
}

// pop removes and returns the last token of the branch being parsed, which
// the caller knows is not empty.
func (p *parser) pop() token {
	top := len(p.stack) - 1
	br := p.stack[top]
	t := br[len(br)-1]
	p.stack[top] = br[:len(br)-1]
	return t
}

func (p *parser) haveTokens() bool {
	return len(p.stack[len(p.stack)-1]) > 0
}

func (p *parser) pushAlternate() *GlobError {
	if len(p.stack) > 1 {
		return p.err(ErrNestedAlternates)
	}
	p.stack = append(p.stack, nil)
	return nil
}

// popAlternate closes the open group; with no group open it closes an empty
// one, which matches the empty string (globset 0.4.8 does the same).
func (p *parser) popAlternate() {
	var alts [][]token
	for len(p.stack) >= 2 {
		alts = append(alts, p.stack[len(p.stack)-1])
		p.stack = p.stack[:len(p.stack)-1]
	}
	// Keep the branches in the order they were written.
	for i, j := 0, len(alts)-1; i < j; i, j = i+1, j-1 {
		alts[i], alts[j] = alts[j], alts[i]
	}
	p.push(token{kind: tAlternates, alts: alts})
}

func (p *parser) parseComma() {
	if len(p.stack) <= 1 {
		p.push(token{kind: tLiteral, ch: ','})
		return
	}
	p.stack = append(p.stack, nil)
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
		if len(p.stack) <= 1 || (prev != ',' && prev != '{') {
			p.pushStarStar()
			return
		}
	}
	var isSuffix bool
	switch next := p.peek(); {
	case next == none:
		p.bump()
		isSuffix = true
	case (next == ',' || next == '}') && len(p.stack) >= 2:
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
// special inside it; ']' first and '-' first or last are literals.
func (p *parser) parseClass() *GlobError {
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
			return p.err(ErrUnclosedClass)
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
