package syntax

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCollapse(t *testing.T) {
	long := strings.Repeat("ab ", 100)
	cases := []struct{ in, want string }{
		{"", ""},
		{"  func  f(\n\t a int,\n\t b int)\n", "func f( a int, b int)"},
		{"x\r\ny", "x y"},
		{"bad \xff byte", "bad \uFFFD byte"},
		{long, long[:MaxSignature-3] + "…"},
		{strings.Repeat("é", 150), strings.Repeat("é", 98) + "…"},
	}
	for _, c := range cases {
		got := collapse([]byte(c.in))
		if got != c.want {
			t.Errorf("collapse(%q) = %q, want %q", c.in, got, c.want)
		}
		if len(got) > MaxSignature || !utf8.ValidString(got) {
			t.Errorf("collapse(%q) = %q: too long or invalid", c.in, got)
		}
	}
}

// testIndex: a class (lines 1-10) holding a method (3-5) and a broken
// method (7-9); a function (12-14); a syntax error on line 16.
func testIndex() *index {
	hdr := &Decl{Kind: "class", Name: "C", StartLine: 1, EndLine: 1, Signature: "class C"}
	return &index{
		lines: 16,
		recs: []rec{
			{Decl: Decl{Kind: "class", Name: "C", StartLine: 1, EndLine: 10, EndByte: 100}, parent: -1, container: true, hasErr: true, header: hdr},
			{Decl: Decl{Kind: "method", Name: "m", StartLine: 3, EndLine: 5, StartByte: 20, EndByte: 50}, parent: 0},
			{Decl: Decl{Kind: "method", Name: "bad", StartLine: 7, EndLine: 9, StartByte: 60, EndByte: 90}, parent: 0, hasErr: true},
			{Decl: Decl{Kind: "function", Name: "f", StartLine: 12, EndLine: 14, StartByte: 110, EndByte: 140}, parent: -1},
		},
		errs: []span{{8, 8}, {16, 16}},
	}
}

func TestIndexEnclosing(t *testing.T) {
	ix := testIndex()
	cases := []struct {
		line   int
		name   string
		header bool
		err    error
	}{
		{line: 4, name: "m", header: true},
		{line: 13, name: "f"},
		{line: 2, err: ErrSyntax},  // in the class, which holds an error
		{line: 8, err: ErrSyntax},  // in the broken method
		{line: 11, err: ErrNoDecl}, // between declarations
		{line: 16, err: ErrSyntax}, // an error outside any declaration
		{line: 17, err: ErrNoDecl}, // past the end
	}
	for _, c := range cases {
		d, err := ix.enclosing(c.line)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("line %d: %v, want %v", c.line, err, c.err)
			}
			continue
		}
		if err != nil || d.Name != c.name || (d.Header != nil) != c.header {
			t.Errorf("line %d: %+v, %v; want %s (header %v)", c.line, d, err, c.name, c.header)
		}
	}
	ol := ix.outline()
	if len(ol) != 2 || ol[0].Name != "C" || len(ol[0].Children) != 2 || ol[1].Name != "f" || ol[1].Children != nil {
		t.Errorf("outline = %+v", ol)
	}
}
