package matcher

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// dfaPatterns are patterns the lazy DFA answers (no assertions, no empty
// match), with Unicode classes, raw bytes, case folding and repetitions.
var dfaPatterns = []string{
	`\w{5}\s+\w{5}\s+\w{5}`,
	`\w+\s+Reader\s+\w+`,
	`[A-Z][a-z]+Error`,
	`\wAh`,
	`\p{Greek}+`,
	`(?i)straße`,
	`é|ü+x`,
	`a.c`,
	`(?-u:\xFF)a`,
	`(?-u:[\x80-\xFF])+z`,
	`[^a-z]{3}`,
	`(ab|a)(bc|c)d`,
	`x{2,4}y?z`,
	`\d+\.\d+`,
	`(?i)ΣΑΣ`,
	`\S+@\S+`,
	`[\p{Han}\p{Hiragana}]`,
	`.{20}`,
	`^\w+\s`,
	`\w+$`,
	`^a|b$`,
	`^$x|^(?:Ah)+$`,
	`(?:^|\s)\d+(?:$|\.)`,
	`z$$|^^y`,
	`(?:a$)+b|x(?:$|y)+`,
	// Patterns that can match the empty string.
	`^\s*$`,
	`^$`,
	`^`,
	`$`,
	`a*`,
	`x*$`,
	`^(?:Ah)*`,
	`\s*$|z`,
	`(?:ab)?c?`,
}

// dfaTexts builds lines of ASCII, multi-byte and invalid UTF-8 pieces.
func dfaTexts(r *rand.Rand, n int) [][]byte {
	pieces := []string{"a", "b", "c", "d", "x", "y", "z", "Ah", "Error", "Reader", " ", "  ", "\t",
		"é", "ü", "ß", "SS", "straße", "STRASSE", "Σ", "σ", "ς", "α", "β", "中", "ひ",
		"\xff", "\xc3", "\xe2\x82", "\x80", "12", ".", "3", "@", "foo", "Hello", "World", "words"}
	var out [][]byte
	for i := 0; i < n; i++ {
		var b []byte
		for k := r.Intn(30); k > 0; k-- {
			b = append(b, pieces[r.Intn(len(pieces))]...)
		}
		out = append(out, b)
	}
	return out
}

func vmIsMatch(m *Matcher, line []byte) bool {
	_, ok := vmFirstEnd(m, line)
	return ok
}

// vmFirstEnd is where the VM's earliest match ends.
func vmFirstEnd(m *Matcher, h []byte) (int, bool) {
	caps := make([]int, m.prog.nslots)
	ok := m.prog.execMode(h, 0, execMode{earliest: true, asciiPrevAt: -1}, caps)
	return caps[1], ok
}

// TestDFAAgainstVM checks the DFA's answers, per line (IsMatch) and per
// buffer (NextLine), against the VM's line by line; once with the normal
// cache and once with one so small that it keeps starting over (and
// finally gives up, when the other engines answer).
func TestDFAAgainstVM(t *testing.T) {
	for _, limit := range []int{dfaCacheLimit, 8 << 10, 1} {
		r := rand.New(rand.NewSource(1))
		for _, pat := range dfaPatterns {
			m := mustCompile(t, Options{Patterns: []string{pat}, LineTerminator: '\n'})
			if m.dfa == nil {
				t.Fatalf("%q: no DFA", pat)
			}
			m.dfa.limit = limit
			lines := dfaTexts(r, 400)
			for _, line := range lines {
				if _, ok := m.dfaFirstEnd(line); !ok && limit == dfaCacheLimit {
					t.Fatalf("%q: the DFA gave up with the normal cache", pat)
				}
				if got, want := m.IsMatch(line), vmIsMatch(m, line); got != want {
					t.Errorf("%q on %q (limit %d): IsMatch %v, VM %v", pat, line, limit, got, want)
				}
			}
			buf := bytes.Join(lines, []byte("\n"))
			// Where the first match ends, over lines and over the
			// whole buffer (with '\n' inside for the anchors).
			for _, h := range append(lines[:50:50], buf, buf[:len(buf)/2], buf[len(buf)/3:]) {
				e, ok := m.dfaFirstEnd(h)
				if !ok {
					continue // gave up (small caches)
				}
				we, wok := vmFirstEnd(m, h)
				if (e >= 0) != wok || wok && e != we {
					t.Errorf("%q (limit %d) on %q: DFA first end %d, VM %d %v", pat, limit, h[:min(len(h), 80)], e, we, wok)
				}
			}
			var got, want []string
			for from := 0; from < len(buf); {
				s, e, ok := m.NextLine(buf, from)
				if !ok {
					break
				}
				got = append(got, string(buf[s:e]))
				from = e
			}
			for ls := 0; ls <= len(buf); {
				le := lineEnd(buf, ls, '\n')
				if vmIsMatch(m, buf[ls:le]) {
					want = append(want, string(buf[ls:advance(buf, le)]))
				}
				if le == len(buf) {
					break
				}
				ls = le + 1
			}
			if strings.Join(got, "") != strings.Join(want, "") {
				t.Errorf("%q (limit %d): NextLine found %d lines, the VM %d", pat, limit, len(got), len(want))
			}
		}
	}
}

// TestDFAChoice: the DFA exists exactly for programs that have no
// assertions but ^ and $ (those only with '\n' lines and no CRLF mode),
// outside multiline mode.
func TestDFAChoice(t *testing.T) {
	for _, c := range []struct {
		o    Options
		want bool
	}{
		{Options{Patterns: []string{`\w{5}\s+\w{5}`}}, true},
		{Options{Patterns: []string{`\bfoo\w+`}}, false},
		{Options{Patterns: []string{`^foo\w+`}}, true},
		{Options{Patterns: []string{`foo\w+$`}}, true},
		{Options{Patterns: []string{`foo\w+$`}, CRLF: true}, false},
		{Options{Patterns: []string{`foo\w+`}, CRLF: true}, true},
		{Options{Patterns: []string{`\Afoo\w+`}}, false},
		{Options{Patterns: []string{`foo\w+`}, Word: true}, false},
		{Options{Patterns: []string{`foo\w+`}, Line: true}, true},
		{Options{Patterns: []string{`\w*`}}, true},
		{Options{Patterns: []string{`^\s*$`}}, true},
		{Options{Patterns: []string{`foo\w+`}, Multiline: true}, false},
	} {
		c.o.LineTerminator = '\n'
		m := mustCompile(t, c.o)
		if got := m.dfa != nil; got != c.want {
			t.Errorf("%+v: DFA %v, want %v", c.o, got, c.want)
		}
	}
}

// TestDFAEmptyMatchLines: an empty match found by the DFA is on the line
// it starts: a line start, never the phantom line after a buffer's last
// terminator (rg reports no line there).
func TestDFAEmptyMatchLines(t *testing.T) {
	for _, c := range []struct {
		pat, buf string
		want     []string
	}{
		{`^$`, "a\n\nb\n", []string{"\n"}},
		{`^$`, "a\n", nil},
		{`^$`, "", nil},
		{`^\s*$`, " \nx\n\t\n", []string{" \n", "\t\n"}},
		{`a*`, "x\ny", []string{"x\n", "y"}},
		{`^`, "x\n\n", []string{"x\n", "\n"}},
		{`$`, "x\ny", []string{"x\n", "y"}},
	} {
		m := mustCompile(t, Options{Patterns: []string{c.pat}, LineTerminator: '\n'})
		if m.dfa == nil {
			t.Fatalf("%q: no DFA", c.pat)
		}
		buf := []byte(c.buf)
		var got []string
		for from := 0; from < len(buf); {
			s, e, ok := m.NextLine(buf, from)
			if !ok {
				break
			}
			got = append(got, string(buf[s:e]))
			from = e
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q on %q: lines %q, want %q", c.pat, c.buf, got, c.want)
		}
	}
}

// TestDFAThrashGivesUp: a cache too small for the text's states gives up
// after dfaMaxResets fruitless resets, and from then on the matcher
// answers without it.
func TestDFAThrashGivesUp(t *testing.T) {
	m := mustCompile(t, Options{Patterns: []string{`\w{5}\s+\w{5}`}, LineTerminator: '\n'})
	m.dfa.limit = 1
	line := []byte("hello world and more words here")
	for i := 0; i < 2*dfaMaxResets && !m.dfa.failed.Load(); i++ {
		m.dfaFirstEnd(line)
	}
	if !m.dfa.failed.Load() {
		t.Fatal("the DFA never gave up")
	}
	if !m.IsMatch(line) {
		t.Fatal("no match after the DFA gave up")
	}
}

// BenchmarkDFANoLiteral: the DFA's scan over Go source (GOROOT/src/io),
// no match expected in most of it.
func BenchmarkDFANoLiteral(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command")
	}
	files, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "src", "io", "*.go"))
	var text []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err == nil {
			text = append(text, data...)
		}
	}
	if len(text) == 0 {
		b.Skip("no GOROOT sources")
	}
	m, err := Compile(Options{Patterns: []string{`\w{5}\s+\w{5}\s+\w{5}\s+\w{5}\s+\w{5}`}, LineTerminator: '\n'})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		for from := 0; from < len(text); {
			_, e, ok := m.NextLine(text, from)
			if !ok {
				break
			}
			from = e
		}
	}
}

// TestDFAConcurrent: goroutines sharing one matcher each take their own
// cache (go test -race checks the sharing) and agree with one another,
// also while small caches keep starting over.
func TestDFAConcurrent(t *testing.T) {
	m := mustCompile(t, Options{Patterns: []string{`\w{3}\s+\w{3}é?`}, LineTerminator: '\n'})
	m.dfa.limit = 16 << 10
	buf := bytes.Join(dfaTexts(rand.New(rand.NewSource(3)), 300), []byte("\n"))
	count := func() int {
		n := 0
		for from := 0; from < len(buf); {
			_, e, ok := m.NextLine(buf, from)
			if !ok {
				break
			}
			n++
			from = e
		}
		return n
	}
	want := count()
	if want == 0 {
		t.Fatal("no matching line: the test text is wrong")
	}
	done := make(chan int)
	for g := 0; g < 4; g++ {
		go func() {
			got := want
			for i := 0; i < 5 && got == want; i++ {
				got = count()
			}
			done <- got
		}()
	}
	for g := 0; g < 4; g++ {
		if got := <-done; got != want {
			t.Fatalf("a goroutine counted %d matching lines, want %d", got, want)
		}
	}
}
