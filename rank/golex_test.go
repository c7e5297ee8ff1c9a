package rank

import (
	"bytes"
	"fmt"
	"go/scanner"
	"go/token"
	"math/rand"
	"strings"
	"testing"
)

// lexDiff compares goLexer with go/scanner (ScanComments) on src: the
// same tokens at the same offsets, the same identifiers, and an error
// exactly where go/scanner reports one (numbers excepted, see goLexer).
// It returns "" when they agree.
func lexDiff(src []byte) string {
	fset := token.NewFileSet()
	tf := fset.AddFile("", -1, len(src))
	var s scanner.Scanner
	serr := false
	s.Init(tf, src, func(_ token.Position, msg string) {
		if !numberError(msg) {
			serr = true
		}
	}, scanner.ScanComments)
	type tk struct {
		tok        token.Token
		start, end int
	}
	var want, got []tk
	for {
		pos, tok, lit := s.Scan()
		off := int(pos) - tf.Base()
		end := off + len(lit)
		if tok != token.IDENT {
			end = -1 // only identifiers' text is compared
		}
		want = append(want, tk{tok, off, end})
		if tok == token.EOF {
			break
		}
	}
	l := newGoLexer(src)
	for {
		tok, start, end := l.scan()
		if tok != token.IDENT {
			end = -1
		}
		got = append(got, tk{tok, start, end})
		if tok == token.EOF {
			break
		}
	}
	if serr || l.bad {
		if serr != l.bad {
			return fmt.Sprintf("error: scanner %v, lexer %v", serr, l.bad)
		}
		return ""
	}
	for i := range min(len(want), len(got)) {
		if want[i] != got[i] {
			return fmt.Sprintf("token %d: scanner %v, lexer %v", i, want[i], got[i])
		}
	}
	if len(want) != len(got) {
		return fmt.Sprintf("scanner %d tokens, lexer %d", len(want), len(got))
	}
	return ""
}

// numberError reports whether go/scanner's message is about a malformed
// number literal, which goLexer does not check.
func numberError(msg string) bool {
	for _, m := range []string{"exponent", "mantissa", "radix point", "must separate successive digits", "has no digits", "invalid digit"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// TestGoLexerCases: hand-made sources with the corners of Go's lexical
// grammar, valid and not.
func TestGoLexerCases(t *testing.T) {
	for _, src := range []string{
		"package p\n",
		"\uFEFFpackage p\n",
		"package p\n\uFEFF",
		"package p; var x = 1 /* a\nb */ + 2\n",
		"package p\nvar x = y /* c */\nvar z = w // c\n",
		"package p\nfunc f() { return }\r\n// c\r\n",
		"x /* ok */ y",
		"a /* \n",
		"a /*/ b */",
		"`raw\r\nstring` + \"s\\\"q\" + 'x' + '\\'' + '\\u00e9' + '\\U0001F600' + '\\x41' + '\\101'",
		"'ab'", "''", "'\\z'", "\"\\xZ\"", "\"\\uD800\"", "\"a\nb\"", "\"abc", "`abc", "'a",
		"x := 0x1p-2 + 1e+5 + .5 + 1. + 0b101 + 0o17 + 1_000 + 3i + 0x_Ff",
		"a...b.c..d", "a<-b <<= c >>= d &^= e &^ f && g || h != i == j <= k >= l",
		"x++\ny--\nz ~ w",
		"α := β + ǅ1 // unicode letters",
		"a @ b", "a # b", "a $ b", "a ? b", "a \\ b", "a · b",
		"a\x00b", "a\xffb", "",
		"package p\nfunc f() {\n\tgoto L\nL:\n\tfallthrough\n}\n",
	} {
		if d := lexDiff([]byte(src)); d != "" {
			t.Errorf("%q: %s", src, d)
		}
	}
}

// TestGoLexerMatchesScanner compares the lexer with go/scanner on every
// Go file of GOROOT/src (testdata too: it holds broken sources), and on
// random damage of some of them.
func TestGoLexerMatchesScanner(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	files, differ := 0, 0
	eachGorootGo(t, func(p string, src []byte) {
		files++
		if msg := lexDiff(src); msg != "" {
			differ++
			if differ <= 10 {
				t.Errorf("%s: %s", p, msg)
			}
		}
		if files%20 == 0 && len(src) > 0 {
			b := bytes.Clone(src)
			for k := 0; k < 3; k++ {
				b[rng.Intn(len(b))] = "{}()[]`\"'/*\n\r\x00ab;\\.0xe+-"[rng.Intn(24)]
			}
			if msg := lexDiff(b); msg != "" {
				differ++
				if differ <= 10 {
					t.Errorf("%s (damaged): %s", p, msg)
				}
			}
		}
	})
	t.Logf("%d files", files)
	if differ > 0 {
		t.Errorf("%d sources lexed differently", differ)
	}
}
