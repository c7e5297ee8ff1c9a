package matcher

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestLineScanner: the per-search cache answers exactly what NextLine
// answers, also when a buffer is refilled in place (same address and
// length, new content) and Reset is called.
func TestLineScanner(t *testing.T) {
	m, err := Compile(Options{Patterns: []string{"alpha|beta|gamma"}, LineTerminator: '\n'})
	if err != nil {
		t.Fatal(err)
	}
	words := []string{"alpha", "beta", "gamma", "delta", "x", "alphabet", "zeta"}
	rng := rand.New(rand.NewSource(1))
	gen := func() []byte {
		var b strings.Builder
		for i := 0; i < 400; i++ {
			fmt.Fprintf(&b, "%s %s\n", words[rng.Intn(len(words))], words[rng.Intn(len(words))])
		}
		return []byte(b.String())
	}
	sc := m.NewLineScanner()
	buf := gen()
	for round := 0; round < 3; round++ {
		if round > 0 {
			copy(buf, gen()[:len(buf)]) // same address and length, new content
			sc.Reset()
		}
		for from := 0; from < len(buf); {
			s1, e1, ok1 := sc.NextLine(buf, from)
			s2, e2, ok2 := m.NextLine(buf, from)
			if s1 != s2 || e1 != e2 || ok1 != ok2 {
				t.Fatalf("round %d from %d: scanner (%d,%d,%v), matcher (%d,%d,%v)", round, from, s1, e1, ok1, s2, e2, ok2)
			}
			if !ok1 {
				break
			}
			from = e1
		}
	}
}
