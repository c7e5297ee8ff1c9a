package pcre2

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/evgrep/evgrep/matcher"
)

func compile(t *testing.T, o matcher.Options) *Matcher {
	t.Helper()
	if o.LineTerminator == 0 {
		o.LineTerminator = '\n'
	}
	m, err := Compile(o)
	if err != nil {
		t.Fatalf("%q: %v", o.Patterns, err)
	}
	return m
}

// TestPattern: the single pattern and caseless choice are grep-pcre2's.
func TestPattern(t *testing.T) {
	for _, tc := range []struct {
		o        matcher.Options
		want     string
		caseless bool
	}{
		{matcher.Options{Patterns: []string{"a"}}, `(?:a)`, false},
		{matcher.Options{Patterns: []string{"a", "b|c"}}, `(?:a)|(?:b|c)`, false},
		{matcher.Options{Patterns: []string{"a.b(", "x y"}, Fixed: true}, `(?:a\.b\()|(?:x y)`, false},
		{matcher.Options{Patterns: []string{"a"}, Word: true}, `(?<!\w)(?:(?:a))(?!\w)`, false},
		{matcher.Options{Patterns: []string{"a"}, Line: true, Word: true}, `(?m:^)(?:(?:a))(?m:$)`, false},
		{matcher.Options{Patterns: []string{"abc"}, Case: matcher.Smart}, `(?:abc)`, true},
		{matcher.Options{Patterns: []string{"aBc"}, Case: matcher.Smart}, `(?:aBc)`, false},
		{matcher.Options{Patterns: []string{`\Bfoo`}, Case: matcher.Smart}, `(?:\Bfoo)`, true},
		{matcher.Options{Patterns: []string{"σοφία"}, Case: matcher.Smart}, `(?:σοφία)`, true},
		{matcher.Options{Patterns: []string{"ΣΟΦΊΑ"}, Case: matcher.Smart}, `(?:ΣΟΦΊΑ)`, false},
		{matcher.Options{Patterns: []string{"ABC"}, Case: matcher.Insensitive}, `(?:ABC)`, true},
		{matcher.Options{Patterns: []string{"(?x)a # c"}}, `(?:(?x)a # c)`, false},
		{matcher.Options{}, `[^\S\s]`, false},
	} {
		got, ci := Pattern(tc.o)
		if got != tc.want || ci != tc.caseless {
			t.Errorf("%+v: got %q caseless=%v, want %q %v", tc.o, got, ci, tc.want, tc.caseless)
		}
	}
}

// TestFixedIsLiteral: every ASCII byte and some non-ASCII text match
// themselves with -F.
func TestFixedIsLiteral(t *testing.T) {
	var b strings.Builder
	for c := 0x20; c < 0x7f; c++ {
		b.WriteByte(byte(c))
	}
	b.WriteString(`\Q\E é ß`)
	lit := b.String()
	m := compile(t, matcher.Options{Patterns: []string{lit}, Fixed: true})
	hay := []byte("xx" + lit + "yy")
	if got := m.Occurrences(hay, nil); len(got) != 1 || got[0] != (Range{Start: 2, End: 2 + len(lit)}) {
		t.Fatalf("got %v", got)
	}
}

func TestMatching(t *testing.T) {
	type occ = [][2]int
	for _, tc := range []struct {
		name string
		o    matcher.Options
		hay  string
		at   int // OccurrencesIn start (look-behind context before it)
		want occ
	}{
		{"lookbehind", matcher.Options{Patterns: []string{`(?<=a)b`}}, "ab xb ab", 0, occ{{1, 2}, {7, 8}}},
		{"lookbehind sees context", matcher.Options{Patterns: []string{`(?<=foo\n)bar`}}, "foo\nbar", 4, occ{{0, 3}}},
		{"lookahead", matcher.Options{Patterns: []string{`\w+(?=\()`}}, "f(x) g (y)", 0, occ{{0, 1}}},
		{"backref", matcher.Options{Patterns: []string{`(\w+) \1`}}, "a a b c c", 0, occ{{0, 3}, {6, 9}}},
		{"possessive", matcher.Options{Patterns: []string{`a++b`}}, "aaab", 0, occ{{0, 4}}},
		{"possessive fails", matcher.Options{Patterns: []string{`a++ab`}}, "aaab", 0, nil},
		{"atomic", matcher.Options{Patterns: []string{`(?>foo|foob)ar`}}, "foobar fooar", 0, occ{{7, 12}}},
		{"\\K", matcher.Options{Patterns: []string{`k=\K\w+`}}, "k=v", 0, occ{{2, 3}}},
		{"empty iteration", matcher.Options{Patterns: []string{`x*`}}, "axxb", 0, occ{{0, 0}, {1, 3}, {4, 4}}},
		{"word", matcher.Options{Patterns: []string{`-2`}, Word: true}, "a -2 b x-2y", 0, occ{{2, 4}}},
		{"line", matcher.Options{Patterns: []string{`a|ab`}, Line: true}, "ab", 0, occ{{0, 2}}},
		{"caseless unicode", matcher.Options{Patterns: []string{`straße`}, Case: matcher.Insensitive}, "STRAẞE", 0, occ{{0, 8}}},
		{"no unicode \\w", matcher.Options{Patterns: []string{`\w+`}, NoUnicode: true}, "aé", 0, occ{{0, 1}}},
		{"unicode \\w", matcher.Options{Patterns: []string{`\w+`}}, "aé", 0, occ{{0, 3}}},
		{"invalid utf-8 never matches", matcher.Options{Patterns: []string{`.`}}, "\xff", 0, nil},
		{"long lookbehind in context", matcher.Options{Patterns: []string{`(?<=\Ax{30}é{10})k`}}, strings.Repeat("x", 30) + strings.Repeat("é", 10) + "k", 50, occ{{0, 1}}},
		{"\\A in look-behind", matcher.Options{Patterns: []string{`(?<=\Aé{10})k`}}, "x" + strings.Repeat("é", 10) + "k", 21, nil},
		{"\\b sees context", matcher.Options{Patterns: []string{`\bk`}}, "ék", 2, nil},
		{"^ sees context", matcher.Options{Patterns: []string{`^k`}}, "ak", 1, nil},
		{"resume after the character", matcher.Options{Patterns: []string{`(?<=\w)`}}, "aß", 0, occ{{1, 1}, {3, 3}}},
		{"mid-character start", matcher.Options{Patterns: []string{``}}, "é", 0, occ{{0, 0}, {2, 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := compile(t, tc.o)
			got := pairs(m.OccurrencesIn([]byte(tc.hay), tc.at, len(tc.hay), nil))
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestLines: NextLine searches each line alone (look-behind never sees
// the previous line; CRLF lines lose their '\r' with --crlf).
func TestLines(t *testing.T) {
	for _, tc := range []struct {
		name string
		o    matcher.Options
		buf  string
		want []string
	}{
		{"alone", matcher.Options{Patterns: []string{`(?<=a\n)b|^c`}}, "a\nb\nc\n", []string{"c\n"}},
		{"crlf", matcher.Options{Patterns: []string{`a$`}, CRLF: true}, "xa\r\nb\r\n", []string{"xa\r\n"}},
		{"no crlf", matcher.Options{Patterns: []string{`a$`}}, "xa\r\nya\n", []string{"ya\n"}},
		{"no final terminator", matcher.Options{Patterns: []string{`z`}}, "a\nz", []string{"z"}},
		{"nul data", matcher.Options{Patterns: []string{`^b`}, LineTerminator: 0}, "a\x00b\x00", []string{"b\x00"}},
		{"required byte", matcher.Options{Patterns: []string{`fo+\d`}}, "xx\nfoo1\nfoo\nafo2", []string{"foo1\n", "afo2"}},
		{"required byte inline caseless", matcher.Options{Patterns: []string{`(?i)func`}}, "FUNC\nx\nfUnC\n", []string{"FUNC\n", "fUnC\n"}},
		{"required byte smart case", matcher.Options{Patterns: []string{`func`}, Case: matcher.Smart}, "FUNC\n", []string{"FUNC\n"}},
		{"required byte (?i:)", matcher.Options{Patterns: []string{`f(?i:UNC)`}}, "fUnc\nFUNC\n", []string{"fUnc\n"}},
		{"required byte multibyte", matcher.Options{Patterns: []string{`ß`}}, "s\nß\n", []string{"ß\n"}},
		{"required byte is the terminator", matcher.Options{Patterns: []string{`a\nb`}}, "a\nb\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.o.LineTerminator == 0 && tc.name != "nul data" {
				tc.o.LineTerminator = '\n'
			}
			m, err := Compile(tc.o)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			buf := []byte(tc.buf)
			for from := 0; ; {
				s, e, ok := m.NextLine(buf, from)
				if !ok {
					break
				}
				got = append(got, string(buf[s:e]))
				from = e
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestFindAll: a multiline search restarts on the rest of the buffer, so
// look-behind does not see before the previous match's end, and an empty
// match at the end of a terminated buffer is dropped.
func TestFindAll(t *testing.T) {
	for _, tc := range []struct {
		pat, buf string
		want     [][2]int
	}{
		{`(?<=foo\n)bar`, "foo\nbar\n", [][2]int{{4, 7}}},
		{`foo|(?<=foo)x`, "foox", [][2]int{{0, 3}}}, // x's look-behind is cut off
		{`(?s)a.*?(?=c)`, "ab\nbc", [][2]int{{0, 4}}},
		{`$`, "a\nb\n", [][2]int{{1, 1}, {3, 3}}},
		{`\z`, "a", [][2]int{{1, 1}}},
		{`^`, "", nil},
	} {
		m := compile(t, matcher.Options{Patterns: []string{tc.pat}, Multiline: true})
		if got := pairs(m.FindAll([]byte(tc.buf), nil)); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%q on %q: got %v, want %v", tc.pat, tc.buf, got, tc.want)
		}
	}
}

func TestReplace(t *testing.T) {
	for _, tc := range []struct {
		pat, hay   string
		start, end int
		tmpl, want string
	}{
		{`(?<k>\w+)=(\w+)`, "a=1 b=2", 0, 7, "$2:${k}$$", "1:a$ 2:b$"},
		{`(\w+)`, "ab", 0, 2, "[$9$nope$]", "[$]"},
		{`(?<=foo\n)bar`, "foo\nbar", 4, 7, "quux", "quux"},
		{`x`, "xxx\nx", 0, 4, "y", "yyy\n"}, // a match at or after end is left
		{`a*`, "baaa", 0, 4, "-", "-b-"},
		{`(?<=a)`, "aa", 1, 2, "|", "|a"}, // the empty match at end is left
		{`$`, "ab", 0, 3, "|", "ab|"},     // end past hay: the line's terminator
	} {
		m := compile(t, matcher.Options{Patterns: []string{tc.pat}})
		got, rngs := m.ReplaceIn(nil, []byte(tc.hay), tc.start, tc.end, []byte(tc.tmpl), nil)
		if string(got) != tc.want {
			t.Errorf("%q on %q: got %q, want %q", tc.pat, tc.hay, got, tc.want)
		}
		for _, r := range rngs {
			if r.Start < 0 || r.End > len(got) || r.Start > r.End {
				t.Errorf("%q: bad range %v in %q", tc.pat, r, got)
			}
		}
	}
}

func TestCaptureNames(t *testing.T) {
	m := compile(t, matcher.Options{Patterns: []string{`(?<a>x)(y)(?P<bb>z)(?'c'w)`}})
	if m.NumCaptures() != 4 || m.CaptureIndex("a") != 1 || m.CaptureIndex("bb") != 3 || m.CaptureIndex("c") != 4 || m.CaptureIndex("y") != -1 {
		t.Errorf("captures %d a=%d bb=%d c=%d", m.NumCaptures(), m.CaptureIndex("a"), m.CaptureIndex("bb"), m.CaptureIndex("c"))
	}
}

func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct{ pat, want string }{
		{`(`, "PCRE2: error compiling pattern at offset 5: missing closing parenthesis"},
		{`a{2,1}`, "PCRE2: error compiling pattern at offset 8: numbers out of order in {} quantifier"},
		{`\k<nope>`, "PCRE2: error compiling pattern at offset 6: reference to non-existent subpattern"},
	} {
		_, err := Compile(matcher.Options{Patterns: []string{tc.pat}, LineTerminator: '\n'})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: got %v, want %q", tc.pat, err, tc.want)
		}
	}
	if _, err := Compile(matcher.Options{Patterns: []string{strings.Repeat("a", maxPatternLen+1)}, LineTerminator: '\n'}); err == nil {
		t.Error("over-long pattern accepted")
	}
}

// TestMatchLimit: catastrophic backtracking ends with PCRE2's match-limit
// error (a *MatchError panic, which the searcher recovers) instead of
// running for ever; the matcher stays usable afterwards.
func TestMatchLimit(t *testing.T) {
	m := compile(t, matcher.Options{Patterns: []string{`(a+)+$`}})
	line := []byte(strings.Repeat("a", 40) + "b")
	var got any
	func() {
		defer func() { got = recover() }()
		m.IsMatch(line)
	}()
	var me *MatchError
	if err, ok := got.(error); !ok || !errors.As(err, &me) || me.Error() != "PCRE2: error matching: match limit exceeded" {
		t.Fatalf("recovered %v", got)
	}
	if !m.IsMatch([]byte("aaa")) {
		t.Error("no match after a match error")
	}
}

// TestConcurrent: one Matcher serves many goroutines (run with -race).
func TestConcurrent(t *testing.T) {
	m := compile(t, matcher.Options{Patterns: []string{`(?<=x)(\w)\1`}})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				hay := []byte(fmt.Sprintf("%d xaa yb xcc", i))
				if got := m.Occurrences(hay, nil); len(got) != 2 {
					t.Errorf("got %v", got)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestVersionText(t *testing.T) {
	if got := VersionText(); got != "PCRE2 "+Version()+" is available (JIT is unavailable)" || !strings.HasPrefix(Version(), "10.") {
		t.Errorf("got %q", got)
	}
}

func pairs(rs []Range) [][2]int {
	var out [][2]int
	for _, r := range rs {
		out = append(out, [2]int{r.Start, r.End})
	}
	return out
}

// TestEachOccurrenceIn: the callback form visits what OccurrencesIn lists
// and stops when asked.
func TestEachOccurrenceIn(t *testing.T) {
	m := compile(t, matcher.Options{Patterns: []string{`(?<=x)a|b*`}})
	buf := []byte("xa bb xa")
	want := m.OccurrencesIn(buf, 1, len(buf), nil)
	var got []Range
	m.EachOccurrenceIn(buf, 1, len(buf), func(r Range) bool { got = append(got, r); return true })
	if fmt.Sprint(got) != fmt.Sprint(want) || len(want) < 3 {
		t.Errorf("got %v, want %v", got, want)
	}
	n := 0
	m.EachOccurrenceIn(buf, 1, len(buf), func(Range) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("did not stop: %d calls", n)
	}
}
