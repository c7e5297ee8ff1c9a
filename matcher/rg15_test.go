package matcher

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// Differential tests against ripgrep 15.2.0, the reference of issue 12:
// the pattern assembly (each -e wrapped on its own, -w as half word
// boundaries, -x), the special word boundaries, --no-unicode literals, the
// NUL ban and the Unicode 16.0 property tables. Answers are recorded from
// rg 15.2 in testdata/golden/matcher/TestRG15*.json:
//
//	EVGREP_UPDATE_GOLDEN=1 EVGREP_REFERENCE_RG=/opt/rg15/rg go test ./matcher/ -run TestRG15
//
// Case folding and smart case's uppercase test use the generated Unicode
// 16.0 tables too (TestRG15PatternAssembly has pairs new in 15.1 and 16.0).

// open15 opens the golden file of a rg 15.2 test, and skips the test when
// the reference named explicitly is another rg (its answers differ).
func open15(t *testing.T) *testref.Golden {
	t.Helper()
	if ref, ok := testref.Find(); ok && ref.Explicit && !testref.Updating() && !strings.HasPrefix(ref.Version, "ripgrep 15.2.") {
		t.Skipf("reference is %q; these answers are ripgrep 15.2.0's", ref.Version)
	}
	return testref.Open(t)
}

// rg15Inputs are generated haystacks: ASCII words, punctuation runs,
// non-ASCII letters and marks, invalid UTF-8 next to words, empty lines.
func rg15Inputs() []string {
	words := []string{"foo", "bar", "Foo", "BAR", "foo_bar", "x1", "π", "Δδ", "é", "e\u0301", "日本", "٣", "..", "-", "=", " ", "\t", "\xff", "\xce", "ok!", "(x)", "a.b", "\u200d", "\U0001F600"}
	r := rand.New(rand.NewSource(15))
	var out []string
	for n := 0; n < 6; n++ {
		var b strings.Builder
		for l := 0; l < 8; l++ {
			k := r.Intn(5)
			for i := 0; i < k; i++ {
				if i > 0 && r.Intn(3) > 0 {
					b.WriteString([]string{" ", "", ",", "\xff"}[r.Intn(4)])
				}
				b.WriteString(words[r.Intn(len(words))])
			}
			b.WriteByte('\n')
		}
		out = append(out, b.String())
	}
	return append(out, "\u1c89\u1c8a \ua7cb\u0264 \u0390\u1fd3 \ufb05\ufb06 \ua7da\ua7db\ua7dc\u019b \U00010D50\U00010D70 k\u212a\n", "\n##\n", "foo\xfffoo\n", "some.domain.com\nsome.domain.com/x\n", "FooBar\n", "a b c\n", "é-foo foo-é\n")
}

// compare15 is compareWithRG for rg 15, which starts every error message
// with "rg: " (the matcher's errors are the text after it).
func compare15(t *testing.T, g *testref.Golden, o Options, input string) {
	t.Helper()
	got := ours(t, o, []byte(input))
	want := runRG(t, g, o, []byte(input))
	want.err = strings.TrimPrefix(want.err, "rg: ")
	if o.Multiline {
		want = normalizeMultiline(want, []byte(input))
	}
	if got.err != want.err {
		t.Errorf("%s on %q: error\n got: %q\nwant: %q", describe(o), input, got.err, want.err)
		return
	}
	if !reflect.DeepEqual(got.lines, want.lines) {
		t.Errorf("%s on %q:\n got %v\nwant %v", describe(o), input, fmtLines(got.lines), fmtLines(want.lines))
	}
}

type rg15Case struct {
	pats []string
	mod  func(*Options)
}

func TestRG15PatternAssembly(t *testing.T) {
	g := open15(t)
	word := func(o *Options) { o.Word = true }
	line := func(o *Options) { o.Line = true }
	noUni := func(o *Options) { o.NoUnicode = true }
	icase := func(o *Options) { o.Case = Insensitive }
	smart := func(o *Options) { o.Case = Smart }
	both := func(fs ...func(*Options)) func(*Options) {
		return func(o *Options) {
			for _, f := range fs {
				f(o)
			}
		}
	}
	cases := []rg15Case{
		{pats: []string{")("}},
		{pats: []string{")(", "x"}},
		{pats: []string{"(?i)foo", "bar"}},
		{pats: []string{"(?i)notfoo", "bar"}},
		{pats: []string{"bar", "(?i)foo"}},
		{pats: []string{"(?U)o+", "a+"}},
		{pats: []string{"a|", "b"}},
		{pats: []string{""}},
		{pats: []string{"", "foo"}, mod: word},
		{pats: []string{"foo", "bar"}, mod: line},
		{pats: []string{"foo|bar", "x1"}, mod: line},
		{pats: []string{"."}, mod: word},
		{pats: []string{""}, mod: word},
		{pats: []string{`\w+`}, mod: word},
		{pats: []string{`\w+`}, mod: both(word, noUni)},
		{pats: []string{`(\w+\.)*domain\.(\w+)`}, mod: both(word, noUni)},
		{pats: []string{`(\w+\.)*domain\.(\w+)`}, mod: word},
		{pats: []string{"foo"}, mod: word},
		{pats: []string{"foo"}, mod: both(word, noUni)},
		{pats: []string{"é"}, mod: word},
		{pats: []string{`\W`}, mod: word},
		{pats: []string{`\W+`}, mod: word},
		{pats: []string{`.+`}, mod: word},
		{pats: []string{`a.b|x`}, mod: word},
		{pats: []string{"foo", "bar"}, mod: both(word, icase)},
		{pats: []string{"Foo", "bar"}, mod: both(word, smart)},
		{pats: []string{`\bfoo`}, mod: word},
		{pats: []string{`-`}, mod: word},
		{pats: []string{`=+`}, mod: both(word, line)},
		{pats: []string{"Δ"}, mod: noUni},
		{pats: []string{"Δ"}, mod: both(noUni, icase)},
		{pats: []string{"δ+"}, mod: noUni},
		{pats: []string{"[δ]"}, mod: noUni},
		{pats: []string{`(?u:\w)+`}, mod: noUni},
		{pats: []string{`(?u:δ)`}, mod: noUni},
		{pats: []string{"日本"}, mod: both(noUni, word)},
		{pats: []string{"(?x) f o o # comment"}},
		{pats: []string{"(?x)foo", "b a r"}},
		{pats: []string{"a{", "b"}},
		{pats: []string{`\p{Foo}`}},
		{pats: []string{"(", "x"}},
		{pats: []string{"a{2,1}"}, mod: line},
		{pats: []string{`\n|b`}}, {pats: []string{`x|\n|b`}}, {pats: []string{`xy|\n`}}, {pats: []string{`a\n|b`}},
		{pats: []string{`(?:\n|b)c`}}, {pats: []string{`[\n]|xy`}}, {pats: []string{`\n?b`}},
		// regex-syntax 0.8: escaped punctuation, (?<name>), empty classes.
		{pats: []string{`\!|\%|\"|\,|\=`}}, {pats: []string{`\ `}}, {pats: []string{"\\\t"}}, {pats: []string{`[\!\ \@]+`}},
		{pats: []string{`\_`}}, {pats: []string{`\/\:\;`}}, {pats: []string{`\'`}}, {pats: []string{`\e`}}, {pats: []string{`\9`}},
		{pats: []string{`(?<n>o+)`}}, {pats: []string{`(?<n>a)(?<n>b)`}}, {pats: []string{`(?<>a)`}}, {pats: []string{`(?<1a>a)`}},
		{pats: []string{`(?<n`}}, {pats: []string{`(?<é>o)`}}, {pats: []string{`(?<a.b[0]>o)`}}, {pats: []string{`(?P<n>f)(?<m>o)`}},
		{pats: []string{`[a&&b]`}}, {pats: []string{`x[a&&b]?`}}, {pats: []string{`[a&&b]*foo`}}, {pats: []string{`o|[a&&b]`}},
		{pats: []string{`(?-u:[^\x00-\xff])`}}, {pats: []string{`[^\x00-\x{10FFFF}]`}}, {pats: []string{`[a&&b]|\n`}},
		{pats: []string{`[\n&&\n]`}}, {pats: []string{`[a&&b]`}, mod: word}, {pats: []string{`[a&&b]+`}, mod: line},
		// Case pairs new in Unicode 15.1 and 16.0, folded and judged by -S.
		{pats: []string{"\u1c8a"}, mod: icase}, {pats: []string{"\u1c89"}, mod: smart}, {pats: []string{"\u1c8a"}, mod: smart},
		{pats: []string{"\ua7cb"}, mod: icase}, {pats: []string{"\u0264"}, mod: icase}, {pats: []string{"\ua7cb"}, mod: smart},
		{pats: []string{"\u0390"}, mod: icase}, {pats: []string{"\ufb05"}, mod: icase}, {pats: []string{"[\ua7da-\ua7dc]+"}, mod: icase},
		{pats: []string{"\U00010D50"}, mod: icase}, {pats: []string{"\U00010D70"}, mod: smart}, {pats: []string{`\p{Lu}+`}, mod: icase},
	}
	inputs := rg15Inputs()
	for i, c := range cases {
		o := Options{Patterns: c.pats, LineTerminator: '\n', BanNUL: true}
		if c.mod != nil {
			c.mod(&o)
		}
		// Each case against two of the generated haystacks (and the
		// fixed ones at the end, in turn).
		compare15(t, g, o, inputs[i%6])
		compare15(t, g, o, inputs[6+i%(len(inputs)-6)])
	}
}

func TestRG15WordBoundaries(t *testing.T) {
	g := open15(t)
	pats := []string{`\<`, `\>`, `\<\w+\>`, `\b{start}`, `\b{end}`, `\b{start-half}`, `\b{end-half}`,
		`\b{start}\w`, `\w\b{end}`, `\b{start-half}\w+\b{end-half}`, `\b{start-half}.`, `.\b{end-half}`,
		`(?-u:\b{start}\w+)`, `(?-u:\w+\b{end})`, `(?-u:\b{start-half}.)`, `(?-u:.\b{end-half})`,
		`\B`, `(?-u:\B)`, `\b{start}{2}`, `\b{2}`, `(?x)\b{ start }foo`, `\<foo|bar\>`,
		`\b{foo}`, `\b{start`, `\b{st@rt}`, `\b{ start}`, `\b{START}`, `[\<]`, `[\b{start}]`, `a\B{start}`, `\b{}`,
	}
	inputs := rg15Inputs()
	for i, p := range pats {
		o := Options{Patterns: []string{p}, LineTerminator: '\n', BanNUL: true}
		compare15(t, g, o, inputs[i%6])
		compare15(t, g, o, inputs[6+i%(len(inputs)-6)])
		if i%3 == 0 {
			o.NoUnicode = true
			compare15(t, g, o, inputs[(i+1)%6])
		}
	}
}

func TestRG15NULBan(t *testing.T) {
	g := open15(t)
	pats := []string{`foo\x00?`, `\x00`, `a\x00b`, `\x00|b`, `b|\x00`, `\x00|bc`, `cd|\x00|b`, `(?:\x00|b)c`,
		`[\x00]`, `[\x00a]`, `[\x00-\x00]`, `[\x00]?`, `\x00{0}`, `\x00{2}`, `(?i)a\x00`, `(?-u:\x00)`,
		`\x{0}`, `a\x00|ab`, `[^\x01-\x{10FFFF}]`, `foo[\x00-\x01]`,
	}
	for _, p := range pats {
		o := Options{Patterns: []string{p}, LineTerminator: '\n', BanNUL: true}
		compare15(t, g, o, "foo\n")
	}
	// --null-data turns the ban off (the line terminator's rule applies).
	for _, p := range append(pats[:4:4], `\x00|b|cd`, `(?:\x00|b)+`) {
		o := Options{Patterns: []string{p}, LineTerminator: 0}
		compare15(t, g, o, "foo\x00")
	}
	// A raw NUL can only come from -f. When every pattern is a plain
	// literal rg 15 does not ban it (nor with -F); otherwise it does.
	for _, c := range []struct {
		pats  []string
		fixed bool
	}{
		{pats: []string{"foo\x00"}}, {pats: []string{"a\x00b", "foo"}}, {pats: []string{"\x00"}},
		{pats: []string{"fo+\x00"}}, {pats: []string{"a\x00|bc"}}, {pats: []string{"a\x00"}, fixed: true},
		{pats: []string{"(\x00"}, fixed: true},
	} {
		dir := t.TempDir()
		f := filepath.Join(dir, "pats")
		if err := os.WriteFile(f, []byte(strings.Join(c.pats, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		vars := map[string]string{"DIR": dir}
		args := []string{"--no-config", "--count"}
		if c.fixed {
			args = append(args, "-F")
		}
		want := g.Run(t, testref.Case{Name: fmt.Sprintf("-f %q", c.pats), Args: append(args, "-f", f, "-"),
			Stdin: []byte("foo\nfoo\x00\n"), Vars: vars, Input: testref.Tree(vars, dir)})
		_, err := Compile(Options{Patterns: c.pats, Fixed: c.fixed, LineTerminator: '\n', BanNUL: true})
		if (err != nil) != (want.Code == 2) {
			t.Errorf("-f %q (fixed %v): error %v, rg exit %d %q", c.pats, c.fixed, err, want.Code, want.Stderr)
		}
	}
}

// rg15PropNames lists the \p{...} names of the sweep: every table under its
// canonical name, the aliases of the general categories and of a sample of
// the other values, loose spellings, and names rg rejects.
func rg15PropNames() []string {
	set := map[string]bool{}
	for k := range ucdTables() {
		kind, name, _ := strings.Cut(k, "/")
		switch kind {
		case "bool":
			set[name] = true
		case "gc":
			set["gc="+name] = true
		case "sc":
			set[name] = true
		case "scx":
			set["scx="+name] = true
		case "age":
			set["Age="+name] = true
		case "gcb":
			set["Grapheme_Cluster_Break="+name] = true
		case "wb":
			set["Word_Break="+name] = true
		case "sb":
			set["Sentence_Break="+name] = true
		}
	}
	vals := map[string][]string{}
	for prop, m := range ucdValueNames() {
		for alias := range m {
			vals[prop] = append(vals[prop], alias)
		}
		sort.Strings(vals[prop])
	}
	for i, a := range vals["General_Category"] {
		set[a] = true
		if i%5 == 0 {
			set["General_Category:"+a] = true
		}
	}
	for _, prop := range []string{"Script", "Age", "Word_Break", "Sentence_Break", "Grapheme_Cluster_Break"} {
		for i, a := range vals[prop] {
			if i%7 == 0 {
				set[map[string]string{"Script": "sc=", "Age": "age=", "Word_Break": "wb=", "Sentence_Break": "SB=", "Grapheme_Cluster_Break": "gcb="}[prop]+a] = true
			}
		}
	}
	var aliases []string
	for a := range ucdPropNames() {
		aliases = append(aliases, a)
	}
	sort.Strings(aliases)
	for i, a := range aliases {
		if i%4 == 0 {
			set[a] = true
		}
	}
	for _, n := range []string{
		"Extended_Pictographic", "Emoji", "Emoji_Presentation", "XID_Continue", "Age=6.0", "Word_Break=ALetter",
		"Sentence_Break=Upper", "Grapheme_Cluster_Break=Extend", "Changes_When_Casefolded", "Default_Ignorable_Code_Point",
		"any", "Any", "assigned", "ASCII", "isc", "is_Greek", "Is Latin", "L&", "gc=L&", "xdigit", "alnum", "punct", "word",
		"Cs", "gc=Cs", "Zzzz", "Unknown", "scx=Zzzz", "age=NA", "age=6", "Age=V6_0", "gcb=XX", "wb=XX", "sb=XX",
		"Block=Basic_Latin", "bc=L", "Alpha=Y", "foo=bar", "gc=foo", "sc=foo", "lb=AL", "InCB=Linker", "Lowercase_Mapping",
		"Block", "Age", "cf", "sc", "lc", "gc!=Lu", "sc:Greek", "scx=Zyyy", "sc=Qaac", "GREEK", "g r e e k", "Garay",
		"Changes_When_NFKC_Casefolded", "Full_Composition_Exclusion", "Other_Alphabetic", "Bidi_Mirrored", "Emoji_Component",
		"Modifier_Combining_Mark", "ID_Compat_Math_Start", "Kawi", "Nag_Mundari", "Todhri", "Sunuwar", "Tulu_Tigalari",
	} {
		set[n] = true
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// rg15Sample is the sweep's haystack: one code point per line, the first
// and last code point of the first and last ranges of every table and
// their neighbours, so that each table's edges are looked at.
func rg15Sample() ([]rune, string) {
	pts := map[rune]bool{}
	keys := make([]string, 0, len(ucdTables()))
	for k := range ucdTables() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		c := ucdClass(k)
		n := len(c.r)
		for i, x := range c.r {
			if i == 0 || i == n-1 || i%211 == 0 {
				pts[x.lo], pts[x.hi], pts[x.lo-1], pts[x.hi+1] = true, true, true, true
			}
		}
	}
	var cps []rune
	for c := range pts {
		if c > 0x20 && c <= 0x10FFFF && !(c >= surrLo && c <= surrHi) && c != 0x85 && c != 0x2028 && c != 0x2029 {
			cps = append(cps, c)
		}
	}
	sort.Slice(cps, func(i, j int) bool { return cps[i] < cps[j] })
	var b strings.Builder
	for _, c := range cps {
		b.WriteRune(c)
		b.WriteByte('\n')
	}
	return cps, b.String()
}

// TestRG15PropertySweep runs every name of rg15PropNames against the
// sample: rg prints the numbers of the lines (code points) it matches.
func TestRG15PropertySweep(t *testing.T) {
	g := open15(t)
	cps, sample := rg15Sample()
	names := rg15PropNames()
	t.Logf("%d names, %d sample code points", len(names), len(cps))
	for _, n := range names {
		pat := `\p{` + n + `}`
		want := g.Run(t, testref.Case{Name: "sweep " + pat,
			Args:  []string{"--no-config", "--line-number", "--only-matching", "--replace=", "-e", pat, "-"},
			Stdin: []byte(sample)})
		var got bytes.Buffer
		code := 1
		m, err := Compile(Options{Patterns: []string{pat}, LineTerminator: '\n', BanNUL: true})
		if err != nil {
			code = 2
		} else {
			for i, c := range cps {
				if m.IsMatch([]byte(string(c))) {
					got.WriteString(strconv.Itoa(i+1) + ":\n")
					code = 0
				}
			}
		}
		if code != want.Code {
			t.Errorf("%s: exit %d, rg %d (%v; rg: %q)", pat, code, want.Code, err, want.Stderr)
			continue
		}
		if code == 2 {
			rgMsg := string(want.Stderr)
			if i := strings.LastIndex(rgMsg, "error: "); i >= 0 && !strings.HasSuffix(err.Error(), strings.TrimSpace(rgMsg[i:])) {
				t.Errorf("%s: error %q, rg %q", pat, err, rgMsg)
			}
			continue
		}
		if !bytes.Equal(got.Bytes(), want.Stdout) {
			t.Errorf("%s: lines differ:\n%s", pat, diffLines(got.String(), string(want.Stdout)))
		}
	}
}

func diffLines(got, want string) string {
	g := map[string]bool{}
	for _, l := range strings.Split(got, "\n") {
		g[l] = true
	}
	w := map[string]bool{}
	for _, l := range strings.Split(want, "\n") {
		w[l] = true
	}
	var b strings.Builder
	for l := range w {
		if !g[l] && b.Len() < 400 {
			fmt.Fprintf(&b, "missing %s ", l)
		}
	}
	for l := range g {
		if !w[l] && b.Len() < 800 {
			fmt.Fprintf(&b, "extra %s ", l)
		}
	}
	return b.String()
}
