package vscan

import "math/bits"

// Teddy finds candidate positions of a small set of literals with the
// nibble-mask technique of Hyperscan's Teddy: the literals are spread over
// at most eight buckets, and three byte positions (offsets) of every
// literal are looked up, 32 haystack positions at a time, in tables indexed
// by each byte's low and high nibble. A position whose three lookups share
// a bucket bit is a candidate; the caller verifies the literals of that
// bucket there.
//
// The nibble split makes the test approximate (a bucket holding several
// bytes at one offset also admits their nibble combinations), never
// exclusive: every real occurrence is reported.

// Positions is how many byte offsets of each literal the scan tests.
const Positions = 3

// Buckets is how many groups of literals one scan distinguishes.
const Buckets = 8

// The zero value matches nothing; build one with NewTeddy, then Add the
// bytes of each bucket.
type Teddy struct {
	// tables holds, for offset k, the low-nibble table at 2k and the
	// high-nibble table at 2k+1, each 16 entries repeated for both
	// 128-bit lanes (VPSHUFB looks up within a lane).
	tables [2 * Positions][32]byte
	off    [Positions]int
	span   int // largest offset + 1: a candidate p needs p+span <= len
}

// NewTeddy returns a Teddy testing the given offsets (each ≥ 0, any order;
// repeated offsets are allowed, for literals shorter than Positions).
func NewTeddy(off [Positions]int) *Teddy {
	s := &Teddy{off: off}
	for _, o := range off {
		if o < 0 {
			panic("vscan: negative offset")
		}
		s.span = max(s.span, o+1)
	}
	return s
}

// Add admits byte b at offset index k (0 ≤ k < Positions) for bucket
// (0 ≤ bucket < Buckets).
func (s *Teddy) Add(bucket, k int, b byte) {
	bit := byte(1) << bucket
	lo, hi := b&15, b>>4
	s.tables[2*k][lo] |= bit
	s.tables[2*k][16+lo] |= bit
	s.tables[2*k+1][hi] |= bit
	s.tables[2*k+1][16+hi] |= bit
}

// Span is the largest offset plus one.
func (s *Teddy) Span() int { return s.span }

// At returns the buckets whose bytes are present at position p (p+Span()
// must not exceed len(hay)).
func (s *Teddy) At(hay []byte, p int) uint8 {
	m := byte(0xff)
	for k, o := range s.off {
		b := hay[p+o]
		m &= s.tables[2*k][b&15] & s.tables[2*k+1][b>>4]
	}
	return m
}

// Find returns the first candidate position p ≥ from (with p+Span() ≤
// len(hay)) and its buckets, or -1 and 0 when there is none.
func (s *Teddy) Find(hay []byte, from int) (int, uint8) {
	if from < 0 {
		from = 0
	}
	last := len(hay) - s.span // the last position a literal may start at
	for from <= last {
		if haveSIMD && last-from >= 32 {
			p, mask := teddyScan(&s.tables, &s.off, &hay[from], last-from-32)
			if mask != 0 {
				q := from + p + bits.TrailingZeros32(mask)
				return q, s.At(hay, q)
			}
			from += p
		}
		// The tail (or the whole buffer without SIMD): one at a time.
		end := last
		if haveSIMD {
			end = min(last, from+31)
		}
		for ; from <= end; from++ {
			if b := s.At(hay, from); b != 0 {
				return from, b
			}
		}
	}
	return -1, 0
}
