package ignore

import (
	"errors"
	"reflect"
	"testing"
)

func lit(s string) []token {
	var out []token
	for _, r := range s {
		out = append(out, token{kind: tLiteral, ch: r})
	}
	return out
}

func cat(parts ...[]token) []token {
	var out []token
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func tk(k tokenKind) []token { return []token{{kind: k}} }

func cls(negated bool, rs ...runeRange) []token {
	return []token{{kind: tClass, negated: negated, ranges: rs}}
}

func alts(branches ...[]token) []token {
	return []token{{kind: tAlternates, alts: branches}}
}

func TestParseTokens(t *testing.T) {
	star, rp, rs, rzm := tk(tZeroOrMore), tk(tRecursivePrefix), tk(tRecursiveSuffix), tk(tRecursiveZeroOrMore)
	tests := []struct {
		glob   string
		escape bool
		want   []token
	}{
		{"a", true, lit("a")},
		{"a?b", true, cat(lit("a"), tk(tAny), lit("b"))},
		{"*a*", true, cat(star, lit("a"), star)},
		{"**", true, rp},
		{"**/", true, rp},
		{"**/a", true, cat(rp, lit("a"))},
		{"/**", true, rs},
		{"/**/", true, rzm},
		{"a/**/b", true, cat(lit("a"), rzm, lit("b"))},
		{"a/**", true, cat(lit("a"), rs)},
		{"**/**", true, rp},
		{"**a", true, cat(star, star, lit("a"))},
		{"a**", true, cat(lit("a"), star, star)},
		{"a/**b", true, cat(lit("a/"), star, star, lit("b"))},
		{"***", true, cat(star, star, star)},
		{"[a]", true, cls(false, runeRange{'a', 'a'})},
		{"[!a]", true, cls(true, runeRange{'a', 'a'})},
		{"[^a-z]", true, cls(true, runeRange{'a', 'z'})},
		{"[-]", true, cls(false, runeRange{'-', '-'})},
		{"[]]", true, cls(false, runeRange{']', ']'})},
		{"[!!]", true, cls(true, runeRange{'!', '!'})},
		{"[a-]", true, cls(false, runeRange{'a', 'a'}, runeRange{'-', '-'})},
		{"[-a-z-]", true, cls(false, runeRange{'-', '-'}, runeRange{'a', 'z'}, runeRange{'-', '-'})},
		{"[]-z]", true, cls(false, runeRange{']', 'z'})},
		{"[--z]", true, cls(false, runeRange{'-', 'z'})},
		{`[\]`, true, cls(false, runeRange{'\\', '\\'})},
		{"[é-ü]", true, cls(false, runeRange{'é', 'ü'})},
		{"{a,b}", true, alts(lit("a"), lit("b"))},
		{"x{a,,b}y", true, cat(lit("x"), alts(lit("a"), nil, lit("b")), lit("y"))},
		{"a,b", true, lit("a,b")},
		{"{**/x,b}", true, alts(cat(rp, lit("x")), lit("b"))},
		{"{a/**,b}", true, alts(cat(lit("a"), rs), lit("b"))},
		{"{**}", true, alts(cat(star, star))},
		{`\*`, true, lit("*")},
		{`\*`, false, cat(lit(`\`), star)},
		{`a\/**`, true, cat(lit("a"), rs)},
		{"中", true, lit("中")},
	}
	for _, tc := range tests {
		pg, err := parseGlob(tc.glob, tc.escape, false)
		if err != nil {
			t.Errorf("parseGlob(%q): %v", tc.glob, err)
			continue
		}
		got := pg.toks
		if !reflect.DeepEqual(normTokens(got), normTokens(tc.want)) {
			t.Errorf("parseGlob(%q) =\n %+v\nwant\n %+v", tc.glob, got, tc.want)
		}
	}
}

// normTokens makes nil and empty slices compare equal.
func normTokens(ts []token) []token {
	out := []token{}
	for _, t := range ts {
		if len(t.ranges) == 0 {
			t.ranges = nil
		}
		var as [][]token
		for _, a := range t.alts {
			as = append(as, normTokens(a))
		}
		t.alts = as
		out = append(out, t)
	}
	return out
}

// The messages are rg 15.2's (checked with rg --files -g GLOB).
func TestParseErrors(t *testing.T) {
	tests := []struct {
		glob string
		kind ErrorKind
		msg  string
	}{
		{"[a", ErrUnclosedClass, "error parsing glob '[a': unclosed character class; missing ']'"},
		{"[", ErrUnclosedClass, "error parsing glob '[': unclosed character class; missing ']'"},
		{"[]", ErrUnclosedClass, "error parsing glob '[]': unclosed character class; missing ']'"},
		{"[!]", ErrUnclosedClass, "error parsing glob '[!]': unclosed character class; missing ']'"},
		{"[中", ErrUnclosedClass, "error parsing glob '[中': unclosed character class; missing ']'"},
		{"[z-a]", ErrInvalidRange, "error parsing glob '[z-a]': invalid range; 'z' > 'a'"},
		{"[z--]", ErrInvalidRange, "error parsing glob '[z--]': invalid range; 'z' > '-'"},
		{"{a,b", ErrUnclosedAlternates, "error parsing glob '{a,b': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)"},
		{"{", ErrUnclosedAlternates, "error parsing glob '{': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)"},
		{"{a,{b,c}", ErrUnclosedAlternates, "error parsing glob '{a,{b,c}': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)"},
		{"a}", ErrUnopenedAlternates, "error parsing glob 'a}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"},
		{"{a,b}}", ErrUnopenedAlternates, "error parsing glob '{a,b}}': unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"},
		{`\`, ErrDanglingEscape, `error parsing glob '\': dangling '\'`},
		{`foo\`, ErrDanglingEscape, `error parsing glob 'foo\': dangling '\'`},
	}
	for _, tc := range tests {
		_, err := CompileGlob(tc.glob, GlobOptions{BackslashEscape: true})
		var ge *GlobError
		if !errors.As(err, &ge) {
			t.Errorf("CompileGlob(%q) error = %v, want a *GlobError", tc.glob, err)
			continue
		}
		if ge.Kind != tc.kind || err.Error() != tc.msg {
			t.Errorf("CompileGlob(%q) = kind %d %q, want kind %d %q", tc.glob, ge.Kind, err, tc.kind, tc.msg)
		}
	}
	// Without escapes a lone backslash is fine.
	if _, err := CompileGlob(`\`, GlobOptions{}); err != nil {
		t.Errorf(`CompileGlob("\\") without escapes: %v`, err)
	}
}
