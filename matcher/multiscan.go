package matcher

import (
	"math"
	"math/bits"
	"slices"

	"github.com/evgrep/evgrep/matcher/internal/vscan"
)

// multiScan finds occurrences of a set of literals (byte-set sequences)
// in one vectorised pass (matcher/internal/vscan): three offsets of every
// literal are tested 32 positions at a time, and each candidate is
// verified against the literal, or the literals of its bucket. It replaces
// one bytes.IndexByte stream per alternative (or per case variant), which
// stops every few hundred bytes on common letters.
type multiScan struct {
	trio    *vscan.Trio  // one literal: three of its positions, compared
	sc      *vscan.Teddy // several literals (or one Trio cannot take)
	lits    []lit
	buckets [vscan.Buckets][]int32 // literal indexes per bucket
}

// vectorScans enables the vectorised scans where the machine has them
// (tests turn it off to compare with the byte scanners).
var vectorScans = vscan.Available()

// newMultiScan returns a scanner for lits, or nil when the vectorised scan
// is unavailable here or the set does not suit it.
func newMultiScan(lits []lit) *multiScan {
	if !vectorScans || len(lits) == 0 || len(lits) > maxTeddyLiterals {
		return nil
	}
	n := maxLitLen
	for _, l := range lits {
		n = min(n, len(l))
	}
	if n == 0 {
		return nil
	}
	if len(lits) == 1 {
		if t := bestTrio(lits[0]); t != nil {
			return &multiScan{trio: t, lits: lits}
		}
	}
	off := bestOffsets(lits, min(n, teddyOffsetWindow))
	s := &multiScan{sc: vscan.NewTeddy(off), lits: lits}
	for i, l := range lits {
		b := i % vscan.Buckets
		s.buckets[b] = append(s.buckets[b], int32(i))
		for k, o := range off {
			for _, c := range l[o].members() {
				s.sc.Add(b, k, c)
			}
		}
	}
	return s
}

// bestOffsets picks the offsets (below n, distinct while n allows) that
// make candidates rarest: the sum over the literals of the product of each
// tested position's byte probability.
func bestOffsets(lits []lit, n int) [vscan.Positions]int {
	prob := func(s byteSet) float64 {
		p := 0.0
		for _, b := range s.members() {
			p += byteProb(b)
		}
		return min(p, 1)
	}
	cost := func(off [vscan.Positions]int) float64 {
		c := 0.0
		for _, l := range lits {
			q := 1.0
			seen := [maxLitLen]bool{}
			for _, o := range off {
				if !seen[o] {
					seen[o] = true
					q *= prob(l[o])
				}
			}
			c += q
		}
		return c
	}
	var best [vscan.Positions]int
	switch {
	case n == 1:
		return best
	case n == 2:
		return [vscan.Positions]int{0, 1, 1}
	}
	bestCost := math.Inf(1)
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			for c := b + 1; c < n; c++ {
				off := [vscan.Positions]int{a, b, c}
				if k := cost(off); k < bestCost {
					best, bestCost = off, k
				}
			}
		}
	}
	return best
}

// bestTrio returns the Trio scan of l over its three least likely
// positions of at most two bytes each (repeating one when l has fewer),
// or nil when l has no such position.
func bestTrio(l lit) *vscan.Trio {
	var cand []int
	for i := range l {
		if l[i].count() <= 2 {
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 {
		return nil
	}
	prob := func(i int) float64 {
		p := 0.0
		for _, b := range l[i].members() {
			p += byteProb(b)
		}
		return p
	}
	// The three rarest positions (independent bytes: the product of their
	// probabilities is smallest).
	best := []int{}
	for len(best) < vscan.Positions && len(best) < len(cand) {
		bi := -1
		for _, i := range cand {
			if slices.Contains(best, i) {
				continue
			}
			if bi < 0 || prob(i) < prob(bi) {
				bi = i
			}
		}
		best = append(best, bi)
	}
	for len(best) < vscan.Positions {
		best = append(best, best[0])
	}
	var off [vscan.Positions]int
	var sets [vscan.Positions][]byte
	for k, i := range best {
		off[k], sets[k] = i, l[i].members()
	}
	return vscan.NewTrio(off, sets)
}

// byteProb turns byteFreq's rank into a rough probability of meeting the
// byte at a position of source text (space ~15 %, a rare capital ~0.1 %).
func byteProb(b byte) float64 {
	return 0.15 * math.Exp((float64(byteFreq[b])-255)/40)
}

// find returns the start of the first occurrence of any literal at or
// after from.
func (s *multiScan) find(buf []byte, from int) (int, bool) {
	if s.trio != nil {
		for {
			p := s.trio.Find(buf, from)
			if p < 0 {
				return 0, false
			}
			if verifyLit(s.lits[0], buf, p) {
				return p, true
			}
			from = p + 1
		}
	}
	for {
		p, bk := s.sc.Find(buf, from)
		if p < 0 {
			return 0, false
		}
		for bk != 0 {
			b := bits.TrailingZeros8(bk)
			bk &= bk - 1
			for _, i := range s.buckets[b] {
				if verifyLit(s.lits[i], buf, p) {
					return p, true
				}
			}
		}
		from = p + 1
	}
}

// verifyLit reports whether l occurs at buf[start:].
func verifyLit(l lit, buf []byte, start int) bool {
	if start+len(l) > len(buf) {
		return false
	}
	for i := range l {
		if !l[i].has(buf[start+i]) {
			return false
		}
	}
	return true
}
