package matcher

import (
	"bytes"
	"unicode/utf8"
)

// firstBytes returns the set of bytes a match of h can start with (ok is
// false when h can match the empty string, so no byte is required).
func firstBytes(h *hir) (set byteSet, ok bool) {
	switch h.kind {
	case hLit:
		if h.isByte {
			return single(byte(h.r)), true
		}
		var buf [utf8.UTFMax]byte
		utf8.EncodeRune(buf[:], h.r)
		return single(buf[0]), true
	case hClass:
		for _, r := range h.cls.r {
			addLeadBytes(&set, r.lo, r.hi, h.cls.bytes)
		}
		return set, set.count() > 0
	case hCapture:
		return firstBytes(h.subs[0])
	case hRepeat:
		fs, sok := firstBytes(h.subs[0])
		// With min 0 the repeat may be skipped: its bytes still start
		// matches, but so may whatever follows.
		return fs, sok && h.min > 0
	case hConcat:
		for _, s := range h.subs {
			fs, sok := firstBytes(s)
			set.union(&fs)
			if sok {
				return set, true
			}
			if !canMatchEmpty(s) {
				return set, false
			}
		}
		return set, false
	case hAlt:
		all := len(h.subs) > 0
		for _, s := range h.subs {
			fs, sok := firstBytes(s)
			set.union(&fs)
			all = all && sok
		}
		return set, all
	}
	return set, false
}

// addLeadBytes adds the first UTF-8 bytes of the runes lo..hi (or the
// bytes themselves for a byte class).
func addLeadBytes(set *byteSet, lo, hi rune, isBytes bool) {
	if isBytes || hi < utf8.RuneSelf {
		for c := lo; c <= hi && c <= 0xff; c++ {
			set.add(byte(c))
		}
		return
	}
	if lo < utf8.RuneSelf {
		for c := lo; c < utf8.RuneSelf; c++ {
			set.add(byte(c))
		}
		lo = utf8.RuneSelf
	}
	// Lead bytes are monotonic in the rune: walk the range by lead byte.
	var buf [utf8.UTFMax]byte
	for lo <= hi {
		n := utf8.EncodeRune(buf[:], lo)
		set.add(buf[0])
		// The last rune with the same lead byte.
		var next rune
		switch n {
		case 2:
			next = (lo | 0x3f) + 1
		case 3:
			next = (lo | 0xfff) + 1
		default:
			next = (lo | 0x3ffff) + 1
		}
		if next <= lo {
			break
		}
		lo = next
	}
}

// union adds o to s.
func (s *byteSet) union(o *byteSet) {
	for i := range s {
		s[i] |= o[i]
	}
}

// firstScan finds candidate match starts by their first byte, for patterns
// without a required literal whose possible first bytes are few and rare
// (a Unicode class such as \p{Greek} starts with a handful of non-ASCII
// lead bytes).
type firstScan struct {
	bytes []byte
}

// maxFirstBytes and maxFirstCost bound when a first-byte scan pays off.
const (
	maxFirstBytes = 8
	maxFirstCost  = 200 // summed byteFreq of the scan bytes
)

func buildFirstScan(h *hir) *firstScan {
	set, ok := firstBytes(h)
	if !ok || set.count() == 0 || set.count() > maxFirstBytes {
		return nil
	}
	cost := 0
	for _, b := range set.members() {
		cost += int(byteFreq[b])
	}
	if cost > maxFirstCost {
		return nil
	}
	return &firstScan{bytes: set.members()}
}

// find returns the first position at or after from holding a scan byte.
func (f *firstScan) find(buf []byte, from int) (int, bool) {
	best := -1
	hi := len(buf)
	for _, b := range f.bytes {
		if j := bytes.IndexByte(buf[from:hi], b); j >= 0 {
			best = from + j
			hi = best // later bytes only need to beat this one
		}
	}
	return best, best >= 0
}
