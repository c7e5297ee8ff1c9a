package litset

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
)

// allOccurrences is the reference for All.Each: every (literal, end)
// pair, by end, then by descending length, then literal index.
func allOccurrences(lits [][]byte, h []byte, fold bool) []string {
	low := func(b []byte) []byte {
		if fold {
			return bytes.ToLower(b) // ASCII input: ASCII folding
		}
		return b
	}
	type occ struct{ lit, end int }
	var out []occ
	for end := 1; end <= len(h); end++ {
		for i, l := range lits {
			if end >= len(l) && bytes.Equal(low(h[end-len(l):end]), low(l)) {
				out = append(out, occ{i, end})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b occ) int {
		if a.end != b.end {
			return a.end - b.end
		}
		return len(lits[b.lit]) - len(lits[a.lit])
	})
	var s []string
	for _, o := range out {
		s = append(s, fmt.Sprint(o.lit, "@", o.end))
	}
	return s
}

// TestAllReference compares All.Each with the brute-force list on
// generated sets (duplicates and literals that are suffixes of others
// included), with and without ASCII folding, with the dense rows large
// enough for the whole trie and cut short (sparse nodes, failure links).
func TestAllReference(t *testing.T) {
	seed := uint32(11)
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
		for _, fold := range []bool{false, true} {
			for round := range 30 {
				var lits [][]byte
				for range 1 + rnd(64) {
					lits = append(lits, word("abAB", 1+rnd(5)))
				}
				a := NewAll(lits, fold)
				for range 30 {
					h := word("abABx", rnd(60))
					var got []string
					a.Each(h, func(lit, end int) bool {
						got = append(got, fmt.Sprint(lit, "@", end))
						return true
					})
					// Equal ends: the order among literals of one length
					// is the automaton's; compare as sets per end.
					want := allOccurrences(lits, h, fold)
					slices.Sort(got)
					slices.Sort(want)
					if !slices.Equal(got, want) {
						t.Fatalf("budget %d fold %v round %d: Each(%q) over %q = %v, want %v", budget, fold, round, h, lits, got, want)
					}
				}
			}
		}
	}
}

// TestAllOrderAndStop checks that occurrences come by end and that fn
// returning false stops the scan.
func TestAllOrderAndStop(t *testing.T) {
	a := NewAll([][]byte{[]byte("he"), []byte("she"), []byte("hers"), []byte("e")}, false)
	var ends []int
	a.Each([]byte("ushers"), func(lit, end int) bool {
		ends = append(ends, end)
		return true
	})
	if !slices.IsSorted(ends) || len(ends) != 4 {
		t.Fatalf("ends %v: want 4 occurrences in end order", ends)
	}
	n := 0
	a.Each([]byte("ushers"), func(lit, end int) bool { n++; return false })
	if n != 1 {
		t.Fatalf("fn returned false but was called %d times", n)
	}
}
