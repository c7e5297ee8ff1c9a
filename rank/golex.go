package rank

import (
	"bytes"
	"go/token"
	"unicode"
	"unicode/utf8"
)

// goLexer splits Go source into the tokens go/scanner gives in
// ScanComments mode (the same kinds at the same offsets, automatic
// semicolons included) without making a string of each: goScanDecls
// needs the kinds and offsets of every token but the text of only a few
// identifiers, and go/scanner's per-character decoding and literal
// strings were most of the cost of cutting Go files into chunks.
// TestGoLexerMatchesScanner compares the two over GOROOT.
//
// bad is set where go/scanner would report an error: a NUL byte, invalid
// UTF-8, a byte order mark after the start, a character that starts no
// token, an unterminated comment, string or rune, a newline in a string
// or rune, an escape it rejects, or a rune literal without exactly one
// character. (Malformed number literals, which go/scanner also reports,
// are scanned as numbers.)
type goLexer struct {
	src        []byte
	off        int // next byte to read
	insertSemi bool
	nlPos      int // a semicolon to return at this newline of a comment; -1: none
	bad        bool
}

func newGoLexer(src []byte) *goLexer {
	l := &goLexer{src: src, nlPos: -1}
	if bytes.HasPrefix(src, bom) {
		l.off = len(bom)
	}
	if bytes.IndexByte(src, 0) >= 0 || !utf8.Valid(src) || bytes.Contains(src[l.off:], bom) {
		l.bad = true
	}
	return l
}

var bom = []byte("\uFEFF")

// scan returns the next token: its kind and the offsets of its first byte
// and after its last (an automatic semicolon is one byte, at the newline,
// or empty at the end of the source).
func (l *goLexer) scan() (tok token.Token, start, end int) {
	if l.nlPos >= 0 {
		p := l.nlPos
		l.nlPos = -1
		return token.SEMICOLON, p, p + 1
	}
	src := l.src
	for l.off < len(src) {
		c := src[l.off]
		if c == ' ' || c == '\t' || c == '\r' || c == '\n' && !l.insertSemi {
			l.off++
			continue
		}
		break
	}
	start = l.off
	if l.off >= len(src) {
		if l.insertSemi {
			l.insertSemi = false
			return token.SEMICOLON, start, start
		}
		return token.EOF, start, start
	}
	c := src[l.off]
	insertSemi := false
	switch {
	case c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') || c >= utf8.RuneSelf && l.letterAt(l.off):
		l.ident()
		tok = token.IDENT
		if l.off-start > 1 {
			tok = goKeyword(src[start:l.off])
		}
		switch tok {
		case token.IDENT, token.BREAK, token.CONTINUE, token.FALLTHROUGH, token.RETURN:
			insertSemi = true
		}
	case isDecimalByte(c) || c == '.' && l.off+1 < len(src) && isDecimalByte(src[l.off+1]):
		insertSemi = true
		tok = l.number()
	default:
		l.off++
		switch c {
		case '\n':
			l.insertSemi = false
			return token.SEMICOLON, start, start + 1
		case '"':
			insertSemi, tok = true, token.STRING
			l.quoted('"')
		case '\'':
			insertSemi, tok = true, token.CHAR
			if n := l.quoted('\''); n != 1 {
				l.bad = true
			}
		case '`':
			insertSemi, tok = true, token.STRING
			if i := bytes.IndexByte(src[l.off:], '`'); i >= 0 {
				l.off += i + 1
			} else {
				l.off, l.bad = len(src), true
			}
		case ':':
			tok = l.switch2(token.COLON, token.DEFINE)
		case '.':
			tok = token.PERIOD
			if l.off+1 < len(src) && src[l.off] == '.' && src[l.off+1] == '.' {
				l.off += 2
				tok = token.ELLIPSIS
			}
		case ',':
			tok = token.COMMA
		case ';':
			tok = token.SEMICOLON
		case '(':
			tok = token.LPAREN
		case ')':
			insertSemi, tok = true, token.RPAREN
		case '[':
			tok = token.LBRACK
		case ']':
			insertSemi, tok = true, token.RBRACK
		case '{':
			tok = token.LBRACE
		case '}':
			insertSemi, tok = true, token.RBRACE
		case '+':
			tok = l.switch3(token.ADD, token.ADD_ASSIGN, '+', token.INC)
			insertSemi = tok == token.INC
		case '-':
			tok = l.switch3(token.SUB, token.SUB_ASSIGN, '-', token.DEC)
			insertSemi = tok == token.DEC
		case '*':
			tok = l.switch2(token.MUL, token.MUL_ASSIGN)
		case '/':
			if l.off < len(src) && (src[l.off] == '/' || src[l.off] == '*') {
				nl := l.comment()
				if l.insertSemi && nl >= 0 {
					// A /*...*/ comment holding a newline: the
					// comment, then a semicolon at that newline.
					l.nlPos, l.insertSemi = nl, false
				}
				// Otherwise insertSemi stays as it was.
				return token.COMMENT, start, l.off
			}
			tok = l.switch2(token.QUO, token.QUO_ASSIGN)
		case '%':
			tok = l.switch2(token.REM, token.REM_ASSIGN)
		case '^':
			tok = l.switch2(token.XOR, token.XOR_ASSIGN)
		case '<':
			if l.off < len(src) && src[l.off] == '-' {
				l.off++
				tok = token.ARROW
			} else {
				tok = l.switch4(token.LSS, token.LEQ, '<', token.SHL, token.SHL_ASSIGN)
			}
		case '>':
			tok = l.switch4(token.GTR, token.GEQ, '>', token.SHR, token.SHR_ASSIGN)
		case '=':
			tok = l.switch2(token.ASSIGN, token.EQL)
		case '!':
			tok = l.switch2(token.NOT, token.NEQ)
		case '&':
			if l.off < len(src) && src[l.off] == '^' {
				l.off++
				tok = l.switch2(token.AND_NOT, token.AND_NOT_ASSIGN)
			} else {
				tok = l.switch3(token.AND, token.AND_ASSIGN, '&', token.LAND)
			}
		case '|':
			tok = l.switch3(token.OR, token.OR_ASSIGN, '|', token.LOR)
		case '~':
			tok = token.TILDE
		default:
			// Not a token (go/scanner: "illegal character"); a
			// multi-byte character is passed over whole.
			if c >= utf8.RuneSelf {
				_, n := utf8.DecodeRune(src[start:])
				l.off = start + n
			}
			l.bad = true
			tok, insertSemi = token.ILLEGAL, l.insertSemi
		}
	}
	l.insertSemi = insertSemi
	return tok, start, l.off
}

// letterAt reports whether a letter (go/scanner's isLetter) starts at i.
func (l *goLexer) letterAt(i int) bool {
	r, _ := utf8.DecodeRune(l.src[i:])
	return unicode.IsLetter(r)
}

// ident reads an identifier: letters, digits and underscores.
func (l *goLexer) ident() {
	src := l.src
	for l.off < len(src) {
		c := src[l.off]
		if c < utf8.RuneSelf {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9' {
				l.off++
				continue
			}
			return
		}
		r, n := utf8.DecodeRune(src[l.off:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return
		}
		l.off += n
	}
}

// number reads a number literal as go/scanner delimits it: a base
// prefix, digits of the base (all decimal digits for bases up to 10),
// a fraction, an exponent with its sign, an imaginary 'i'.
func (l *goLexer) number() token.Token {
	src := l.src
	tok := token.INT
	base := 10
	if src[l.off] != '.' {
		if src[l.off] == '0' && l.off+1 < len(src) {
			switch src[l.off+1] | 0x20 {
			case 'x':
				base = 16
				l.off += 2
			case 'b', 'o':
				base = 8 // only whether hex digits count matters here
				l.off += 2
			}
		}
		l.digits(base)
	}
	if l.off < len(src) && src[l.off] == '.' {
		tok = token.FLOAT
		l.off++
		l.digits(base)
	}
	if l.off < len(src) {
		if e := src[l.off] | 0x20; e == 'e' || e == 'p' {
			tok = token.FLOAT
			l.off++
			if l.off < len(src) && (src[l.off] == '+' || src[l.off] == '-') {
				l.off++
			}
			l.digits(10)
		}
	}
	if l.off < len(src) && src[l.off] == 'i' {
		tok = token.IMAG
		l.off++
	}
	return tok
}

func (l *goLexer) digits(base int) {
	src := l.src
	for l.off < len(src) {
		c := src[l.off]
		if isDecimalByte(c) || c == '_' || base == 16 && (c|0x20 >= 'a' && c|0x20 <= 'f') {
			l.off++
			continue
		}
		return
	}
}

func isDecimalByte(c byte) bool { return c >= '0' && c <= '9' }

// quoted reads a string or rune literal after its opening quote q and
// returns how many characters it holds; it sets bad on a newline, the
// end of the source or an escape go/scanner rejects.
func (l *goLexer) quoted(q byte) int {
	src := l.src
	n := 0
	for {
		if l.off >= len(src) {
			l.bad = true
			return n
		}
		c := src[l.off]
		switch {
		case c == q:
			l.off++
			return n
		case c == '\n':
			l.bad = true
			return n
		case c == '\\':
			l.off++
			l.escape(q)
		case c < utf8.RuneSelf:
			l.off++
		default:
			_, w := utf8.DecodeRune(src[l.off:])
			l.off += w
		}
		n++
	}
}

// escape reads an escape after its backslash, as go/scanner checks it.
func (l *goLexer) escape(q byte) {
	src := l.src
	if l.off >= len(src) {
		l.bad = true
		return
	}
	var n, base int
	var max uint32
	switch c := src[l.off]; c {
	case 'a', 'b', 'f', 'n', 'r', 't', 'v', '\\', q:
		l.off++
		return
	case '0', '1', '2', '3', '4', '5', '6', '7':
		n, base, max = 3, 8, 255
	case 'x':
		l.off++
		n, base, max = 2, 16, 255
	case 'u':
		l.off++
		n, base, max = 4, 16, unicode.MaxRune
	case 'U':
		l.off++
		n, base, max = 8, 16, unicode.MaxRune
	default:
		l.bad = true
		return
	}
	var x uint32
	for ; n > 0; n-- {
		if l.off >= len(src) {
			l.bad = true
			return
		}
		d := uint32(digitVal(src[l.off]))
		if d >= uint32(base) {
			l.bad = true
			return
		}
		x = x*uint32(base) + d
		l.off++
	}
	if x > max || 0xD800 <= x && x < 0xE000 {
		l.bad = true
	}
}

func digitVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c|0x20 && c|0x20 <= 'f':
		return int(c|0x20-'a') + 10
	}
	return 16
}

// comment reads a comment after its first '/' and returns the offset of
// the first newline inside a /*...*/ comment (-1: none, or a // comment,
// which ends before its newline).
func (l *goLexer) comment() int {
	src := l.src
	if src[l.off] == '/' {
		if i := bytes.IndexByte(src[l.off:], '\n'); i >= 0 {
			l.off += i
		} else {
			l.off = len(src)
		}
		return -1
	}
	l.off++
	body := l.off
	i := bytes.Index(src[body:], []byte("*/"))
	end := body + i
	if i < 0 {
		l.bad = true
		end = len(src)
		l.off = end
	} else {
		l.off = end + 2
	}
	if j := bytes.IndexByte(src[body:end], '\n'); j >= 0 {
		return body + j
	}
	return -1
}

func (l *goLexer) switch2(t0, t1 token.Token) token.Token {
	if l.off < len(l.src) && l.src[l.off] == '=' {
		l.off++
		return t1
	}
	return t0
}

func (l *goLexer) switch3(t0, t1 token.Token, c2 byte, t2 token.Token) token.Token {
	if l.off < len(l.src) {
		switch l.src[l.off] {
		case '=':
			l.off++
			return t1
		case c2:
			l.off++
			return t2
		}
	}
	return t0
}

func (l *goLexer) switch4(t0, t1 token.Token, c2 byte, t2, t3 token.Token) token.Token {
	if l.off < len(l.src) {
		switch l.src[l.off] {
		case '=':
			l.off++
			return t1
		case c2:
			l.off++
			if l.off < len(l.src) && l.src[l.off] == '=' {
				l.off++
				return t3
			}
			return t2
		}
	}
	return t0
}

// goKeyword returns the keyword token that w spells, or token.IDENT.
func goKeyword(w []byte) token.Token {
	switch string(w) {
	case "break":
		return token.BREAK
	case "case":
		return token.CASE
	case "chan":
		return token.CHAN
	case "const":
		return token.CONST
	case "continue":
		return token.CONTINUE
	case "default":
		return token.DEFAULT
	case "defer":
		return token.DEFER
	case "else":
		return token.ELSE
	case "fallthrough":
		return token.FALLTHROUGH
	case "for":
		return token.FOR
	case "func":
		return token.FUNC
	case "go":
		return token.GO
	case "goto":
		return token.GOTO
	case "if":
		return token.IF
	case "import":
		return token.IMPORT
	case "interface":
		return token.INTERFACE
	case "map":
		return token.MAP
	case "package":
		return token.PACKAGE
	case "range":
		return token.RANGE
	case "return":
		return token.RETURN
	case "select":
		return token.SELECT
	case "struct":
		return token.STRUCT
	case "switch":
		return token.SWITCH
	case "type":
		return token.TYPE
	case "var":
		return token.VAR
	}
	return token.IDENT
}
