package matcher

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"
)

// TestWordLitAgainstVM checks the -w literal checker against the VM running
// rg 15's \b{start-half}(?:lit)\b{end-half}: whether a line matches, and
// every occurrence in it (from each start offset, as the printer asks with
// context before the line), over lines of ASCII and Unicode word and
// non-word characters and invalid UTF-8.
func TestWordLitAgainstVM(t *testing.T) {
	cases := []struct {
		pat   string
		case_ CaseMode
		noUni bool
	}{
		{"foo", Sensitive, false},
		{"foo", Sensitive, true},
		{"foo", Insensitive, false},
		{"Hello", Insensitive, true},
		{"aa", Sensitive, false},
		{"a-b", Sensitive, false},
		{"-a", Sensitive, false},
		{"x ", Sensitive, false},
		{"é", Sensitive, false},
		{"é", Sensitive, true},
		{"straße", Sensitive, false},
		{"(foo)", Sensitive, false},
		{"12", Sensitive, false},
		{"@", Sensitive, false},
	}
	r := rand.New(rand.NewSource(7))
	pieces := []string{"foo", "FOO", "Foo", "a", "aa", "b", "-", "a-b", "x", " ", "_", "1", "12", "@",
		"Hello", "hello", "é", "É", "straße", "ß", "中", "\u00a0", "\u2028", "\xff", "\xc3", "\xe2\x82", "\x80", "\t", "\r"}
	for _, c := range cases {
		name := fmt.Sprintf("%s/%d/nouni=%v", c.pat, c.case_, c.noUni)
		m := mustCompile(t, Options{Patterns: []string{c.pat}, Word: true, Case: c.case_, NoUnicode: c.noUni, LineTerminator: '\n'})
		if m.wordLit == nil {
			t.Fatalf("%s: no word literal", name)
		}
		if m.hasRE {
			t.Errorf("%s: RE2 would be compiled", name)
		}
		vm := mustCompile(t, Options{Patterns: []string{c.pat}, Word: true, Case: c.case_, NoUnicode: c.noUni, LineTerminator: '\n'})
		vm.wordLit = nil
		for i := 0; i < 3000; i++ {
			var b []byte
			for k := r.Intn(12); k > 0; k-- {
				b = append(b, pieces[r.Intn(len(pieces))]...)
			}
			if got, want := m.IsMatch(b), vmIsMatch(m, b); got != want {
				t.Errorf("%s on %q: IsMatch %v, VM %v", name, b, got, want)
			}
			for at := 0; at <= len(b); at += 1 + r.Intn(3) {
				got := m.OccurrencesIn(b, at, len(b), nil)
				want := vm.OccurrencesIn(b, at, len(b), nil)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s on %q from %d: occurrences %v, VM %v", name, b, at, got, want)
				}
			}
		}
		// NextLine over a buffer of such lines finds the VM's lines.
		var lines [][]byte
		for i := 0; i < 200; i++ {
			var b []byte
			for k := r.Intn(12); k > 0; k-- {
				b = append(b, pieces[r.Intn(len(pieces))]...)
			}
			lines = append(lines, b)
		}
		buf := bytes.Join(lines, []byte("\n"))
		var got, want int
		for from := 0; from < len(buf); {
			_, e, ok := m.NextLine(buf, from)
			if !ok {
				break
			}
			got++
			from = e
		}
		for _, l := range lines {
			if vmIsMatch(m, l) {
				want++
			}
		}
		if got != want {
			t.Errorf("%s: NextLine found %d lines, the VM %d", name, got, want)
		}
	}
}

// TestWordLitChoice: the checker is used for -w of fixed-length literals
// only, never for regexes, multiline or CRLF mode.
func TestWordLitChoice(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want bool
	}{
		{Options{Patterns: []string{"ErrUnexpectedEOF"}, Word: true}, true},
		{Options{Patterns: []string{"ErrUnexpectedEOF"}, Word: true, Case: Insensitive}, true},
		{Options{Patterns: []string{"ErrUnexpectedEOF"}}, false},
		{Options{Patterns: []string{"Err.*EOF"}, Word: true}, false},
		{Options{Patterns: []string{"foo|bar"}, Word: true}, false},
		{Options{Patterns: []string{"foo"}, Word: true, Multiline: true}, false},
		{Options{Patterns: []string{"foo"}, Word: true, CRLF: true}, false},
		{Options{Patterns: []string{"straße"}, Word: true, Case: Insensitive}, false},
	} {
		if c.o.LineTerminator == 0 {
			c.o.LineTerminator = '\n'
		}
		m := mustCompile(t, c.o)
		if got := m.wordLit != nil; got != c.want {
			t.Errorf("%+v: word literal %v, want %v", c.o, got, c.want)
		}
	}
}
