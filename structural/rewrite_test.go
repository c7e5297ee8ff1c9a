package structural

import (
	"strings"
	"testing"
)

// TestIndentAt: a line's indentation is its leading spaces (a tab ends
// them), looked for at most IndentLookBack bytes back.
func TestIndentAt(t *testing.T) {
	long := strings.Repeat("x", IndentLookBack+1)
	for _, c := range []struct {
		src  string
		want int
	}{
		{"    foo", 4},
		{"a\n    foo(", 4},
		{"a\n  x = foo", 2},
		{"a\n\t\tfoo", 0},
		{"a\n\t  foo", 0},
		{"a\nfoo", 0},
		{"  " + long, 0},
		{"\n  " + long[:IndentLookBack-3], 2},
	} {
		if got := indentAt([]byte(c.src), len(c.src)); got != c.want {
			t.Errorf("%q: %d, want %d", c.src, got, c.want)
		}
	}
}

// TestExpansionLines: a multi-line capture moves to the template's
// indentation keeping its own relative layout (a line with less
// indentation than is removed keeps its own), then the whole expansion
// takes the match's indentation; lines inside a string literal stay.
func TestExpansionLines(t *testing.T) {
	var x expansion
	x.b = append(x.b, "wrap(\n  "...)
	// "1,\n      2,\n\n                3" captured at indent 12, put at 2.
	x.lines("1,\n      2,\n\n                3", 12, 2, 0, nil)
	x.b = append(x.b, "\n)"...)
	x.indent(12)
	want := "wrap(\n              1,\n                  2,\n            \n                  3\n            )"
	if string(x.b) != want {
		t.Errorf("got %q\nwant %q", x.b, want)
	}
	var y expansion
	// Lines starting at offsets 4 and 9 of the source are in a literal.
	y.lines("s = \"\"\"\n  a\n\"\"\"\nb", 4, 8, 0, []Span{{4, 13}})
	y.indent(4)
	if got := string(y.b); got != "s = \"\"\"\n  a\n\"\"\"\n        b" {
		t.Errorf("literal lines re-indented: %q", got)
	}
}

// TestParseAnB reads CSS's An+B as ast-grep does.
func TestParseAnB(t *testing.T) {
	for s, want := range map[string][2]int{"3": {0, 3}, "2n+1": {2, 1}, " 2n + 2": {2, 2}, "-n+3": {-1, 3}, "n": {1, 0}, "+3": {0, 3}, "2n": {2, 0}, "-2n-1": {-2, -1}} {
		a, b, err := parseAnB(s)
		if err != nil || a != want[0] || b != want[1] {
			t.Errorf("%q: %d, %d, %v; want %v", s, a, b, err, want)
		}
	}
	for _, s := range []string{"odd", "", "2n+", "n2", "x"} {
		if _, _, err := parseAnB(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

// TestConvertCase: convert's cases and word splitting, as ast-grep 0.51.1
// answers them.
func TestConvertCase(t *testing.T) {
	for _, c := range []struct{ in, toCase, want string }{
		{"HTTPServer", "camelCase", "httpServer"},
		{"HTTPServer", "snakeCase", "http_server"},
		{"HTTPServer", "pascalCase", "HTTPServer"},
		{"get-url.v2", "camelCase", "getUrlV2"},
		{"get-url.v2", "kebabCase", "get-url-v2"},
		{"already snake_case", "pascalCase", "AlreadySnakeCase"},
		{"a1B2c", "snakeCase", "a1b_2c"},
		{"a1B2c", "pascalCase", "A1B2c"},
		{"ABC", "camelCase", "abc"},
		{"fooBar", "lowerCase", "foobar"},
		{"foo_bar", "capitalize", "Foo_bar"},
		{"x", "pascalCase", "X"},
		{"Über_groß", "upperCase", "ÜBER_GROSS"},
		{"Über_groß", "camelCase", "überGroß"},
		{"straße", "capitalize", "Straße"},
	} {
		tr := &transform{op: "convert", toCase: c.toCase}
		if got := tr.apply(c.in); got != c.want {
			t.Errorf("%s(%q) = %q, want %q", c.toCase, c.in, got, c.want)
		}
	}
	tr := &transform{op: "convert", toCase: "snakeCase", seps: []string{"underscore"}}
	if got := tr.apply("camelCase_Not"); got != "camelcase_not" {
		t.Errorf("separatedBy underscore: %q", got)
	}
	one, minus := 1, -1
	sub := &transform{op: "substring", start: &one, end: &minus}
	if got := sub.apply("123"); got != "2" {
		t.Errorf("substring: %q", got)
	}
}
