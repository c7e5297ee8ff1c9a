package litset

import (
	"bytes"
	"testing"
)

// leftmostFirst is the reference rule: the earliest start, and there the
// first literal in order that occurs.
func leftmostFirst(lits [][]byte, h []byte, at int) (int, int, bool) {
	for s := at; s < len(h); s++ {
		for _, p := range lits {
			if bytes.HasPrefix(h[s:], p) {
				return s, s + len(p), true
			}
		}
	}
	return 0, 0, false
}

// TestReference compares Find with the reference rule on generated sets,
// with the dense rows large enough for the whole trie and cut short (so
// that sparse nodes and failure links are exercised).
func TestReference(t *testing.T) {
	seed := uint32(7)
	rnd := func(n int) int {
		seed = seed*1664525 + 1013904223
		return int(seed>>8) % n
	}
	word := func(alpha string, n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = alpha[rnd(len(alpha))]
		}
		return b
	}
	saved := denseBudget
	defer func() { denseBudget = saved }()
	for _, budget := range []int{saved, 64, 1} {
		denseBudget = budget
		for round := range 30 {
			var lits [][]byte
			for range 1 + rnd(300) {
				lits = append(lits, word("abcd", 1+rnd(7)))
			}
			s := New(lits)
			for range 40 {
				h := word("abcdx", rnd(80))
				for at := 0; at <= len(h); {
					ws, we, wok := leftmostFirst(lits, h, at)
					gs, ge, gok := s.Find(h, at)
					if ws != gs || we != ge || wok != gok {
						t.Fatalf("budget %d round %d: Find(%q, %d) = %d,%d,%v, want %d,%d,%v", budget, round, h, at, gs, ge, gok, ws, we, wok)
					}
					if !wok {
						break
					}
					at = we
				}
				if s.Contains(h) != (func() bool { _, _, ok := leftmostFirst(lits, h, 0); return ok })() {
					t.Fatalf("Contains(%q) wrong", h)
				}
			}
		}
	}
}
