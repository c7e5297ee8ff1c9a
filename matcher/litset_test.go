package matcher

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// litsetOutput renders what the matcher finds for the patterns in
// pats.txt over text.txt the way rg -o -n prints it.
func litsetOutput(t *testing.T, pats []string, text []byte) []byte {
	t.Helper()
	m, err := Compile(Options{Patterns: pats, LineTerminator: '\n'})
	if err != nil {
		t.Fatal(err)
	}
	if m.lits == nil {
		t.Fatal("the literal set is not searched with the automaton")
	}
	var out bytes.Buffer
	for i, line := range bytes.Split(bytes.TrimSuffix(text, []byte("\n")), []byte("\n")) {
		for _, r := range m.Occurrences(line, nil) {
			out.WriteString(strconv.Itoa(i+1) + ":" + string(line[r.Start:r.End]) + "\n")
		}
	}
	return out.Bytes()
}

func readLitset(t *testing.T) ([]string, []byte) {
	t.Helper()
	p, err := os.ReadFile("testdata/litset/pats.txt")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile("testdata/litset/text.txt")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(p), "\n"), "\n"), text
}

// TestLitsetGolden: 300 overlapping literals over "abcd" (so that the
// leftmost-first rule decides among many candidates) give rg 15's -o
// answer (testdata/litset/rg-o.txt, recorded by regen.sh), and the lines
// they match are the ones NextLine finds.
func TestLitsetGolden(t *testing.T) {
	pats, text := readLitset(t)
	want, err := os.ReadFile("testdata/litset/rg-o.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := litsetOutput(t, pats, text); !bytes.Equal(got, want) {
		t.Errorf("occurrences differ from rg's:\n%s", firstDiff(got, want))
	}
	m, _ := Compile(Options{Patterns: pats, LineTerminator: '\n'})
	wantLines := map[int]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(want)), "\n") {
		n, _ := strconv.Atoi(l[:strings.IndexByte(l, ':')])
		wantLines[n] = true
	}
	lineNo, from, got := 1, 0, 0
	for {
		s, e, ok := m.NextLine(text, from)
		if !ok {
			break
		}
		lineNo += bytes.Count(text[from:s], []byte("\n"))
		if !wantLines[lineNo] {
			t.Errorf("line %d matched, rg has no match there", lineNo)
		}
		got++
		lineNo++
		from = e
	}
	if got != len(wantLines) {
		t.Errorf("%d matching lines, rg has %d", got, len(wantLines))
	}
}

// TestLitsetRg15 compares with rg 15 itself, on the recorded case and on
// the same words with the order of the patterns reversed (the
// leftmost-first rule depends on it).
func TestLitsetRg15(t *testing.T) {
	const rg15 = "/opt/rg15/rg"
	if _, err := os.Stat(rg15); err != nil {
		t.Skip("no ripgrep 15 at " + rg15)
	}
	pats, text := readLitset(t)
	rev := make([]string, len(pats))
	for i, p := range pats {
		rev[len(pats)-1-i] = p
	}
	dir := t.TempDir()
	for _, ps := range [][]string{pats, rev} {
		pf := dir + "/pats.txt"
		if err := os.WriteFile(pf, []byte(strings.Join(ps, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := exec.Command(rg15, "--no-config", "-o", "-n", "-f", pf, "testdata/litset/text.txt").Output()
		if err != nil {
			t.Fatal(err)
		}
		if got := litsetOutput(t, ps, text); !bytes.Equal(got, want) {
			t.Errorf("occurrences differ from rg 15's:\n%s", firstDiff(got, want))
		}
	}
}

func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ": got " + strconv.Quote(a) + ", want " + strconv.Quote(b)
		}
	}
	return ""
}

// leftmostFirst is the reference rule: the earliest start, and there the
// first pattern in order that occurs.
func leftmostFirst(pats [][]byte, h []byte, at int) (int, int, bool) {
	for s := at; s < len(h); s++ {
		for _, p := range pats {
			if bytes.HasPrefix(h[s:], p) {
				return s, s + len(p), true
			}
		}
	}
	return 0, 0, false
}

// TestLitsetReference compares the literal set with the reference rule on
// generated cases, through both ways in: plain words (taken as they are)
// and escaped ones (parsed: `a\.b` is the literal "a.b").
func TestLitsetReference(t *testing.T) {
	seed := uint32(1)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	word := func(alpha string, n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(alpha[rnd(len(alpha))])
		}
		return b.String()
	}
	for round := range 20 {
		var pats []string
		var lits [][]byte
		escaped := round%2 == 1
		for range 64 + rnd(200) {
			w := word("abc", 1+rnd(6))
			lit := w
			if escaped && rnd(3) == 0 {
				w, lit = w+`\.`+"é", lit+".é"
			}
			pats = append(pats, w)
			lits = append(lits, []byte(lit))
		}
		m, err := Compile(Options{Patterns: pats, LineTerminator: '\n'})
		if err != nil {
			t.Fatal(err)
		}
		if m.lits == nil {
			t.Fatalf("round %d: not searched with the literal set", round)
		}
		for range 50 {
			line := []byte(word("abc.éx", rnd(60)))
			var want []Range
			for at := 0; at < len(line); {
				s, e, ok := leftmostFirst(lits, line, at)
				if !ok {
					break
				}
				want = append(want, Range{s, e})
				at = e
			}
			got := m.Occurrences(line, nil)
			if len(got) != len(want) || (len(want) > 0 && !slicesEqual(got, want)) {
				t.Fatalf("round %d, %q: got %v, want %v", round, line, got, want)
			}
			if m.IsMatch(line) != (len(want) > 0) {
				t.Fatalf("round %d, %q: IsMatch %v", round, line, !m.IsMatch(line))
			}
		}
	}
}

func slicesEqual(a, b []Range) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
