package matcher

import (
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

type rgCase struct {
	pats  []string
	input string
	mod   func(*Options)
}

func opt(f func(*Options)) func(*Options) { return f }

var (
	fixed     = opt(func(o *Options) { o.Fixed = true })
	icase     = opt(func(o *Options) { o.Case = Insensitive })
	smart     = opt(func(o *Options) { o.Case = Smart })
	word      = opt(func(o *Options) { o.Word = true })
	lineX     = opt(func(o *Options) { o.Line = true })
	multi     = opt(func(o *Options) { o.Multiline = true })
	dotall    = opt(func(o *Options) { o.Multiline = true; o.DotAll = true })
	crlf      = opt(func(o *Options) { o.CRLF = true })
	nulldata  = opt(func(o *Options) { o.LineTerminator = 0 })
	nounicode = opt(func(o *Options) { o.NoUnicode = true })
)

func both(fs ...func(*Options)) func(*Options) {
	return func(o *Options) {
		for _, f := range fs {
			f(o)
		}
	}
}

const sample = "foo bar\nFoo Bar\nfoobar\nbar_foo\nfoo,foo\nπfoo fooπ\nfooé éfoo\n\n" +
	"αβγ δ\nx = 1234;\n\tindent\n  trailing  \nend"

var rgCases = []rgCase{
	// plain regexes and literals
	{pats: []string{"foo"}, input: sample},
	{pats: []string{"o"}, input: sample},
	{pats: []string{"fo+"}, input: sample},
	{pats: []string{"(foo|bar)+"}, input: sample},
	{pats: []string{"a|ab|abc"}, input: "abc abcd ab a\n"},
	{pats: []string{`\d+`}, input: sample + "\n١٢٣ 42\n"},
	{pats: []string{`\w+`}, input: sample},
	{pats: []string{`\W+`}, input: sample},
	{pats: []string{`\s+`}, input: sample + "\u00a0x\u2003y\n"},
	{pats: []string{`\S+`}, input: "a\u00a0b c\n"},
	{pats: []string{`\bfoo\b`}, input: sample},
	{pats: []string{`\Bfoo`}, input: sample},
	{pats: []string{`(?-u:\b)foo(?-u:\b)`}, input: sample},
	{pats: []string{`\b`}, input: "ab cd\néa b\n"},
	{pats: []string{`\B`}, input: "ab cd\néa b\n"},
	{pats: []string{`[[:alpha:]]+`}, input: sample},
	{pats: []string{`[[:^alpha:][:digit:]]+`}, input: sample},
	{pats: []string{`\p{Greek}+`}, input: sample},
	{pats: []string{`\pL+`}, input: sample},
	{pats: []string{`\p{Lu}`}, input: sample},
	{pats: []string{`\P{L}+`}, input: sample},
	{pats: []string{`[a-z&&[^aeiou]]+`}, input: sample},
	{pats: []string{`[a-z--b]+`}, input: sample},
	{pats: []string{`[a-g~~c-z]+`}, input: sample},
	{pats: []string{`[\w&&\p{Greek}]`}, input: sample},
	{pats: []string{`x{2,3}`}, input: "x xx xxx xxxx xxxxx\n"},
	{pats: []string{`x{2,}?`}, input: "xxxxx\n"},
	{pats: []string{`x{2}`}, input: "xxxxx\n"},
	{pats: []string{`a{1001}`}, input: "aaa\n"},
	{pats: []string{`(?i)foo`}, input: sample},
	{pats: []string{`(?i:F)oo`}, input: sample},
	{pats: []string{`(?x) f o o # comment`}, input: sample},
	{pats: []string{`(?U)o+`}, input: sample},
	{pats: []string{`\x66oo`, `\u{62}ar`}, input: sample},
	{pats: []string{`\x{3b1}`}, input: sample},
	{pats: []string{"."}, input: "ab\xffc\n\xe2\x98\n"},
	{pats: []string{"a.c"}, input: "ab\xffc\nabc\na\xffc\n"},
	{pats: []string{"(?-u:.)"}, input: "é\xff\n"},
	{pats: []string{"(?-u:\\xff)"}, input: "a\xffb\nÿ\n"},
	{pats: []string{"\\xff"}, input: "a\xffb\nÿ\n"},
	{pats: []string{"[^a]"}, input: "abc\xff\n"},
	// empty matches
	{pats: []string{"x*"}, input: "abc\nxx\né\n\xff\xfe\n\n"},
	{pats: []string{"^"}, input: "abc\n\nx\n"},
	{pats: []string{"$"}, input: "abc\n\nx\n"},
	{pats: []string{"^$"}, input: "abc\n\nx\n\n"},
	{pats: []string{""}, input: "abc\n\nx\n"},
	{pats: []string{"a|"}, input: "bab\n"},
	{pats: []string{`\b|x`}, input: "éxé x\n"},
	// several patterns
	{pats: []string{"foo", "bar"}, input: sample},
	{pats: []string{"(", ")"}, input: "x()\n"},
	{pats: []string{"Foo", "bar"}, input: sample, mod: smart},
	{pats: []string{"foo", "bar"}, input: sample, mod: smart},
	{pats: []string{`\p{Lu}`}, input: "ab\nAB\n", mod: smart},
	{pats: []string{`[A-Z]`}, input: "ab\nAB\n", mod: smart},
	{pats: []string{`[[:upper:]]b`}, input: "ab\nAB\n", mod: smart},
	{pats: []string{`\x41`}, input: "ab\nAB\n", mod: smart},
	{pats: []string{`\p{Lu}`}, input: "ab\nAB\n", mod: icase},
	{pats: []string{`kelvin`}, input: "KELVIN \u212aelvin\n", mod: icase},
	{pats: []string{`s`}, input: "S s \u017f\n", mod: icase},
	{pats: []string{`[^k]`}, input: "kK\u212a\n", mod: icase},
	// fixed strings
	{pats: []string{"a.c", "(b"}, input: "abc a.c (b\n", mod: fixed},
	{pats: []string{""}, input: "abc\n\n", mod: fixed},
	{pats: []string{"FOO"}, input: sample, mod: both(fixed, icase)},
	// word
	{pats: []string{"foo"}, input: sample, mod: word},
	{pats: []string{"foo"}, input: "foo foo\nfoo,foo\nfoofoo\n", mod: word},
	{pats: []string{""}, input: "foo foo\n \n\n", mod: word},
	{pats: []string{"o*"}, input: "foo o oo\n", mod: word},
	{pats: []string{"foo"}, input: "éfoo foo\nπfoo\nfooπ\nfoo\u00a0\n", mod: word},
	{pats: []string{"-2", "!?foo!?"}, input: "-2\n!!foo!!\na!foo!a\n", mod: word},
	{pats: []string{"a|ab"}, input: "ab a ab\n", mod: word},
	{pats: []string{`\w+`}, input: sample, mod: word},
	{pats: []string{"foo"}, input: "foo\xfffoo\n", mod: word},
	{pats: []string{"foo"}, input: "éfoo foo\n", mod: both(word, nounicode)},
	// line
	{pats: []string{"foo", "foo bar"}, input: sample, mod: lineX},
	{pats: []string{"foo|bar"}, input: "foo\nbar\nfoobar\n", mod: lineX},
	{pats: []string{""}, input: "foo\n\nbar\n", mod: lineX},
	// crlf
	{pats: []string{"foo$"}, input: "foo\r\nxfoo\r\nfoo\n", mod: crlf},
	{pats: []string{"foo$|x"}, input: "foo\r\nxfoo\r\n", mod: crlf},
	{pats: []string{"o.$"}, input: "foo\r\nxfoo\r\n", mod: crlf},
	{pats: []string{`\s$`}, input: "foo \r\n", mod: crlf},
	{pats: []string{"^foo"}, input: "foo\r\nfoo\r\n", mod: crlf},
	{pats: []string{`\r`}, input: "foo\r\n", mod: crlf},
	// null data
	{pats: []string{"^bar"}, input: "foo\nbar\x00baz\x00", mod: nulldata},
	{pats: []string{"o.b"}, input: "foo\nbar\x00baz\x00", mod: nulldata},
	{pats: []string{`o\nb`}, input: "foo\nbar\x00baz\x00", mod: nulldata},
	{pats: []string{`\x00`}, input: "a\x00b", mod: nulldata},
	// no unicode
	{pats: []string{"a.b"}, input: "aéb\na\xffb\naxb\n", mod: nounicode},
	{pats: []string{"a..b"}, input: "aéb\na\xffb\naxb\n", mod: nounicode},
	{pats: []string{"é"}, input: "é\n", mod: nounicode},
	{pats: []string{`\w+`}, input: "aé_1\n", mod: nounicode},
	// multiline
	{pats: []string{"o.b"}, input: "foo\nbar\n", mod: multi},
	{pats: []string{`o\nb`}, input: "foo\nbar\nfoo\nbaz\n", mod: multi},
	{pats: []string{"o.b"}, input: "foo\nbar\n", mod: dotall},
	{pats: []string{`(?s)o.b`}, input: "foo\nbar\n", mod: multi},
	{pats: []string{`o[^x]b`}, input: "foo\nbar\n", mod: multi},
	{pats: []string{`^b`}, input: "foo\nbar\nbaz\n", mod: multi},
	{pats: []string{`r$`}, input: "bar\r\nfoo\n", mod: both(multi, crlf)},
	// anchors
	{pats: []string{`\Afoo`}, input: "foo\nxfoo\n"},
	{pats: []string{`foo\z`}, input: "foo\nfoox\n"},
	// errors
	{pats: []string{"(foo"}},
	{pats: []string{`a\nb`}},
	{pats: []string{`[\n]`}},
	{pats: []string{"a{2,1}"}},
	{pats: []string{`\!`}},
	{pats: []string{"a{"}},
	{pats: []string{"a{,5}"}},
	{pats: []string{"(?<n>a)"}},
	{pats: []string{`\Qa\E`}},
	{pats: []string{"(?=a)"}},
	{pats: []string{"(?<!a)"}},
	{pats: []string{`\1`}},
	{pats: []string{"[z-a]"}},
	{pats: []string{`\p{Foo}`}},
	{pats: []string{`\pX`}},
	{pats: []string{"*"}},
	{pats: []string{"a**"}, input: "aa\n"},
	{pats: []string{`\x{110000}`}},
	{pats: []string{`\Z`}},
	{pats: []string{"[[:foo:]]"}, input: "foo\n:\n"},
	{pats: []string{"(?P<n>a)(?P<n>b)"}},
	{pats: []string{"(?P<>a)"}},
	{pats: []string{"(?P<1>a)"}},
	{pats: []string{"(?P<a"}},
	{pats: []string{"(?i"}},
	{pats: []string{"(?"}},
	{pats: []string{"(?)"}},
	{pats: []string{"(?i-)"}},
	{pats: []string{"(?ii)"}},
	{pats: []string{"(?i--s)"}},
	{pats: []string{"(?z)"}},
	{pats: []string{"[a"}},
	{pats: []string{"[^a"}},
	{pats: []string{"[]"}},
	{pats: []string{"[]a]"}, input: "]\na\n"},
	{pats: []string{"[a-]"}, input: "-\n"},
	{pats: []string{"[-a]"}, input: "-\n"},
	{pats: []string{`[\w-z]`}},
	{pats: []string{`[a-\w]`}},
	{pats: []string{`[\b]`}},
	{pats: []string{`[a&&b]`}},
	{pats: []string{`[^\x00-\x{10FFFF}]`}},
	{pats: []string{"a)"}},
	{pats: []string{`\`}},
	{pats: []string{`\x7`}},
	{pats: []string{`\x{}`}},
	{pats: []string{`\x{zz}`}},
	{pats: []string{`\xzz`}},
	{pats: []string{`\p`}},
	{pats: []string{`\p{`}},
	{pats: []string{`\p{L`}},
	{pats: []string{`\p{sc=Foo}`}},
	{pats: []string{`\p{sc=Greek}`}, input: "αβ\n"},
	{pats: []string{`\p{gc=Lu}`}, input: "aB\n"},
	{pats: []string{`\p{Lowercase_Letter}`}, input: "aB\n"},
	{pats: []string{`\p{greek}`}, input: "αβ\n"},
	{pats: []string{"x{1,2}{3}"}, input: "xxxxxxx\n"},
	{pats: []string{"(?:)"}, input: "a\n"},
	{pats: []string{"()"}, input: "a\n"},
	{pats: []string{"|"}, input: "a\n"},
	{pats: []string{`\b{start}`}},
	{pats: []string{"(a"}, mod: lineX},
	{pats: []string{"a", "(b"}},
	{pats: []string{"(?-u)é"}},
	{pats: []string{`\pL`}, mod: nounicode},
	{pats: []string{"a{ 2 , 3 }"}, input: "aaaa\n"},
	{pats: []string{"(?x)a{ 2 }"}, input: "aaaa\n"},
	{pats: []string{"(?x)[a b]"}, input: "b \n"},
	{pats: []string{`(?x)a\ b`}, input: "a b\n"},
	{pats: []string{`(a)|\2`}},
	{pats: []string{"\xff"}},
	{pats: []string{"(\n"}, mod: multi},
	{pats: []string{"a", "(?P<x>a)\n(?P<x>b)"}, mod: multi},
}

func TestAgainstRG(t *testing.T) {
	g := testref.Open(t)
	for _, c := range rgCases {
		o := Options{Patterns: c.pats, LineTerminator: '\n'}
		if c.mod != nil {
			c.mod(&o)
		}
		input := c.input
		if input == "" {
			input = "foo\n"
		}
		compareWithRG(t, g, o, input)
	}
}
