package matcher

import (
	"reflect"
	"strings"
	"testing"
)

func mustCompile(t *testing.T, o Options) *Matcher {
	t.Helper()
	if o.LineTerminator == 0 && !o.nullData() {
		o.LineTerminator = '\n'
	}
	m, err := Compile(o)
	if err != nil {
		t.Fatalf("Compile(%v): %v", o.Patterns, err)
	}
	return m
}

// nullData lets tests spell --null-data explicitly (LineTerminator 0 is
// otherwise defaulted to '\n' by mustCompile).
func (o Options) nullData() bool { return len(o.Patterns) > 0 && o.Patterns[0] == "\x00nul" }

func TestOccurrencesTable(t *testing.T) {
	cases := []struct {
		name string
		o    Options
		line string
		want []Range
	}{
		{"literal", Options{Patterns: []string{"foo"}}, "a foo foo", []Range{{2, 5}, {6, 9}}},
		{"unicode word", Options{Patterns: []string{`\w+`}}, "héllo wörld", []Range{{0, 6}, {7, 13}}},
		{"ascii word", Options{Patterns: []string{`(?-u)\w+`}}, "héllo", []Range{{0, 1}, {3, 6}}},
		{"unicode digit", Options{Patterns: []string{`\d+`}}, "x١٢3", []Range{{1, 6}}},
		{"unicode space", Options{Patterns: []string{`\s`}}, "a\u00a0b", []Range{{1, 3}}},
		{"unicode boundary", Options{Patterns: []string{`\bé`}}, " é", []Range{{1, 3}}},
		{"empty matches split chars", Options{Patterns: []string{"x*"}}, "é", []Range{{0, 0}, {1, 1}, {2, 2}}},
		{"empty after match skipped", Options{Patterns: []string{"a*"}}, "baab", []Range{{0, 0}, {1, 3}, {4, 4}}},
		{"dot skips invalid", Options{Patterns: []string{"a.c"}}, "a\xffc abc", []Range{{4, 7}}},
		{"byte dot", Options{Patterns: []string{"(?-u)a.c"}}, "a\xffc", []Range{{0, 3}}},
		{"raw byte", Options{Patterns: []string{`(?-u:\xff)`}}, "\xffÿ", []Range{{0, 1}}},
		{"set intersection", Options{Patterns: []string{`[a-z&&[^aeiou]]+`}}, "rhythm and", []Range{{0, 6}, {8, 10}}},
		{"set difference", Options{Patterns: []string{`[\w--\d]+`}}, "ab12cd", []Range{{0, 2}, {4, 6}}},
		{"posix class", Options{Patterns: []string{`[[:upper:]]+`}}, "abCDe", []Range{{2, 4}}},
		{"property", Options{Patterns: []string{`\p{Greek}+`}}, "abαβ", []Range{{2, 6}}},
		{"loose property", Options{Patterns: []string{`\p{ greek }`}}, "α", []Range{{0, 2}}},
		{"case insensitive kelvin", Options{Patterns: []string{"k"}, Case: Insensitive}, "kK\u212a", []Range{{0, 1}, {1, 2}, {2, 5}}},
		{"smart case lower", Options{Patterns: []string{"foo"}, Case: Smart}, "FOO foo", []Range{{0, 3}, {4, 7}}},
		{"smart case upper", Options{Patterns: []string{"Foo"}, Case: Smart}, "FOO Foo", []Range{{4, 7}}},
		{"smart case no literal", Options{Patterns: []string{`\p{Lu}`}, Case: Smart}, "aB", []Range{{1, 2}}},
		{"insensitive class", Options{Patterns: []string{`\p{Lu}`}, Case: Insensitive}, "aB", []Range{{0, 1}, {1, 2}}},
		{"fixed", Options{Patterns: []string{"a.b", "(x"}, Fixed: true}, "axb a.b (x", []Range{{4, 7}, {8, 10}}},
		{"several alternated", Options{Patterns: []string{"ab", "a"}}, "ab a", []Range{{0, 2}, {3, 4}}},
		{"line", Options{Patterns: []string{"foo"}, Line: true}, "foo", []Range{{0, 3}}},
		{"line rejects", Options{Patterns: []string{"foo"}, Line: true}, "foo ", nil},
		{"word", Options{Patterns: []string{"foo"}, Word: true}, "foo foo,foo foofoo", []Range{{0, 3}, {4, 7}, {8, 11}}},
		{"word non-ascii neighbour", Options{Patterns: []string{"foo"}, Word: true}, "éfoo foo", []Range{{6, 9}}},
		{"word empty", Options{Patterns: []string{""}, Word: true}, "a b", nil},
		{"crlf dollar", Options{Patterns: []string{"o$"}, CRLF: true}, "foo\r", []Range{{2, 3}}},
		{"repeat above re2 limit", Options{Patterns: []string{"a{1001}"}}, strings.Repeat("a", 1001), []Range{{0, 1001}}},
		{"lazy", Options{Patterns: []string{"a+?"}}, "aaa", []Range{{0, 1}, {1, 2}, {2, 3}}},
		{"swap greed", Options{Patterns: []string{"(?U)a+"}}, "aa", []Range{{0, 1}, {1, 2}}},
		{"verbose", Options{Patterns: []string{"(?x) a b"}}, "ab", []Range{{0, 2}}},
		// rg 15 wraps each pattern in (?:...): a (?x) comment swallows the ')'.
		{"verbose comment", Options{Patterns: []string{"(?x) a b # c\n"}, Multiline: true}, "ab", []Range{{0, 2}}},
		{"no patterns", Options{}, "anything", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := mustCompile(t, c.o)
			got := m.Occurrences([]byte(c.line), nil)
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("Occurrences(%q) = %v, want %v", c.line, got, c.want)
			}
			if m.IsMatch([]byte(c.line)) != (len(c.want) > 0) && !c.o.CRLF {
				t.Fatalf("IsMatch(%q) disagrees with occurrences %v", c.line, c.want)
			}
		})
	}
}

func TestOccurrencesInContext(t *testing.T) {
	buf := []byte("x\nFoo Bar\n")
	m := mustCompile(t, Options{Patterns: []string{`\w+`}, Word: true})
	// rg 15's -w is \b{start-half}(?:\w+)\b{end-half}: the line's first
	// word is whole (rg 13's fast path trimmed its first character).
	if got := m.OccurrencesIn(buf, 2, 9, nil); !reflect.DeepEqual(got, []Range{{0, 3}, {4, 7}}) {
		t.Fatalf("in context: %v", got)
	}
	if got := m.Occurrences(buf[2:9], nil); !reflect.DeepEqual(got, []Range{{0, 3}, {4, 7}}) {
		t.Fatalf("alone: %v", got)
	}
	a := mustCompile(t, Options{Patterns: []string{`\Afoo`}})
	if got := a.OccurrencesIn([]byte("foo\nfoo"), 4, 7, nil); len(got) != 0 {
		t.Fatalf(`\A matched after the buffer start: %v`, got)
	}
}

func TestNextLine(t *testing.T) {
	buf := []byte("alpha\nbeta\n\ngamma beta\ndelta")
	cases := []struct {
		o    Options
		want []string
	}{
		{Options{Patterns: []string{"beta"}}, []string{"beta\n", "gamma beta\n"}},
		{Options{Patterns: []string{"^$"}}, []string{"\n"}},
		{Options{Patterns: []string{"a$"}}, []string{"alpha\n", "beta\n", "gamma beta\n", "delta"}},
		{Options{Patterns: []string{`\w+a\b`}}, []string{"alpha\n", "beta\n", "gamma beta\n", "delta"}},
		{Options{Patterns: []string{"BETA"}, Case: Insensitive}, []string{"beta\n", "gamma beta\n"}},
		{Options{Patterns: []string{"zzz"}}, nil},
		{Options{Patterns: []string{""}}, []string{"alpha\n", "beta\n", "\n", "gamma beta\n", "delta"}},
	}
	for _, c := range cases {
		m := mustCompile(t, c.o)
		var got []string
		for from := 0; ; {
			s, e, ok := m.NextLine(buf, from)
			if !ok {
				break
			}
			got = append(got, string(buf[s:e]))
			from = e
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: got %q, want %q", c.o.Patterns, got, c.want)
		}
	}
}

func TestNextLineNullData(t *testing.T) {
	m, err := Compile(Options{Patterns: []string{"^b"}, LineTerminator: 0})
	if err != nil {
		t.Fatal(err)
	}
	buf := []byte("a\nb\x00bc\x00c")
	var got []string
	for from := 0; ; {
		s, e, ok := m.NextLine(buf, from)
		if !ok {
			break
		}
		got = append(got, string(buf[s:e]))
		from = e
	}
	if want := []string{"a\nb\x00", "bc\x00"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestCompileErrors(t *testing.T) {
	cases := []struct {
		o    Options
		want string
	}{
		{Options{Patterns: []string{"(foo"}}, "regex parse error:\n    (?:(foo)\n    ^\nerror: unclosed group"},
		{Options{Patterns: []string{"a{2,1}"}}, "regex parse error:\n    (?:a{2,1})\n        ^^^^^\nerror: invalid repetition count range, the start must be <= the end"},
		{Options{Patterns: []string{`a\nb`}}, "the literal \"\\n\" is not allowed in a regex\n\nConsider enabling multiline mode"},
		{Options{Patterns: []string{`\x00`}, LineTerminator: 0}, "the literal \"\\0\" is not allowed"},
		{Options{Patterns: []string{`(?=a)`}}, "error: look-around, including look-ahead and look-behind, is not supported\n\nConsider enabling PCRE2"},
		{Options{Patterns: []string{"[é]"}, NoUnicode: true}, "error: Unicode not allowed here"},
		{Options{Patterns: []string{`foo\x00?`}, BanNUL: true}, "pattern contains \"\\0\" but it is impossible to match\n\nConsider enabling text mode"},
		{Options{Patterns: []string{"(?P<n>a)(?P<n>b)"}}, "    (?:(?P<n>a)(?P<n>b))\n           ^       ^\nerror: duplicate capture group name"},
		{Options{Patterns: []string{"a", "(b"}}, "    (?:a)|(?:(b)\n          ^\n"},
		{Options{Patterns: []string{"a\xff"}}, "found invalid UTF-8 in pattern at byte offset 1: a\\xFF"},
		{Options{Patterns: []string{"(\n"}, Multiline: true}, "~\n1: (?:(\n   ^\n2: )\n~"},
	}
	for _, c := range cases {
		if c.o.LineTerminator == 0 && c.o.Patterns[0] != `\x00` {
			c.o.LineTerminator = '\n'
		}
		_, err := Compile(c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Compile(%q): %v, want it to contain %q", c.o.Patterns, err, c.want)
		}
	}
}

func TestPrefilterChoice(t *testing.T) {
	cases := []struct {
		pat  string
		o    Options
		want []string // literal alternatives (one byte set per position, joined)
	}{
		{pat: "foo", want: []string{"foo"}},
		{pat: `\w+foobar\d`, want: []string{"foobar"}},
		{pat: "abc|xyz", want: []string{"abc", "xyz"}},
		{pat: "a*", want: nil},
		{pat: `\w+`, want: nil},
		{pat: "ab", o: Options{Case: Insensitive}, want: []string{"[Aa][Bb]"}},
		{pat: "(?:foo){2}", want: []string{"foofoo"}},
	}
	for _, c := range cases {
		o := c.o
		o.Patterns = []string{c.pat}
		m := mustCompile(t, o)
		var got []string
		if m.pre != nil {
			for _, a := range m.pre.alts {
				got = append(got, litString(a.l))
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: prefilter %q, want %q", c.pat, got, c.want)
		}
	}
}

func litString(l lit) string {
	var b strings.Builder
	for _, s := range l {
		ms := s.members()
		if len(ms) == 1 {
			b.WriteByte(ms[0])
			continue
		}
		b.WriteString("[" + string(ms) + "]")
	}
	return b.String()
}

func TestPrefilterFind(t *testing.T) {
	m := mustCompile(t, Options{Patterns: []string{"needle|pin"}})
	buf := []byte(strings.Repeat("hay\n", 1000) + "a pin\n" + strings.Repeat("hay\n", 10) + "needle\n")
	var got []int
	for from := 0; ; {
		s, e, ok := m.NextLine(buf, from)
		if !ok {
			break
		}
		got = append(got, s)
		from = e
	}
	if want := []int{4000, 4046}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestUTF8Sequences(t *testing.T) {
	// The class automaton must accept exactly the members' encodings.
	for _, pat := range []string{`\w`, `\p{Greek}`, `[^a]`, `[\x{7f}-\x{800}]`, `[\x{FFFF}-\x{10000}]`, `(?i)k`} {
		m := mustCompile(t, Options{Patterns: []string{pat}, Multiline: true})
		tree, _ := parsePattern(pat)
		h, _ := translate(tree, flags{m: true, u: true})
		for r := rune(0); r <= 0x10FFFF; r += 7 {
			if r >= surrLo && r <= surrHi {
				continue
			}
			s := []byte(string(r))
			var caps [2]int
			got := m.prog.exec(s, 0, true, false, caps[:]) && caps[1] == len(s)
			if want := h.kind == hClass && h.cls.contains(r) || h.kind == hLit && h.r == r; got != want {
				t.Fatalf("%s: rune %U: vm %v, class %v", pat, r, got, want)
			}
		}
	}
}

func TestDecodeLen(t *testing.T) {
	cases := []struct {
		in         string
		first, end int
	}{
		{"a", 1, 1}, {"é", 2, 2}, {"\xe2\x98", 2, 2}, {"\xff", 1, 1}, {"😀x", 4, 1}, {"x\xf0\x9f\x98", 1, 3}, {"", 0, 0},
	}
	for _, c := range cases {
		if got := decodeLen([]byte(c.in)); got != c.first {
			t.Errorf("decodeLen(%q) = %d, want %d", c.in, got, c.first)
		}
		if got := decodeLastLen([]byte(c.in)); got != c.end {
			t.Errorf("decodeLastLen(%q) = %d, want %d", c.in, got, c.end)
		}
	}
}

func TestUTF16ColumnsTable(t *testing.T) {
	cases := []struct {
		line   string
		ranges []Range
		want   []Range
	}{
		{"abc", []Range{{0, 3}}, []Range{{0, 3}}},
		{"é😀x", []Range{{2, 6}, {6, 7}}, []Range{{1, 3}, {3, 4}}},
		{"a\xffb", []Range{{1, 2}}, []Range{{1, 2}}},
		{"😀", []Range{{2, 4}}, []Range{{2, 2}}},
		{"ab", []Range{{1, 2}, {0, 1}}, []Range{{1, 2}, {0, 1}}},
		{"ab", []Range{{0, 99}}, []Range{{0, 2}}},
	}
	for _, c := range cases {
		if got := UTF16Columns([]byte(c.line), c.ranges, nil); !reflect.DeepEqual(got, c.want) {
			t.Errorf("UTF16Columns(%q, %v) = %v, want %v", c.line, c.ranges, got, c.want)
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	m := mustCompile(t, Options{Patterns: []string{`\bfoo\w*`}, Word: true})
	line := []byte("éfoo foobar x foo")
	want := m.Occurrences(line, nil)
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			ok := true
			for i := 0; i < 200; i++ {
				if !reflect.DeepEqual(m.Occurrences(line, nil), want) {
					ok = false
				}
			}
			done <- ok
		}()
	}
	for g := 0; g < 4; g++ {
		if !<-done {
			t.Fatal("concurrent results differ")
		}
	}
}
