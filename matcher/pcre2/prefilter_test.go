package pcre2

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/matcher"
)

// TestOverApprox checks the translation of each construct.
func TestOverApprox(t *testing.T) {
	cases := []struct {
		in, out string
		ok      bool
	}{
		{`(?<=func )\w+Error\b`, `[\w\p{N}]+Error`, true},
		{`a(?=b)c`, `ac`, true},
		{`(?<!\w)(?:foo)(?!\w)`, `(?:foo)`, true},
		{`(?m:^)(?:x)(?m:$)`, `(?:)(?:x)(?:)`, true},
		{`(a)\1`, `(?:a)[^\n]*`, true},
		{`(?<n>a)\k<n>`, `(?:a)[^\n]*`, true},
		{`a++b*+c?+d{2,3}+`, `a+b*c?d{2,3}`, true},
		{`(?>ab|a)c`, `(?:ab|a)c`, true},
		{`a\Kb`, `ab`, true},
		{`[^abc]`, `[^\nabc]`, true},
		{`[^\w]`, `[^\n]`, true},
		{`[\x00-\x1f-]`, `[\x00-\x1f\-]`, true},
		{`\Qa.b\E`, `(?:a\.b)`, true},
		{`x{,3}`, `x\{,3\}`, true},
		{`(?i)ab`, `ab`, true},
		{`\d\s\h\v`, `[\p{Nd}][\s\x{180E}][\t\p{Zs}\x{180E}][\x0B\f\r\x{85}\x{2028}\x{2029}]`, true},
		{`(?x) a`, ``, false},
		{`(?R)`, ``, false},
		{`(*SKIP)a`, ``, false},
		{`[[:alpha:]]`, ``, false},
		{`\R`, ``, false},
		{`\p{^Greek}`, ``, false},
		{`(?(1)a|b)`, ``, false},
		{`a{2000}`, ``, false},
		{`[^a-c](?i:A)`, ``, false},
		{`(?-i)[^b]`, ``, false},
		{`(?i:a)[b-c]`, `(?:a)[b-c]`, true},
	}
	for _, c := range cases {
		got, _, ok := overApprox(c.in)
		if ok != c.ok || ok && got != c.out {
			t.Errorf("overApprox(%q) = %q, %v; want %q, %v", c.in, got, ok, c.out, c.ok)
		}
	}
}

// prefilterPieces are the parts random patterns are made of: PCRE2's
// constructs the translation handles and some it refuses, with Unicode
// classes, case and numbers that PCRE2's UCP and package matcher's
// dialect read differently if the widening were wrong.
var prefilterPieces = []string{
	"a", "b", "A", "é", "É", "ß", "σ", "Σ", "k", "K", "1", "²", "٣", " ", "_", "-", ".", "\\.",
	"\\w", "\\W", "\\d", "\\D", "\\s", "\\S", "\\h", "\\v", "\\b", "\\B",
	"[a-c]", "[^a-c]", "[\\w-]", "[^\\s]", "[\\p{Greek}x]", "\\p{L}", "\\p{Nd}", "\\pL",
	"(?<=a)", "(?<!b)", "(?=\\w)", "(?!1)", "(?i)", "(?i:A)", "(?-i)", "(?s)", "(?m)", "^", "$", "\\A", "\\z", "\\K",
	"(a)\\1", "(?<n>.)\\k<n>", "(?>a|ab)", "a++", "\\w*+", "x{2}", "\\d{1,3}", ".{3,}", "(?:ab|c)*",
	"(a|)", "\\Qa.\\E", "\\x{e9}", "\\x41", "{", "}", "]", "#",
}

// prefilterLines are the subjects: ASCII and wider text, case and digits.
var prefilterLines = []string{
	"", "a", "ab", "abc", "aab", "bab", "A", "AB", "Ab1", "éÉ", "ßSS", "σΣς", "kK\u212a", "1²٣", "a b", "a\tb", "a\u00a0b",
	"a\u180eb", "x.y", "xx", "xyzzy", "a_b-c", "αβγ", "Error", "funcError", "a.b", "{}", "]#", "\xff\xfe", "aé1", "AÉ²",
}

// TestPrefilterNeverDropsAMatch: on random patterns over random lines,
// a line PCRE2 matches is always one the prefilter lets through, and
// NextLine finds the same lines with and without it.
func TestPrefilterNeverDropsAMatch(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	withPre := 0
	for n := 0; n < 6000; n++ {
		var b strings.Builder
		for k := 1 + rng.Intn(4); k > 0; k-- {
			b.WriteString(prefilterPieces[rng.Intn(len(prefilterPieces))])
			if rng.Intn(6) == 0 {
				b.WriteString([]string{"*", "+", "?", "{0,2}", "+?", "|"}[rng.Intn(6)])
			}
		}
		pat := b.String()
		for _, cm := range []matcher.CaseMode{matcher.Sensitive, matcher.Insensitive} {
			o := matcher.Options{Patterns: []string{pat}, Case: cm, LineTerminator: '\n'}
			m, err := Compile(o)
			if err != nil {
				continue
			}
			if m.pre == nil {
				continue
			}
			withPre++
			plain := *m
			plain.pre = nil
			var buf strings.Builder
			for i := 0; i < 12; i++ {
				line := prefilterLines[rng.Intn(len(prefilterLines))] + prefilterLines[rng.Intn(len(prefilterLines))]
				if plain.IsMatch([]byte(line)) && !m.pre.IsMatch([]byte(line)) {
					tr, _, _ := overApprox(pat)
					t.Fatalf("pattern %q (case %v, prefilter %q): the prefilter drops line %q", pat, cm, tr, line)
				}
				buf.WriteString(line + "\n")
			}
			data := []byte(buf.String())
			for from := 0; from < len(data); {
				s1, e1, ok1 := m.NextLine(data, from)
				s2, e2, ok2 := plain.NextLine(data, from)
				if s1 != s2 || e1 != e2 || ok1 != ok2 {
					t.Fatalf("pattern %q (case %v): NextLine from %d = %d,%d,%v with the prefilter, %d,%d,%v without (data %q)", pat, cm, from, s1, e1, ok1, s2, e2, ok2, data)
				}
				if !ok1 {
					break
				}
				from = e1
			}
		}
	}
	if withPre < 2000 {
		t.Fatalf("only %d patterns got a prefilter", withPre)
	}
}
