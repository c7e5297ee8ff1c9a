package rank

import (
	"go/token"
	"sort"
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// goScanDecls cuts Go source (whose lines start at starts, lineStarts)
// into its top-level declarations with a lexer alone (goLexer, which
// tokenizes as go/scanner does): a declaration starts at a func, type,
// var or const keyword at bracket depth 0 (with the comment group that
// ends on the line above it, as go/parser attaches a Doc) and ends with
// the token before the next semicolon at depth 0. It gives the
// declarations goDecls gives at a fraction of the cost
// (TestGoScanMatchesParser compares them over GOROOT); ok is false when
// the source does not scan, its brackets do not balance, or something
// other than a declaration stands at the top level: the caller then
// parses.
func goScanDecls(src []byte, starts []int) (decls []syntax.Decl, ok bool) {
	l := newGoLexer(src)
	line := func(off int) int { return sort.Search(len(starts), func(i int) bool { return starts[i] > off }) }

	// Comment groups as go/parser forms them.
	var (
		prevOff    = -1 // start of the previous non-comment token
		inGroup    bool // a comment group is open
		sameLine   bool // it began on prevLine: a line comment, never a Doc
		groupStart int
		groupEnd   int // line its last comment ends on
	)
	var (
		depth   int
		cur     *syntax.Decl
		kw      token.Token
		paren   bool // a var/const/type group: ( ... )
		step    int  // tokens since the keyword
		recv    bool // inside a method's receiver
		names   []string
		spec    int // var/const/type spec: 0 expect a name, 1 after a name, 2 after a comma, 3 done
		lastEnd int // end of the declaration's last token
		sawPkg  bool
		tparams int // type: 1 after "[" of a name, 2 type parameters
	)
	for {
		tok, off, end := l.scan()
		if l.bad {
			return nil, false
		}
		if tok == token.COMMENT {
			cl, el := line(off), line(max(end-1, off))
			n := 1
			if sameLine {
				n = 0
			}
			if inGroup && cl <= groupEnd+n {
				groupEnd = el
				continue
			}
			inGroup, sameLine, groupStart, groupEnd = true, prevOff >= 0 && line(prevOff) == cl, off, el
			continue
		}
		doc := -1
		if inGroup && !sameLine && groupEnd+1 == line(off) {
			doc = groupStart
		}
		inGroup, sameLine = false, false
		prevOff = off
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON {
			end = off + 1
		}
		// An identifier's text is made only where it is kept (a name):
		// making it for every identifier was a tenth of the scan.
		if cur == nil {
			switch {
			case depth != 0:
				return nil, false
			case tok == token.SEMICOLON:
				continue
			case tok == token.PACKAGE && !sawPkg:
				sawPkg = true
				kw, cur = tok, &syntax.Decl{StartByte: -1}
			case sawPkg && (tok == token.IMPORT || tok == token.FUNC || tok == token.TYPE || tok == token.VAR || tok == token.CONST):
				kw = tok
				cur = &syntax.Decl{StartByte: off, Kind: tok.String()}
				if doc >= 0 {
					cur.StartByte = doc
				}
				if tok == token.FUNC {
					cur.Kind = "function"
				}
				if tok == token.IMPORT {
					cur.StartByte = -1
				}
				paren, step, recv, names, spec, tparams = false, 0, false, nil, 0, 0
			default:
				return nil, false
			}
			lastEnd = end
			continue
		}
		if tok == token.SEMICOLON && depth == 0 {
			if cur.StartByte >= 0 {
				cur.EndByte = lastEnd
				if kw != token.FUNC {
					cur.Name = strings.Join(names, ", ")
				}
				decls = append(decls, *cur)
			}
			cur = nil
			continue
		}
		d := depth
		if paren {
			d--
		}
		switch kw {
		case token.FUNC:
			switch {
			case step == 0 && tok == token.LPAREN:
				cur.Kind, recv = "method", true
			case !recv && cur.Name == "" && depth == 0 && tok == token.IDENT:
				cur.Name = string(src[off:end])
			}
		case token.TYPE, token.VAR, token.CONST:
			switch {
			case step == 0 && tok == token.LPAREN:
				paren = true
			case paren && depth == 1 && tok == token.SEMICOLON:
				spec = 0
			case d == 0 && spec == 0 && tok == token.IDENT, d == 0 && spec == 2 && tok == token.IDENT && kw != token.TYPE:
				names = append(names, string(src[off:end]))
				spec = 1
			case d == 0 && spec == 1 && tok == token.COMMA && kw != token.TYPE:
				spec = 2
			case kw == token.TYPE && !paren && spec == 1:
				// After the name: "=", type parameters, then the type.
				switch {
				case d == 0 && tok == token.ASSIGN && (tparams == 0 || tparams == 4):
				case d == 0 && tok == token.LBRACK && tparams == 0:
					tparams = 1
				case tparams == 1:
					// The second token inside "[" tells type parameters
					// ([T any], [K comparable, V any]) from an array
					// length ([N], [2*N]).
					if step >= 3 && d == 1 {
						tparams = 3 // array
						switch tok {
						case token.IDENT, token.INTERFACE, token.TILDE, token.COMMA, token.LBRACK, token.MUL, token.FUNC, token.CHAN, token.MAP, token.STRUCT:
							tparams = 2
						}
						if tparams == 3 {
							spec = 3
						}
					}
				case tparams == 2 && d == 1 && tok == token.RBRACK:
					tparams = 4
				case tparams == 2:
				case d == 0 && (tok == token.STRUCT || tok == token.INTERFACE):
					cur.Kind = tok.String()
					spec = 3
				default:
					spec = 3
				}
			case d == 0 && spec != 0:
				spec = 3
			}
		}
		switch tok {
		case token.LPAREN, token.LBRACE, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACE, token.RBRACK:
			depth--
			if depth < 0 {
				return nil, false
			}
			if recv && depth == 0 {
				recv = false
			}
		}
		lastEnd = end
		step++
	}
	if cur != nil || depth != 0 || !sawPkg {
		return nil, false
	}
	// Whole lines, as goDecls gives them.
	lineOf := line
	for i := range decls {
		d := &decls[i]
		if d.EndByte <= d.StartByte || d.EndByte > len(src) {
			return nil, false
		}
		d.StartLine, d.EndLine = lineOf(d.StartByte), lineOf(d.EndByte-1)
		d.StartByte = starts[d.StartLine-1]
		if d.EndLine >= len(starts) {
			d.EndByte = len(src)
		} else {
			d.EndByte = starts[d.EndLine]
		}
	}
	return decls, true
}
