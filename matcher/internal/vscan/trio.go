package vscan

import "math/bits"

// Trio finds candidate positions of one literal by three of its byte
// positions (offsets), each allowed one or two bytes (a letter and its
// other case): the vector form compares 32 positions at a time and runs at
// memory speed, where bytes.IndexByte on one byte stops every few hundred
// bytes on a letter of ordinary text. (ripgrep's memchr crate compares two
// positions the same way; a third keeps case-insensitive literals, whose
// positions each admit a common lower-case letter, from stopping often.)
type Trio struct {
	off   [Positions]int
	bytes [Positions][2]byte // per offset: the allowed bytes (repeated for one)
	span  int
}

// NewTrio returns a Trio testing, at each offset off[k], the one or two
// bytes of sets[k]. Offsets may repeat.
func NewTrio(off [Positions]int, sets [Positions][]byte) *Trio {
	t := &Trio{off: off}
	for k := range off {
		s := sets[k]
		if off[k] < 0 || len(s) < 1 || len(s) > 2 {
			panic("vscan: bad trio")
		}
		t.bytes[k] = [2]byte{s[0], s[len(s)-1]}
		t.span = max(t.span, off[k]+1)
	}
	return t
}

// Span is the largest offset plus one.
func (t *Trio) Span() int { return t.span }

func (t *Trio) at(hay []byte, q int) bool {
	for k, o := range t.off {
		if x := hay[q+o]; x != t.bytes[k][0] && x != t.bytes[k][1] {
			return false
		}
	}
	return true
}

// Find returns the first candidate position q ≥ from (with q+Span() ≤
// len(hay)), or -1.
func (t *Trio) Find(hay []byte, from int) int {
	if from < 0 {
		from = 0
	}
	last := len(hay) - t.span
	for from <= last {
		if haveSIMD && last-from >= 32 {
			ab := uint32(t.bytes[0][0]) | uint32(t.bytes[0][1])<<8 | uint32(t.bytes[1][0])<<16 | uint32(t.bytes[1][1])<<24
			c := uint32(t.bytes[2][0]) | uint32(t.bytes[2][1])<<8
			q, mask := trioScan(&hay[from], last-from-32, t.off[0], t.off[1], t.off[2], ab, c)
			if mask != 0 {
				return from + q + bits.TrailingZeros32(mask)
			}
			from += q
		}
		end := last
		if haveSIMD {
			end = min(last, from+31)
		}
		for ; from <= end; from++ {
			if t.at(hay, from) {
				return from
			}
		}
	}
	return -1
}
