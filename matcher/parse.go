package matcher

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// This file parses the pattern syntax of Rust's regex crate (the dialect
// ripgrep 13 accepts) into an abstract syntax tree. It reports errors with
// the same messages and spans as that parser, so that the formatted error
// text matches rg's.

type span struct{ start, end int } // byte offsets into the pattern

type astKind uint8

const (
	astEmpty astKind = iota
	astLiteral
	astDot
	astAssert
	astUnicodeClass // \pL, \p{Greek}
	astPerlClass    // \d \s \w
	astBracket      // [...]
	astRepeat
	astGroup
	astFlags // (?i) applying to the rest of the group
	astAlt
	astConcat
)

type litKind uint8

const (
	litVerbatim litKind = iota
	litPunct
	litHexShort // \xHH: a byte when Unicode mode is off
	litHexOther // \x{..}, \u, \U
	litSpecial  // \n \t ...
)

type assertKind uint8

const (
	assertStartLine     assertKind = iota // ^
	assertEndLine                         // $
	assertStartText                       // \A
	assertEndText                         // \z
	assertWordB                           // \b
	assertNotWordB                        // \B
	assertWordStart                       // \b{start}, \<
	assertWordEnd                         // \b{end}, \>
	assertWordStartHalf                   // \b{start-half}
	assertWordEndHalf                     // \b{end-half}
	// assertEndLineCRLF is $ in CRLF mode as rg 15's regex reads it: at
	// the end, before a \r, or before a \n that no \r precedes (never
	// between the \r and \n of a CRLF). Only the VM evaluates it.
	assertEndLineCRLF
	// assertStartLineCRLF is ^ in CRLF mode: at the start, after a \n,
	// or after a \r that no \n follows. Only the VM evaluates it.
	assertStartLineCRLF
)

// flagItem is one flag letter in a (?flags) group; neg reports a preceding '-'.
type flagItem struct {
	c   byte
	neg bool
}

type ast struct {
	kind    astKind
	sp      span
	c       rune    // literal
	lk      litKind // literal
	assert  assertKind
	negated bool   // classes
	name    string // unicode class name (or property) / capture name
	value   string // unicode class value for name=value forms
	hasVal  bool
	perl    byte      // 'd', 's' or 'w'
	set     *classSet // bracket
	min     int       // repetition
	max     int       // -1: unbounded
	greedy  bool
	plus    bool // repetition written as '+' (compiled as a loop)
	capIdx  int  // group: capture index, 0 for non-capturing
	flags   []flagItem
	subs    []*ast
}

type classSetKind uint8

const (
	csUnion classSetKind = iota
	csLiteral
	csRange
	csASCII
	csUnicode
	csPerl
	csBracket
	csAnd  // &&
	csDiff // --
	csXor  // ~~
)

// classSet is an item or operation inside a bracketed class.
type classSet struct {
	kind    classSetKind
	sp      span
	lo, hi  rune    // literal (lo) or range
	lk      litKind // literal kind of lo (hi uses hk)
	hk      litKind
	loSp    span
	hiSp    span
	negated bool
	name    string // ascii class name / unicode class name
	value   string
	hasVal  bool
	perl    byte
	items   []*classSet // union items; operands lhs, rhs for ops; bracket: [inner]
}

// parseError is a parse or translation error with rg's message and spans.
type parseError struct {
	msg  string
	sp   span
	aux  *span
	hint string // extra text after the error, as rg prints it
}

type parser struct {
	pat        string
	pos        int
	ignoreWS   bool
	capIdx     int
	capNames   map[string]span
	groupStack []groupState
	classStack []classState
}

type groupState struct {
	isAlt    bool
	alt      *ast // alternation being built
	concat   *ast // concat before the group
	group    *ast
	ignoreWS bool
}

type classState struct {
	isOp   bool
	opKind classSetKind
	lhs    *classSet
	union  *classSet // open: parent union
	set    *classSet // open: bracket being built
}

func (p *parser) eof() bool { return p.pos >= len(p.pat) }

func (p *parser) char() rune {
	r, _ := utf8.DecodeRuneInString(p.pat[p.pos:])
	return r
}

func (p *parser) charLen() int {
	_, n := utf8.DecodeRuneInString(p.pat[p.pos:])
	return n
}

// bump advances one character and reports whether more input follows.
func (p *parser) bump() bool {
	if p.eof() {
		return false
	}
	p.pos += p.charLen()
	return !p.eof()
}

func (p *parser) bumpIf(prefix string) bool {
	if len(p.pat)-p.pos >= len(prefix) && p.pat[p.pos:p.pos+len(prefix)] == prefix {
		p.pos += len(prefix)
		return true
	}
	return false
}

func (p *parser) bumpAndBumpSpace() bool {
	if !p.bump() {
		return false
	}
	p.bumpSpace()
	return !p.eof()
}

func (p *parser) bumpSpace() {
	if !p.ignoreWS {
		return
	}
	for !p.eof() {
		c := p.char()
		if unicode.IsSpace(c) {
			p.bump()
		} else if c == '#' {
			p.bump()
			for !p.eof() {
				c := p.char()
				p.bump()
				if c == '\n' {
					break
				}
			}
		} else {
			break
		}
	}
}

// peek returns the character after the current one.
func (p *parser) peek() (rune, bool) {
	if p.eof() {
		return 0, false
	}
	next := p.pos + p.charLen()
	if next >= len(p.pat) {
		return 0, false
	}
	r, _ := utf8.DecodeRuneInString(p.pat[next:])
	return r, true
}

// peekSpace is peek, skipping whitespace and comments in (?x) mode.
func (p *parser) peekSpace() (rune, bool) {
	if !p.ignoreWS {
		return p.peek()
	}
	if p.eof() {
		return 0, false
	}
	i := p.pos + p.charLen()
	inComment := false
	for i < len(p.pat) {
		r, n := utf8.DecodeRuneInString(p.pat[i:])
		switch {
		case inComment:
			if r == '\n' {
				inComment = false
			}
		case unicode.IsSpace(r):
		case r == '#':
			inComment = true
		default:
			return r, true
		}
		i += n
	}
	return 0, false
}

func (p *parser) here() span { return span{p.pos, p.pos} }

func (p *parser) spanChar() span {
	if p.eof() {
		return p.here()
	}
	return span{p.pos, p.pos + p.charLen()}
}

func errAt(sp span, msg string) *parseError { return &parseError{msg: msg, sp: sp} }

const (
	msgUnclosedGroup   = "unclosed group"
	msgUnopenedGroup   = "unopened group"
	msgUnclosedClass   = "unclosed character class"
	msgRepMissing      = "repetition operator missing expression"
	msgRepUnclosed     = "unclosed counted repetition"
	msgRepDecimalEmpty = "repetition quantifier expects a valid decimal"
	msgRepInvalid      = "invalid repetition count range, the start must be <= the end"
	msgDecimalInvalid  = "decimal literal invalid"
	msgEscapeEOF       = "incomplete escape sequence, reached end of pattern prematurely"
	msgEscapeUnrec     = "unrecognized escape sequence"
	msgHexEmpty        = "hexadecimal literal empty"
	msgHexInvalid      = "hexadecimal literal is not a Unicode scalar value"
	msgHexDigit        = "invalid hexadecimal digit"
	msgBackref         = "backreferences are not supported"
	msgLookaround      = "look-around, including look-ahead and look-behind, is not supported"
	msgFlagEOF         = "expected flag but got end of regex"
	msgFlagUnrec       = "unrecognized flag"
	msgFlagDup         = "duplicate flag"
	msgFlagRepNeg      = "flag negation operator repeated"
	msgFlagDangling    = "dangling flag negation operator"
	msgGroupNameDup    = "duplicate capture group name"
	msgGroupNameEmpty  = "empty capture group name"
	msgGroupNameInv    = "invalid capture group character"
	msgGroupNameEOF    = "unclosed capture group name"
	msgClassEscape     = "invalid escape sequence found in character class"
	msgClassRange      = "invalid character class range, the start must be <= the end"
	msgClassRangeLit   = "invalid range boundary, must be a literal"
	msgUnicodeClassInv = "invalid Unicode character class"
	msgWordBUnclosed   = "special word boundary assertion is either unclosed or contains an invalid character"
	msgWordBUnrec      = "unrecognized special word boundary assertion, valid choices are: start, end, start-half or end-half"
	msgNest            = "exceed the maximum number of nested parentheses/brackets (250)"
	hintPCRE2          = "Consider enabling PCRE2 with the --pcre2 flag, which can handle backreferences\nand look-around."
)

// parsePattern parses a whole pattern.
func parsePattern(pat string) (*ast, *parseError) {
	p := &parser{pat: pat, capNames: map[string]span{}}
	concat := &ast{kind: astConcat, sp: p.here()}
	for {
		p.bumpSpace()
		if p.eof() {
			break
		}
		var err *parseError
		switch p.char() {
		case '(':
			concat, err = p.pushGroup(concat)
		case ')':
			concat, err = p.popGroup(concat)
		case '|':
			concat = p.pushAlternate(concat)
		case '[':
			var cls *ast
			cls, err = p.parseSetClass()
			if err == nil {
				concat.subs = append(concat.subs, cls)
			}
		case '?', '*', '+':
			err = p.parseUncountedRepetition(concat)
		case '{':
			err = p.parseCountedRepetition(concat)
		default:
			var prim *ast
			prim, err = p.parsePrimitive()
			if err == nil {
				concat.subs = append(concat.subs, prim)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	root, err := p.popGroupEnd(concat)
	if err != nil {
		return nil, err
	}
	if err := checkNest(root, 0); err != nil {
		return nil, err
	}
	return root, nil
}

func (p *parser) parsePrimitive() (*ast, *parseError) {
	switch p.char() {
	case '\\':
		return p.parseEscape()
	case '.':
		a := &ast{kind: astDot, sp: p.spanChar()}
		p.bump()
		return a, nil
	case '^':
		a := &ast{kind: astAssert, sp: p.spanChar(), assert: assertStartLine}
		p.bump()
		return a, nil
	case '$':
		a := &ast{kind: astAssert, sp: p.spanChar(), assert: assertEndLine}
		p.bump()
		return a, nil
	}
	a := &ast{kind: astLiteral, sp: p.spanChar(), c: p.char(), lk: litVerbatim}
	p.bump()
	return a, nil
}

func isMetaChar(c rune) bool {
	switch c {
	case '\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$', '#', '&', '-', '~':
		return true
	}
	return false
}

// isEscapeable reports whether \c is a literal c (metacharacters aside).
func isEscapeable(c rune) bool {
	if c >= utf8.RuneSelf || c == '<' || c == '>' {
		return false
	}
	return !(('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z'))
}

func isHexDigit(c rune) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// parseEscape parses an escape sequence starting at '\'.
func (p *parser) parseEscape() (*ast, *parseError) {
	start := p.pos
	if !p.bump() {
		return nil, errAt(span{start, p.pos}, msgEscapeEOF)
	}
	c := p.char()
	switch {
	case '0' <= c && c <= '9':
		e := errAt(span{start, p.spanChar().end}, msgBackref)
		e.hint = hintPCRE2
		return nil, e
	case c == 'x' || c == 'u' || c == 'U':
		a, err := p.parseHex()
		if err != nil {
			return nil, err
		}
		a.sp.start = start
		return a, nil
	case c == 'p' || c == 'P':
		a, err := p.parseUnicodeClass()
		if err != nil {
			return nil, err
		}
		a.sp.start = start
		return a, nil
	case c == 'd' || c == 's' || c == 'w' || c == 'D' || c == 'S' || c == 'W':
		p.bump()
		lower := byte(unicode.ToLower(c))
		return &ast{kind: astPerlClass, sp: span{start, p.pos}, perl: lower, negated: c != rune(lower)}, nil
	}
	p.bump()
	sp := span{start, p.pos}
	if isMetaChar(c) {
		return &ast{kind: astLiteral, sp: sp, c: c, lk: litPunct}, nil
	}
	special := func(r rune) (*ast, *parseError) {
		return &ast{kind: astLiteral, sp: sp, c: r, lk: litSpecial}, nil
	}
	switch c {
	case 'a':
		return special('\x07')
	case 'f':
		return special('\x0c')
	case 't':
		return special('\t')
	case 'n':
		return special('\n')
	case 'r':
		return special('\r')
	case 'v':
		return special('\x0b')
	case ' ':
		if p.ignoreWS {
			return special(' ')
		}
	case 'A':
		return &ast{kind: astAssert, sp: sp, assert: assertStartText}, nil
	case 'z':
		return &ast{kind: astAssert, sp: sp, assert: assertEndText}, nil
	case 'b':
		if !p.eof() && p.char() == '{' {
			if a, ok, err := p.maybeSpecialWordBoundary(start); ok || err != nil {
				return a, err
			}
		}
		return &ast{kind: astAssert, sp: sp, assert: assertWordB}, nil
	case '<':
		return &ast{kind: astAssert, sp: sp, assert: assertWordStart}, nil
	case '>':
		return &ast{kind: astAssert, sp: sp, assert: assertWordEnd}, nil
	case 'B':
		return &ast{kind: astAssert, sp: sp, assert: assertNotWordB}, nil
	}
	if isEscapeable(c) {
		// regex-syntax 0.8: any ASCII character but a letter, a digit,
		// '<' and '>' may be escaped to stand for itself.
		return &ast{kind: astLiteral, sp: sp, c: c, lk: litPunct}, nil
	}
	return nil, errAt(sp, msgEscapeUnrec)
}

// maybeSpecialWordBoundary parses the {name} of \b{start}, \b{end},
// \b{start-half} or \b{end-half} (the parser sits on '{'). When the brace
// does not start a name it reports !ok and leaves the position alone: the
// brace is a counted repetition of \b.
func (p *parser) maybeSpecialWordBoundary(start int) (*ast, bool, *parseError) {
	isNameChar := func(c rune) bool { return c == '-' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }
	save := p.pos
	brace := p.pos
	if !p.bumpAndBumpSpace() || !isNameChar(p.char()) {
		p.pos = save
		return nil, false, nil
	}
	nameStart := p.pos
	var name []rune
	for !p.eof() && isNameChar(p.char()) {
		name = append(name, p.char())
		p.bumpAndBumpSpace()
	}
	if p.eof() || p.char() != '}' {
		return nil, true, errAt(span{brace, p.pos}, msgWordBUnclosed)
	}
	nameSp := span{nameStart, p.pos}
	p.bump()
	var k assertKind
	switch string(name) {
	case "start":
		k = assertWordStart
	case "end":
		k = assertWordEnd
	case "start-half":
		k = assertWordStartHalf
	case "end-half":
		k = assertWordEndHalf
	default:
		return nil, true, errAt(nameSp, msgWordBUnrec)
	}
	return &ast{kind: astAssert, sp: span{start, p.pos}, assert: k}, true, nil
}

func (p *parser) parseHex() (*ast, *parseError) {
	kindc := p.char()
	digits := 2
	lk := litHexShort
	switch kindc {
	case 'u':
		digits, lk = 4, litHexOther
	case 'U':
		digits, lk = 8, litHexOther
	}
	if !p.bumpAndBumpSpace() {
		return nil, errAt(p.here(), msgEscapeEOF)
	}
	if p.char() == '{' {
		bracePos := p.pos
		start := p.spanChar().end
		var hex []rune
		for p.bumpAndBumpSpace() && p.char() != '}' {
			if !isHexDigit(p.char()) {
				return nil, errAt(p.spanChar(), msgHexDigit)
			}
			hex = append(hex, p.char())
		}
		if p.eof() {
			return nil, errAt(span{bracePos, p.pos}, msgEscapeEOF)
		}
		end := p.pos
		p.bumpAndBumpSpace()
		if len(hex) == 0 {
			return nil, errAt(span{bracePos, p.pos}, msgHexEmpty)
		}
		r, ok := hexScalar(string(hex))
		if !ok {
			return nil, errAt(span{start, end}, msgHexInvalid)
		}
		return &ast{kind: astLiteral, sp: span{start, p.pos}, c: r, lk: litHexOther}, nil
	}
	start := p.pos
	var hex []rune
	for i := 0; i < digits; i++ {
		if i > 0 && !p.bumpAndBumpSpace() {
			return nil, errAt(p.here(), msgEscapeEOF)
		}
		if !isHexDigit(p.char()) {
			return nil, errAt(p.spanChar(), msgHexDigit)
		}
		hex = append(hex, p.char())
	}
	p.bumpAndBumpSpace()
	end := p.pos
	r, ok := hexScalar(string(hex))
	if !ok {
		return nil, errAt(span{start, end}, msgHexInvalid)
	}
	return &ast{kind: astLiteral, sp: span{start, end}, c: r, lk: lk}, nil
}

func hexScalar(s string) (rune, bool) {
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil || v > unicode.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
		return 0, false
	}
	return rune(v), true
}

func (p *parser) parseUnicodeClass() (*ast, *parseError) {
	negated := p.char() == 'P'
	if !p.bumpAndBumpSpace() {
		return nil, errAt(p.here(), msgEscapeEOF)
	}
	a := &ast{kind: astUnicodeClass, negated: negated}
	var start int
	if p.char() == '{' {
		start = p.spanChar().end
		var name []rune
		for p.bumpAndBumpSpace() && p.char() != '}' {
			name = append(name, p.char())
		}
		if p.eof() {
			return nil, errAt(p.here(), msgEscapeEOF)
		}
		p.bump()
		s := string(name)
		if i := indexStr(s, "!="); i >= 0 {
			a.name, a.value, a.hasVal = s[:i], s[i+2:], true
			a.negated = !a.negated
		} else if i := indexStr(s, ":"); i >= 0 {
			a.name, a.value, a.hasVal = s[:i], s[i+1:], true
		} else if i := indexStr(s, "="); i >= 0 {
			a.name, a.value, a.hasVal = s[:i], s[i+1:], true
		} else {
			a.name = s
		}
	} else {
		start = p.pos
		c := p.char()
		if c == '\\' {
			return nil, errAt(p.spanChar(), msgUnicodeClassInv)
		}
		p.bumpAndBumpSpace()
		a.name = string(c)
	}
	a.sp = span{start, p.pos}
	return a, nil
}

func indexStr(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func (p *parser) parseUncountedRepetition(concat *ast) *parseError {
	op := p.char()
	opStart := p.pos
	if len(concat.subs) == 0 {
		return errAt(p.here(), msgRepMissing)
	}
	last := concat.subs[len(concat.subs)-1]
	if last.kind == astEmpty || last.kind == astFlags {
		return errAt(p.here(), msgRepMissing)
	}
	greedy := true
	if p.bump() && p.char() == '?' {
		greedy = false
		p.bump()
	}
	min, max := 0, -1
	switch op {
	case '?':
		max = 1
	case '+':
		min = 1
	}
	concat.subs[len(concat.subs)-1] = &ast{kind: astRepeat, sp: span{last.sp.start, p.pos}, min: min, max: max, greedy: greedy, plus: op == '+', subs: []*ast{last}}
	_ = opStart
	return nil
}

func (p *parser) parseDecimal() (int, *parseError) {
	for !p.eof() && unicode.IsSpace(p.char()) {
		p.bump()
	}
	start := p.pos
	var digits []byte
	for !p.eof() && p.char() >= '0' && p.char() <= '9' {
		digits = append(digits, byte(p.char()))
		p.bumpAndBumpSpace()
	}
	sp := span{start, p.pos}
	for !p.eof() && unicode.IsSpace(p.char()) {
		p.bumpAndBumpSpace()
	}
	if len(digits) == 0 {
		return 0, errAt(sp, msgRepDecimalEmpty)
	}
	v, err := strconv.ParseUint(string(digits), 10, 32)
	if err != nil {
		return 0, errAt(sp, msgDecimalInvalid)
	}
	return int(v), nil
}

func (p *parser) parseCountedRepetition(concat *ast) *parseError {
	start := p.pos
	if len(concat.subs) == 0 {
		return errAt(p.here(), msgRepMissing)
	}
	last := concat.subs[len(concat.subs)-1]
	if last.kind == astEmpty || last.kind == astFlags {
		return errAt(p.here(), msgRepMissing)
	}
	if !p.bumpAndBumpSpace() {
		return errAt(span{start, p.pos}, msgRepUnclosed)
	}
	min, err := p.parseDecimal()
	if err != nil {
		return err
	}
	max := min
	if p.eof() {
		return errAt(span{start, p.pos}, msgRepUnclosed)
	}
	if p.char() == ',' {
		if !p.bumpAndBumpSpace() {
			return errAt(span{start, p.pos}, msgRepUnclosed)
		}
		if p.char() != '}' {
			max, err = p.parseDecimal()
			if err != nil {
				return err
			}
		} else {
			max = -1
		}
	}
	if p.eof() || p.char() != '}' {
		return errAt(span{start, p.pos}, msgRepUnclosed)
	}
	greedy := true
	if p.bumpAndBumpSpace() && p.char() == '?' {
		greedy = false
		p.bumpAndBumpSpace()
	}
	if max >= 0 && min > max {
		return errAt(span{start, p.pos}, msgRepInvalid)
	}
	concat.subs[len(concat.subs)-1] = &ast{kind: astRepeat, sp: span{last.sp.start, p.pos}, min: min, max: max, greedy: greedy, subs: []*ast{last}}
	return nil
}

// isCaptureChar is regex-syntax 0.8's rule for group names: a letter or
// '_' first, then also digits, '.', '[' and ']' (Unicode letters and
// digits included).
func isCaptureChar(c rune, first bool) bool {
	if c == '_' || unicode.IsLetter(c) || unicode.Is(unicode.Other_Alphabetic, c) || unicode.Is(unicode.Nl, c) {
		return true
	}
	return !first && (c == '.' || c == '[' || c == ']' || unicode.IsDigit(c) || unicode.IsNumber(c))
}

// parseGroup parses the opening of a group. It returns either a flags
// directive (astFlags) or an open group (astGroup without its body).
func (p *parser) parseGroup() (*ast, *parseError) {
	open := p.spanChar()
	p.bump()
	p.bumpSpace()
	if p.bumpIf("?=") || p.bumpIf("?!") || p.bumpIf("?<=") || p.bumpIf("?<!") {
		e := errAt(span{open.start, p.pos}, msgLookaround)
		e.hint = hintPCRE2
		return nil, e
	}
	innerSpan := p.here()
	if p.bumpIf("?P<") || p.bumpIf("?<") {
		p.capIdx++
		idx := p.capIdx
		if p.eof() {
			return nil, errAt(p.here(), msgGroupNameEOF)
		}
		start := p.pos
		for {
			if p.char() == '>' {
				break
			}
			if !isCaptureChar(p.char(), p.pos == start) {
				return nil, errAt(p.spanChar(), msgGroupNameInv)
			}
			if !p.bump() {
				break
			}
		}
		end := p.pos
		if p.eof() {
			return nil, errAt(p.here(), msgGroupNameEOF)
		}
		p.bump()
		name := p.pat[start:end]
		if name == "" {
			return nil, errAt(span{start, start}, msgGroupNameEmpty)
		}
		if orig, dup := p.capNames[name]; dup {
			e := errAt(span{start, end}, msgGroupNameDup)
			e.aux = &orig
			return nil, e
		}
		p.capNames[name] = span{start, end}
		return &ast{kind: astGroup, sp: open, capIdx: idx, name: name}, nil
	}
	if p.bumpIf("?") {
		if p.eof() {
			return nil, errAt(open, msgUnclosedGroup)
		}
		flags, err := p.parseFlags()
		if err != nil {
			return nil, err
		}
		end := p.char()
		p.bump()
		if end == ')' {
			if len(flags) == 0 {
				return nil, errAt(innerSpan, msgRepMissing)
			}
			return &ast{kind: astFlags, sp: span{open.start, p.pos}, flags: flags}, nil
		}
		return &ast{kind: astGroup, sp: open, flags: flags, hasVal: true}, nil
	}
	p.capIdx++
	return &ast{kind: astGroup, sp: open, capIdx: p.capIdx}, nil
}

func (p *parser) parseFlags() ([]flagItem, *parseError) {
	var items []flagItem
	var itemSpans []span
	var lastNeg *span
	neg := false
	for p.char() != ':' && p.char() != ')' {
		c := p.char()
		if c == '-' {
			sc := p.spanChar()
			lastNeg = &sc
			for i, it := range items {
				if it.c == '-' {
					e := errAt(p.spanChar(), msgFlagRepNeg)
					e.aux = &itemSpans[i]
					return nil, e
				}
			}
			items = append(items, flagItem{c: '-'})
			itemSpans = append(itemSpans, sc)
			neg = true
		} else {
			lastNeg = nil
			switch c {
			case 'i', 'm', 's', 'U', 'u', 'x':
			default:
				return nil, errAt(p.spanChar(), msgFlagUnrec)
			}
			for i, it := range items {
				if it.c == byte(c) {
					e := errAt(p.spanChar(), msgFlagDup)
					e.aux = &itemSpans[i]
					return nil, e
				}
			}
			items = append(items, flagItem{c: byte(c), neg: neg})
			itemSpans = append(itemSpans, p.spanChar())
		}
		if !p.bump() {
			return nil, errAt(p.here(), msgFlagEOF)
		}
	}
	if lastNeg != nil {
		return nil, errAt(*lastNeg, msgFlagDangling)
	}
	out := items[:0]
	for _, it := range items {
		if it.c != '-' {
			out = append(out, it)
		}
	}
	if len(items) > 0 && len(out) == 0 {
		// Only a negation: rejected above as dangling, kept for safety.
		return nil, errAt(p.here(), msgFlagDangling)
	}
	return out, nil
}

func flagState(flags []flagItem, c byte) (bool, bool) {
	for _, f := range flags {
		if f.c == c {
			return !f.neg, true
		}
	}
	return false, false
}

func (p *parser) pushGroup(concat *ast) (*ast, *parseError) {
	g, err := p.parseGroup()
	if err != nil {
		return nil, err
	}
	if g.kind == astFlags {
		if v, ok := flagState(g.flags, 'x'); ok {
			p.ignoreWS = v
		}
		concat.subs = append(concat.subs, g)
		return concat, nil
	}
	old := p.ignoreWS
	nw := old
	if v, ok := flagState(g.flags, 'x'); ok {
		nw = v
	}
	p.groupStack = append(p.groupStack, groupState{concat: concat, group: g, ignoreWS: old})
	p.ignoreWS = nw
	return &ast{kind: astConcat, sp: p.here()}, nil
}

func (p *parser) pushAlternate(concat *ast) *ast {
	concat.sp.end = p.pos
	n := len(p.groupStack)
	if n > 0 && p.groupStack[n-1].isAlt {
		alt := p.groupStack[n-1].alt
		alt.subs = append(alt.subs, concat)
	} else {
		alt := &ast{kind: astAlt, sp: span{concat.sp.start, p.pos}, subs: []*ast{concat}}
		p.groupStack = append(p.groupStack, groupState{isAlt: true, alt: alt})
	}
	p.bump()
	return &ast{kind: astConcat, sp: p.here()}
}

func (p *parser) popGroup(groupConcat *ast) (*ast, *parseError) {
	n := len(p.groupStack)
	var alt *ast
	if n > 0 && p.groupStack[n-1].isAlt {
		alt = p.groupStack[n-1].alt
		p.groupStack = p.groupStack[:n-1]
		n--
	}
	if n == 0 || p.groupStack[n-1].isAlt {
		return nil, errAt(p.spanChar(), msgUnopenedGroup)
	}
	st := p.groupStack[n-1]
	p.groupStack = p.groupStack[:n-1]
	p.ignoreWS = st.ignoreWS
	groupConcat.sp.end = p.pos
	p.bump()
	g := st.group
	g.sp.end = p.pos
	if alt != nil {
		alt.sp.end = groupConcat.sp.end
		alt.subs = append(alt.subs, groupConcat)
		g.subs = []*ast{alt}
	} else {
		g.subs = []*ast{groupConcat}
	}
	st.concat.subs = append(st.concat.subs, g)
	return st.concat, nil
}

func (p *parser) popGroupEnd(concat *ast) (*ast, *parseError) {
	concat.sp.end = p.pos
	n := len(p.groupStack)
	var alt *ast
	if n > 0 && p.groupStack[n-1].isAlt {
		alt = p.groupStack[n-1].alt
		p.groupStack = p.groupStack[:n-1]
		n--
	}
	if n > 0 {
		return nil, errAt(p.groupStack[n-1].group.sp, msgUnclosedGroup)
	}
	if alt != nil {
		alt.sp.end = p.pos
		alt.subs = append(alt.subs, concat)
		return alt, nil
	}
	return concat, nil
}

// ---- bracketed classes ----

func (p *parser) unclosedClassError() *parseError {
	for i := len(p.classStack) - 1; i >= 0; i-- {
		if !p.classStack[i].isOp {
			return errAt(p.classStack[i].set.sp, msgUnclosedClass)
		}
	}
	return errAt(p.here(), msgUnclosedClass)
}

func (p *parser) parseSetClass() (*ast, *parseError) {
	union := &classSet{kind: csUnion, sp: p.here()}
	for {
		p.bumpSpace()
		if p.eof() {
			return nil, p.unclosedClassError()
		}
		switch c := p.char(); {
		case c == '[':
			if len(p.classStack) > 0 {
				if cls := p.maybeParseASCIIClass(); cls != nil {
					union.items = append(union.items, cls)
					continue
				}
			}
			nu, err := p.pushClassOpen(union)
			if err != nil {
				return nil, err
			}
			union = nu
		case c == ']':
			nested, done := p.popClass(union)
			if done != nil {
				return &ast{kind: astBracket, sp: done.sp, negated: done.negated, set: done.items[0]}, nil
			}
			union = nested
		case c == '&' && p.peekIs('&'):
			p.pos += 2
			union = p.pushClassOp(csAnd, union)
		case c == '-' && p.peekIs('-'):
			p.pos += 2
			union = p.pushClassOp(csDiff, union)
		case c == '~' && p.peekIs('~'):
			p.pos += 2
			union = p.pushClassOp(csXor, union)
		default:
			item, err := p.parseSetClassRange()
			if err != nil {
				return nil, err
			}
			union.items = append(union.items, item)
		}
	}
}

func (p *parser) peekIs(c rune) bool {
	r, ok := p.peek()
	return ok && r == c
}

func (p *parser) pushClassOpen(parent *classSet) (*classSet, *parseError) {
	start := p.pos
	if !p.bumpAndBumpSpace() {
		return nil, errAt(span{start, p.pos}, msgUnclosedClass)
	}
	negated := false
	if p.char() == '^' {
		negated = true
		if !p.bumpAndBumpSpace() {
			return nil, errAt(span{start, p.pos}, msgUnclosedClass)
		}
	}
	union := &classSet{kind: csUnion, sp: p.here()}
	for p.char() == '-' {
		sp := p.spanChar()
		union.items = append(union.items, &classSet{kind: csLiteral, sp: sp, lo: '-', loSp: sp})
		if !p.bumpAndBumpSpace() {
			return nil, errAt(span{start, start}, msgUnclosedClass)
		}
	}
	if len(union.items) == 0 && p.char() == ']' {
		sp := p.spanChar()
		union.items = append(union.items, &classSet{kind: csLiteral, sp: sp, lo: ']', loSp: sp})
		if !p.bumpAndBumpSpace() {
			return nil, errAt(span{start, p.pos}, msgUnclosedClass)
		}
	}
	set := &classSet{kind: csBracket, sp: span{start, p.pos}, negated: negated}
	p.classStack = append(p.classStack, classState{union: parent, set: set})
	return union, nil
}

// popClassOp combines rhs with a pending operation on the stack, if any.
func (p *parser) popClassOp(rhs *classSet) *classSet {
	n := len(p.classStack)
	if n == 0 || !p.classStack[n-1].isOp {
		return rhs
	}
	st := p.classStack[n-1]
	p.classStack = p.classStack[:n-1]
	return &classSet{kind: st.opKind, sp: span{st.lhs.sp.start, rhs.sp.end}, items: []*classSet{st.lhs, rhs}}
}

func (p *parser) pushClassOp(kind classSetKind, union *classSet) *classSet {
	union.sp.end = p.pos
	lhs := p.popClassOp(union)
	p.classStack = append(p.classStack, classState{isOp: true, opKind: kind, lhs: lhs})
	return &classSet{kind: csUnion, sp: p.here()}
}

// popClass closes a bracket. It returns the parent union when the bracket
// was nested, or the finished outermost bracket.
func (p *parser) popClass(union *classSet) (*classSet, *classSet) {
	union.sp.end = p.pos
	item := p.popClassOp(union)
	n := len(p.classStack)
	st := p.classStack[n-1]
	p.classStack = p.classStack[:n-1]
	p.bump()
	set := st.set
	set.sp.end = p.pos
	set.items = []*classSet{item}
	if len(p.classStack) == 0 {
		return nil, set
	}
	st.union.items = append(st.union.items, set)
	return st.union, nil
}

var asciiClassNames = map[string]bool{
	"alnum": true, "alpha": true, "ascii": true, "blank": true, "cntrl": true, "digit": true, "graph": true,
	"lower": true, "print": true, "punct": true, "space": true, "upper": true, "word": true, "xdigit": true,
}

func (p *parser) maybeParseASCIIClass() *classSet {
	start := p.pos
	negated := false
	if !p.bump() || p.char() != ':' {
		p.pos = start
		return nil
	}
	if !p.bump() {
		p.pos = start
		return nil
	}
	if p.char() == '^' {
		negated = true
		if !p.bump() {
			p.pos = start
			return nil
		}
	}
	nameStart := p.pos
	for p.char() != ':' && p.bump() {
	}
	if p.eof() {
		p.pos = start
		return nil
	}
	name := p.pat[nameStart:p.pos]
	if !p.bumpIf(":]") {
		p.pos = start
		return nil
	}
	if !asciiClassNames[name] {
		p.pos = start
		return nil
	}
	return &classSet{kind: csASCII, sp: span{start, p.pos}, name: name, negated: negated}
}

// parseSetClassItem parses one primitive inside a class.
func (p *parser) parseSetClassItem() (*ast, *parseError) {
	if p.char() == '\\' {
		return p.parseEscape()
	}
	a := &ast{kind: astLiteral, sp: p.spanChar(), c: p.char(), lk: litVerbatim}
	p.bump()
	return a, nil
}

func primToClassItem(a *ast) (*classSet, *parseError) {
	switch a.kind {
	case astLiteral:
		return &classSet{kind: csLiteral, sp: a.sp, lo: a.c, lk: a.lk, loSp: a.sp}, nil
	case astUnicodeClass:
		return &classSet{kind: csUnicode, sp: a.sp, name: a.name, value: a.value, hasVal: a.hasVal, negated: a.negated}, nil
	case astPerlClass:
		return &classSet{kind: csPerl, sp: a.sp, perl: a.perl, negated: a.negated}, nil
	}
	return nil, errAt(a.sp, msgClassEscape)
}

func (p *parser) parseSetClassRange() (*classSet, *parseError) {
	prim1, err := p.parseSetClassItem()
	if err != nil {
		return nil, err
	}
	p.bumpSpace()
	if p.eof() {
		return nil, p.unclosedClassError()
	}
	if nx, ok := p.peekSpace(); p.char() != '-' || (ok && (nx == ']' || nx == '-')) {
		return primToClassItem(prim1)
	}
	if !p.bumpAndBumpSpace() {
		return nil, p.unclosedClassError()
	}
	prim2, err := p.parseSetClassItem()
	if err != nil {
		return nil, err
	}
	sp := span{prim1.sp.start, prim2.sp.end}
	if prim1.kind != astLiteral {
		return nil, errAt(prim1.sp, msgClassRangeLit)
	}
	if prim2.kind != astLiteral {
		return nil, errAt(prim2.sp, msgClassRangeLit)
	}
	if prim1.c > prim2.c {
		return nil, errAt(sp, msgClassRange)
	}
	return &classSet{kind: csRange, sp: sp, lo: prim1.c, hi: prim2.c, lk: prim1.lk, hk: prim2.lk, loSp: prim1.sp, hiSp: prim2.sp}, nil
}

// checkNest enforces the nesting limit on the syntax tree.
func checkNest(a *ast, depth int) *parseError {
	counted := a.kind == astGroup || a.kind == astRepeat || a.kind == astAlt || a.kind == astBracket ||
		(a.kind == astConcat && len(a.subs) > 1)
	if counted {
		if depth >= nestLimit {
			return errAt(a.sp, msgNest)
		}
		depth++
	}
	if a.kind == astBracket && a.set != nil {
		if err := checkClassNest(a.set, depth); err != nil {
			return err
		}
	}
	for _, s := range a.subs {
		if err := checkNest(s, depth); err != nil {
			return err
		}
	}
	return nil
}

func checkClassNest(c *classSet, depth int) *parseError {
	counted := c.kind == csBracket || c.kind == csAnd || c.kind == csDiff || c.kind == csXor ||
		(c.kind == csUnion && len(c.items) > 1)
	if counted {
		if depth >= nestLimit {
			return errAt(c.sp, msgNest)
		}
		depth++
	}
	for _, s := range c.items {
		if err := checkClassNest(s, depth); err != nil {
			return err
		}
	}
	return nil
}
