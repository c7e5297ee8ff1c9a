package matcher

import (
	"bytes"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// litWordPats returns n distinct literals made of short pieces (so that
// many overlap, share prefixes and stand inside one another), with word
// and non-word characters at either end, ASCII and not.
func litWordPats(r *rand.Rand, n int) []string {
	pieces := []string{"ab", "a", "b", "ba", "_", "1", "-", "é", "x", "'", "Ab", "中"}
	seen := map[string]bool{}
	var out []string
	for len(out) < n {
		var b strings.Builder
		for k := 1 + r.Intn(4); k > 0; k-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		if s := b.String(); !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// litWordText returns lines made of the same pieces, spaces, Unicode word
// and non-word characters and invalid UTF-8.
func litWordText(r *rand.Rand, lines int, pats []string) []byte {
	extra := []string{" ", " ", "\t", "\u00a0", "\xff", "\xc3", "Z", "é", "(", ")"}
	var buf []byte
	for i := 0; i < lines; i++ {
		for k := r.Intn(8); k > 0; k-- {
			if r.Intn(3) == 0 {
				buf = append(buf, extra[r.Intn(len(extra))]...)
			} else {
				buf = append(buf, pats[r.Intn(len(pats))]...)
			}
		}
		if r.Intn(4) == 0 {
			// A whole line that is one literal, for -x.
			buf = append(buf, '\n')
			buf = append(buf, pats[r.Intn(len(pats))]...)
		}
		buf = append(buf, '\n')
	}
	return buf
}

// withoutSets compiles o the way it was compiled before the sets existed.
func withoutSets(t *testing.T, o Options) *Matcher {
	t.Helper()
	litWordSets = false
	defer func() { litWordSets = true }()
	return mustCompile(t, o)
}

// TestLitWordSetsAgainstVM: -w and -x of many literals, answered by the
// sets, find the lines and occurrences the regex engines find for the
// whole alternation (from every start, as the printer asks), in Unicode
// and ASCII mode.
func TestLitWordSetsAgainstVM(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	pats := litWordPats(r, 100)
	text := litWordText(r, 200, pats)
	for _, o := range []Options{
		{Patterns: pats, Word: true},
		{Patterns: pats, Word: true, NoUnicode: true},
		{Patterns: pats, Word: true, Fixed: true},
		{Patterns: pats, Line: true},
		{Patterns: pats, Line: true, Word: true},
		{Patterns: pats, Word: true, Case: Smart},          // "Ab": case-sensitive
		{Patterns: pats, Word: true, LineTerminator: 0xFF}, // --null-data below
	} {
		if o.LineTerminator == 0xFF {
			o.LineTerminator = 0
		} else {
			o.LineTerminator = '\n'
		}
		name := describe(o)[:60]
		m := mustCompile(t, o)
		if m.wordSet == nil && m.lineSet == nil {
			t.Fatalf("%s: not answered by a set", name)
		}
		vm := withoutSets(t, o)
		lines := bytes.Split(text, []byte{o.LineTerminator})
		for _, l := range lines {
			if got, want := m.IsMatch(l), vm.IsMatch(l); got != want {
				t.Errorf("%s on %q: IsMatch %v, regex %v", name, l, got, want)
			}
			for at := 0; at <= len(l); at += 1 + r.Intn(4) {
				got := m.OccurrencesIn(l, at, len(l), nil)
				want := vm.OccurrencesIn(l, at, len(l), nil)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s on %q from %d: occurrences %v, regex %v", name, l, at, got, want)
				}
			}
		}
		if got, want := nextLines(m, text), nextLines(vm, text); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: NextLine found %d lines, the regex %d", name, len(got), len(want))
		}
	}
}

// nextLines lists the starts of the lines NextLine finds in buf.
func nextLines(m *Matcher, buf []byte) []int {
	var out []int
	for from := 0; from < len(buf); {
		s, e, ok := m.NextLine(buf, from)
		if !ok {
			break
		}
		out = append(out, s)
		from = e
	}
	return out
}

// TestLitWordSetChoice: the sets take -w and -x of at least minLitSet
// plain literals, and nothing else.
func TestLitWordSetChoice(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	pats := litWordPats(r, minLitSet)
	for _, c := range []struct {
		o          Options
		word, line bool
	}{
		{Options{Patterns: pats, Word: true}, true, false},
		{Options{Patterns: pats, Line: true}, false, true},
		{Options{Patterns: pats, Line: true, Word: true}, false, true},
		{Options{Patterns: pats[:minLitSet-1], Word: true}, false, false},
		{Options{Patterns: pats, Word: true, Case: Insensitive}, false, false},
		{Options{Patterns: pats, Word: true, CRLF: true}, false, false},
		{Options{Patterns: pats, Line: true, Multiline: true}, false, false},
		{Options{Patterns: append([]string{"a+"}, pats...), Word: true}, false, false},
	} {
		if c.o.LineTerminator == 0 {
			c.o.LineTerminator = '\n'
		}
		m := mustCompile(t, c.o)
		if (c.word || c.line) && (m.prog != nil || m.hasRE || m.pre != nil) {
			t.Errorf("%s: a regex engine or prefilter is built beside the set", describe(c.o)[:40])
		}
		if (m.wordSet != nil) != c.word || (m.lineSet != nil) != c.line {
			t.Errorf("%s: word set %v, line set %v; want %v, %v", describe(c.o)[:40], m.wordSet != nil, m.lineSet != nil, c.word, c.line)
		}
	}
}

// TestLitWordSetsAgainstRG: 2,000 generated identifiers with -w and -x
// (and a few flags) over a fixture give rg 15's lines and submatches.
func TestLitWordSetsAgainstRG(t *testing.T) {
	g := testref.Open(t)
	r := rand.New(rand.NewSource(5))
	var pats []string
	seen := map[string]bool{}
	parts := []string{"Read", "Write", "er", "Buf", "io", "_", "x", "2", "Err", "EOF", "ß"}
	for len(pats) < 2000 {
		var b strings.Builder
		for k := 1 + r.Intn(4); k > 0; k-- {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		if s := b.String(); !seen[s] {
			seen[s] = true
			pats = append(pats, s)
		}
	}
	var text bytes.Buffer
	seps := []string{" ", ".", "(", "\t", "é", "_", "", "\xff", " "}
	for i := 0; i < 400; i++ {
		if i%5 == 0 {
			text.WriteString(pats[r.Intn(len(pats))] + "\n")
			continue
		}
		for k := r.Intn(6); k > 0; k-- {
			text.WriteString(pats[r.Intn(len(pats))] + seps[r.Intn(len(seps))])
		}
		text.WriteString("\n")
	}
	for _, o := range []Options{
		{Patterns: pats, Word: true},
		{Patterns: pats, Word: true, NoUnicode: true},
		{Patterns: pats, Word: true, Fixed: true},
		{Patterns: pats, Line: true},
		{Patterns: pats, Line: true, Fixed: true},
	} {
		o.LineTerminator = '\n'
		if m := mustCompile(t, o); m.wordSet == nil && m.lineSet == nil {
			t.Fatalf("%s: not answered by a set", describe(o)[:20])
		}
		compareWithRG(t, g, o, text.String())
	}
}

// TestLitWordsHIR: the HIR compileLitWords makes of plain literals is the
// one the parser and translator make of their alternation (so rg's size
// rule sees the same pattern), for -F and not, Unicode and ASCII.
func TestLitWordsHIR(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	pats := litWordPats(r, 200)
	fixed := append([]string{"a.b", "(x)", "[y]", "a|b", "\\d", "$^", "{1}", "?*+"}, pats...)
	for _, o := range []Options{
		{Patterns: pats, Word: true},
		{Patterns: pats, Line: true},
		{Patterns: fixed, Word: true, Fixed: true},
		{Patterns: []string{"Abc", "x y", "#1", "-", "a'b", "z"}, Word: true, NoUnicode: true},
	} {
		for len(o.Patterns) < minLitSet {
			o.Patterns = append(o.Patterns, fmt.Sprintf("w%d", len(o.Patterns)))
		}
		o.LineTerminator = '\n'
		lits, ok := plainLiterals(o)
		if !ok {
			t.Fatalf("%s: not plain literals", describe(o)[:40])
		}
		pat, _, err := joinPatterns(o)
		if err != nil {
			t.Fatal(err)
		}
		tree, perr := parsePattern(pat)
		if perr != nil {
			t.Fatal(perr)
		}
		want, perr := translate(tree, flags{m: true, u: !o.NoUnicode})
		if perr != nil {
			t.Fatal(perr)
		}
		if got := literalAlt(lits); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the HIR differs from the parsed one", describe(o)[:40])
		}
	}
}

// TestLitWordsSizeLimit: the sets keep rg's size rule: a small
// --regex-size-limit refuses -w and -x of many literals with the error the
// regex path gives, and the default one accepts them.
func TestLitWordsSizeLimit(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	pats := litWordPats(r, 2000)
	for _, o := range []Options{
		{Patterns: pats, Word: true, SizeLimit: 10 << 10},
		{Patterns: pats, Line: true, SizeLimit: 10 << 10},
	} {
		o.LineTerminator = '\n'
		_, err := Compile(o)
		litWordSets = false
		_, want := Compile(o)
		litWordSets = true
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("%s: error %v, want %v", describe(o)[:20], err, want)
		}
		o.SizeLimit = 0
		if _, err := Compile(o); err != nil {
			t.Errorf("%s: %v", describe(o)[:20], err)
		}
	}
}

// FuzzLitWordSets: on any line, -w and -x of many literals answered by
// the sets find what the regex engines find for the alternation.
func FuzzLitWordSets(f *testing.F) {
	r := rand.New(rand.NewSource(13))
	pats := litWordPats(r, 80)
	type pair struct{ set, vm *Matcher }
	var pairs []pair
	for _, o := range []Options{
		{Patterns: pats, Word: true, LineTerminator: '\n'},
		{Patterns: pats, Word: true, NoUnicode: true, LineTerminator: '\n'},
		{Patterns: pats, Line: true, LineTerminator: '\n'},
	} {
		set, err := Compile(o)
		if err != nil {
			f.Fatal(err)
		}
		litWordSets = false
		vm, err := Compile(o)
		litWordSets = true
		if err != nil {
			f.Fatal(err)
		}
		pairs = append(pairs, pair{set, vm})
	}
	for _, s := range []string{"ab a", "_ab-", "é中ab", pats[0], pats[1] + " " + pats[2], "\xffab\xc3"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if len(line) > 256 || bytes.IndexByte(line, '\n') >= 0 {
			return
		}
		for i, p := range pairs {
			if got, want := p.set.IsMatch(line), p.vm.IsMatch(line); got != want {
				t.Fatalf("case %d on %q: IsMatch %v, regex %v", i, line, got, want)
			}
			for at := 0; at <= len(line); at++ {
				got := p.set.OccurrencesIn(line, at, len(line), nil)
				want := p.vm.OccurrencesIn(line, at, len(line), nil)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("case %d on %q from %d: %v, regex %v", i, line, at, got, want)
				}
			}
		}
	})
}
