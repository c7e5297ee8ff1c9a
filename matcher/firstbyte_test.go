package matcher

import (
	"testing"
)

// TestFirstBytes: every match starts with a byte of the computed set, and
// NextLine with the first-byte scan answers what it answers without it.
func TestFirstBytes(t *testing.T) {
	hay := []byte("ββё αё жё\nalpha Ωμέγα βήτα\nЖук ёж and 日本語 text\n\tfoo123 ΑΒΓ\nплюс 𝄞 music 𐅀\n")
	pats := []string{`(?:α|ж?)ё`, `β*ё`, `(?:β*|ж)ё`, `\p{Greek}`, `\p{Greek}+`, `\p{Cyrillic}\w*`, `[αβγ]|ж`, `\p{Han}`, `(?i)ω`, `𝄞|𐅀`, `\p{Greek}|\d`}
	for _, p := range pats {
		m, err := Compile(Options{Patterns: []string{p}, LineTerminator: '\n'})
		if err != nil {
			t.Fatal(err)
		}
		slow, _ := Compile(Options{Patterns: []string{p}, LineTerminator: '\n'})
		slow.first = nil
		if m.first != nil {
			set := map[byte]bool{}
			for _, b := range m.first.bytes {
				set[b] = true
			}
			for _, r := range slow.FindAll(hay, nil) {
				if !set[hay[r.Start]] {
					t.Errorf("%q: match at %d starts with %#x, not in %x", p, r.Start, hay[r.Start], m.first.bytes)
				}
			}
		}
		for from := 0; from < len(hay); {
			s1, e1, ok1 := m.NextLine(hay, from)
			s2, e2, ok2 := slow.NextLine(hay, from)
			if s1 != s2 || e1 != e2 || ok1 != ok2 {
				t.Fatalf("%q NextLine(%d): (%d,%d,%v) vs (%d,%d,%v)", p, from, s1, e1, ok1, s2, e2, ok2)
			}
			if !ok1 {
				break
			}
			from = e1
		}
	}
	// Greek gets a first-byte scan; \w (common ASCII starts) does not.
	for p, want := range map[string]bool{`\p{Greek}`: true, `\w+x`: false} {
		m, _ := Compile(Options{Patterns: []string{p}, LineTerminator: '\n'})
		if (m.first != nil) != want {
			t.Errorf("%q: first-byte scan %v, want %v", p, m.first != nil, want)
		}
	}
}
