package matcher

import (
	"bytes"
	"math/bits"
	"unicode/utf8"
)

// The prefilter finds candidate lines by literals that every match must
// contain. A literal is a sequence of byte sets (so "foo" under -i is
// [fF][oO][oO]); a required set is a small list of such literals, one of
// which occurs in every match. Buffers are scanned with bytes.IndexByte
// for the rarest byte position of each literal, then the literal is
// verified in place.

type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) count() int {
	return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) + bits.OnesCount64(s[2]) + bits.OnesCount64(s[3])
}
func single(b byte) (s byteSet) { s.add(b); return s }
func (s *byteSet) members() (out []byte) {
	for i := 0; i < 256; i++ {
		if s.has(byte(i)) {
			out = append(out, byte(i))
		}
	}
	return out
}

type lit []byteSet

// litInfo describes what an expression can match: exact lists every
// string it matches (nil when unknown or too many); req is a set one of
// whose members every match contains (nil when none is known).
type litInfo struct {
	exact []lit
	req   []lit
}

const maxLitLen = 64

func cross(a, b []lit) []lit {
	if len(a)*len(b) > maxLiteralVariants {
		return nil
	}
	out := make([]lit, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if len(x)+len(y) > maxLitLen {
				return nil
			}
			z := make(lit, 0, len(x)+len(y))
			z = append(z, x...)
			z = append(z, y...)
			out = append(out, z)
		}
	}
	return out
}

func hasEmpty(ls []lit) bool {
	for _, l := range ls {
		if len(l) == 0 {
			return true
		}
	}
	return false
}

func runeLit(r rune) lit {
	var buf [4]byte
	n := utf8.EncodeRune(buf[:], r)
	l := make(lit, n)
	for i := 0; i < n; i++ {
		l[i] = single(buf[i])
	}
	return l
}

func classLits(c *charClass) []lit {
	if len(c.r) == 0 {
		return nil // an empty class (it never matches): no literal to look for
	}
	if c.bytes || c.r[len(c.r)-1].hi < 0x80 {
		if c.size() > 64 {
			return nil
		}
		var s byteSet
		for _, r := range c.r {
			for x := r.lo; x <= r.hi; x++ {
				s.add(byte(x))
			}
		}
		return []lit{{s}}
	}
	if c.size() > maxClassExpand {
		return nil
	}
	var ascii byteSet
	var out []lit
	for _, r := range c.r {
		for x := r.lo; x <= r.hi; x++ {
			if x < 0x80 {
				ascii.add(byte(x))
			} else {
				out = append(out, runeLit(x))
			}
		}
	}
	if ascii.count() > 0 {
		out = append(out, lit{ascii})
	}
	return out
}

// better reports whether required set a is a better prefilter than b.
func better(a, b []lit) bool {
	if b == nil {
		return true
	}
	ca, cb := setCost(a), setCost(b)
	if ca != cb {
		return ca < cb
	}
	return minLen(a) > minLen(b)
}

func minLen(ls []lit) int {
	m := maxLitLen + 1
	for _, l := range ls {
		m = min(m, len(l))
	}
	return m
}

// setCost estimates how often the set's scan bytes occur; the length of
// each literal lowers the cost of verification failures.
func setCost(ls []lit) int {
	total := 0
	for _, l := range ls {
		_, c := scanPos(l)
		if c < 0 {
			return 1 << 30
		}
		total += c * 8 / (7 + min(len(l), 8))
	}
	return total
}

// scanPos picks the position of l with the rarest bytes; cost -1 when no
// position has few enough distinct bytes.
func scanPos(l lit) (int, int) {
	best, bestCost := -1, -1
	for i, s := range l {
		if s.count() > maxScanBytes {
			continue
		}
		c := 0
		for _, b := range s.members() {
			c += int(byteFreq[b]) + 1
		}
		if bestCost < 0 || c < bestCost {
			best, bestCost = i, c
		}
	}
	return best, bestCost
}

func extract(h *hir) litInfo {
	switch h.kind {
	case hEmpty, hAssert:
		return litInfo{exact: []lit{{}}}
	case hLit:
		if h.isByte {
			return litInfo{exact: []lit{{single(byte(h.r))}}}
		}
		return litInfo{exact: []lit{runeLit(h.r)}}
	case hClass:
		return litInfo{exact: classLits(h.cls)}
	case hCapture:
		return extract(h.subs[0])
	case hRepeat:
		sub := extract(h.subs[0])
		if h.max == 0 {
			return litInfo{exact: []lit{{}}}
		}
		var out litInfo
		if h.min == h.max && sub.exact != nil && h.min <= maxLitLen {
			e := []lit{{}}
			for i := 0; i < h.min && e != nil; i++ {
				e = cross(e, sub.exact)
			}
			out.exact = e
		}
		if h.min >= 1 {
			out.req = reqOf(sub)
		}
		return out
	case hConcat:
		var out litInfo
		exact := []lit{{}}
		var run []lit = []lit{{}}
		consider := func(c []lit) {
			if c != nil && !hasEmpty(c) && better(c, out.req) {
				out.req = c
			}
		}
		for _, s := range h.subs {
			si := extract(s)
			if exact != nil {
				if si.exact != nil {
					exact = cross(exact, si.exact)
				} else {
					exact = nil
				}
			}
			if si.exact != nil {
				next := cross(run, si.exact)
				if next == nil {
					consider(run)
					next = si.exact
				}
				run = next
			} else {
				consider(run)
				run = []lit{{}}
				consider(si.req)
			}
		}
		consider(run)
		out.exact = exact
		if exact != nil && !hasEmpty(exact) && better(exact, out.req) {
			out.req = exact
		}
		return out
	case hAlt:
		var exact, req []lit
		exactOK, reqOK := true, true
		for _, s := range h.subs {
			si := extract(s)
			if exactOK && si.exact != nil && len(exact)+len(si.exact) <= maxLiteralVariants {
				exact = append(exact, si.exact...)
			} else {
				exactOK = false
			}
			r := reqOf(si)
			if reqOK && r != nil && len(req)+len(r) <= maxLiteralVariants {
				req = append(req, r...)
			} else {
				reqOK = false
			}
		}
		var out litInfo
		if exactOK {
			out.exact = exact
		}
		if reqOK {
			out.req = req
		}
		return out
	}
	return litInfo{}
}

func reqOf(li litInfo) []lit {
	if li.exact != nil && !hasEmpty(li.exact) && better(li.exact, li.req) {
		return li.exact
	}
	return li.req
}

type litScan struct {
	l     lit
	pos   int    // scanned position within l
	bytes []byte // distinct bytes at that position
}

type prefilter struct {
	alts  []litScan
	multi *multiScan // all alternatives in one vectorised pass, when available
}

func buildPrefilter(h *hir) *prefilter {
	if canMatchEmpty(h) {
		return nil
	}
	req := reqOf(extract(h))
	if req == nil || hasEmpty(req) || setCost(req) >= 1<<30 {
		return nil
	}
	p := &prefilter{}
	for _, l := range req {
		pos, _ := scanPos(l)
		p.alts = append(p.alts, litScan{l: l, pos: pos, bytes: l[pos].members()})
	}
	p.multi = newMultiScan(req)
	return p
}

// prefilterWindow bounds how far ahead one alternative is scanned before
// the others get their turn: without it, a rare alternative is looked for
// through the whole rest of a big buffer on every call (quadratic on a
// 200 MB file with thousands of matches of the other alternatives).
const prefilterWindow = 256 << 10

// find returns the start of the first literal occurrence at or after from.
func (p *prefilter) find(buf []byte, from int) (int, bool) {
	if p.multi != nil {
		return p.multi.find(buf, from)
	}
	if len(p.alts) == 1 {
		return p.alts[0].find(buf, from, len(buf)+1)
	}
	for lo := from; lo <= len(buf); lo += prefilterWindow {
		hi := min(len(buf)+1, lo+prefilterWindow)
		best := hi
		for i := range p.alts {
			if q, ok := p.alts[i].find(buf, lo, best); ok && q < best {
				best = q
			}
		}
		if best < hi {
			return best, true
		}
	}
	return 0, false
}

// find looks for an occurrence of the literal starting in [from, limit).
//
// Each scan byte is looked for in a window that starts small and doubles
// while no byte hits, so that one call costs about the distance to the
// next hit, not the rest of the buffer: without it, a scan byte that never
// occurs (the 'A' of -i a) was searched for through the whole rest of a
// huge line on every call, quadratic in the line's occurrences.
func (a *litScan) find(buf []byte, from, limit int) (int, bool) {
	n := len(a.l)
	// next[i] is the next hit of scan byte i (or -1); upto[i] says that
	// there is none before it.
	var next, upto [maxScanBytes]int
	q := from + a.pos // first possible position of the scan byte
	for i := range a.bytes {
		next[i], upto[i] = -1, q
	}
	hi := min(limit+a.pos, len(buf)-(n-1-a.pos))
	w := litScanFirstWindow
	for q < hi {
		wend := min(hi, q+w)
		hit := -1
		for i, b := range a.bytes {
			if next[i] >= 0 && next[i] < q {
				next[i], upto[i] = -1, q
			}
			if next[i] < 0 && upto[i] < wend {
				lo := max(q, upto[i])
				if j := bytes.IndexByte(buf[lo:wend], b); j >= 0 {
					next[i] = lo + j
				} else {
					upto[i] = wend
				}
			}
			if next[i] >= 0 && (hit < 0 || next[i] < hit) {
				hit = next[i]
			}
		}
		if hit < 0 {
			q = wend
			w = min(2*w, litScanMaxWindow)
			continue
		}
		start := hit - a.pos
		if start >= from && a.verify(buf, start) {
			return start, true
		}
		q = hit + 1
	}
	return 0, false
}

func (a *litScan) verify(buf []byte, start int) bool {
	if start+len(a.l) > len(buf) {
		return false
	}
	for i := range a.l {
		if !a.l[i].has(buf[start+i]) {
			return false
		}
	}
	return true
}

// byteFreq ranks how common each byte is in source code and prose
// (higher is more common); the prefilter scans for the rarest.
var byteFreq = func() [256]uint8 {
	var f [256]uint8
	for i := 0x80; i < 256; i++ {
		f[i] = 20
	}
	for i := 0; i < 0x20; i++ {
		f[i] = 2
	}
	f['\t'] = 180
	f['\n'] = 200
	f['\r'] = 60
	ranks := []struct {
		s string
		v uint8
	}{
		{" ", 255},
		{"e", 250},
		{"t", 240},
		{"aoinsr", 232},
		{"lcdu", 218},
		{"hpm_", 205},
		{".()=;,", 195},
		{"fgb", 185},
		{"yw\"'/", 175},
		{"v-:*{}", 165},
		{"k01x[]", 150},
		{"2>SETCAIRN", 135},
		{"<&|!+3456789DLPOMF#", 120},
		{"BUHGWVq$@\\%", 100},
		{"zjKY?", 85},
		{"JQXZ`~^", 60},
	}
	for _, r := range ranks {
		for i := 0; i < len(r.s); i++ {
			f[r.s[i]] = r.v
		}
	}
	return f
}()

// LineScanner is a per-search view of a Matcher that remembers, for an
// alternation of literals, where each alternative next occurs in the
// current buffer, so that successive NextLine calls scan every byte of the
// buffer once per alternative instead of once per call. It is not safe for
// concurrent use: make one per searching goroutine.
type LineScanner struct {
	m    *Matcher
	base *byte // identity of the buffer the cache is for
	size int
	next []int // per alternative: next occurrence at or after mark, or len(buf)+1
	mark []int // per alternative: the from of the scan that produced next
	// The fast matcher's next line in CRLF context mode (context.go),
	// found from fastMark (-1: none cached).
	fastS, fastE, fastMark int
	fastOK                 bool
}

// NewLineScanner returns a LineScanner for m.
func (m *Matcher) NewLineScanner() *LineScanner {
	s := &LineScanner{m: m, fastMark: -1}
	if m.pre != nil {
		s.next = make([]int, len(m.pre.alts))
		s.mark = make([]int, len(m.pre.alts))
	}
	return s
}

// NextLine is Matcher.NextLine with the per-alternative cache.
func (s *LineScanner) NextLine(buf []byte, from int) (int, int, bool) {
	m := s.m
	if m.fast != nil && len(buf) > 0 && from >= 0 {
		// The fast matcher's line stays the first at or after from
		// while from does not pass it.
		if &buf[0] != s.base || len(buf) != s.size {
			s.base, s.size, s.fastMark = &buf[0], len(buf), -1
		}
		return m.crlfNextLine(buf, from, func(from int) (int, int, bool) {
			if s.fastMark < 0 || s.fastMark > from || s.fastOK && s.fastS < from {
				s.fastS, s.fastE, s.fastOK = m.fast.NextLine(buf, from)
				s.fastMark = from
			}
			return s.fastS, s.fastE, s.fastOK
		})
	}
	if m.none || m.nulAnchors || m.exact != nil || m.plain != nil || m.pre == nil || m.pre.multi != nil || len(m.pre.alts) < 2 || len(buf) == 0 || from < 0 {
		return m.NextLine(buf, from)
	}
	if &buf[0] != s.base || len(buf) != s.size {
		s.base, s.size = &buf[0], len(buf)
		for i := range s.next {
			s.next[i], s.mark[i] = -1, -1
		}
	}
	for from < len(buf) {
		best := len(buf) + 1
		for i := range m.pre.alts {
			// A cached occurrence stays valid while the caller moves
			// forward: it was the first at or after mark <= from.
			if s.next[i] < from || s.mark[i] < 0 || s.mark[i] > from {
				q, ok := m.pre.alts[i].find(buf, from, len(buf)+1)
				if !ok {
					q = len(buf) + 1
				}
				s.next[i], s.mark[i] = q, from
			}
			best = min(best, s.next[i])
		}
		if best > len(buf) {
			return 0, 0, false
		}
		ls := from
		if i := bytes.LastIndexByte(buf[from:best], m.term); i >= 0 {
			ls = from + i + 1
		}
		le := lineEnd(buf, ls, m.term)
		if m.IsMatch(buf[ls:le]) {
			return ls, advance(buf, le), true
		}
		from = advance(buf, le)
	}
	return 0, 0, false
}

// Reset forgets the cached positions; call it whenever the buffer's
// content changes (a refilled read buffer may keep its address and length).
func (s *LineScanner) Reset() { s.base, s.size, s.fastMark = nil, 0, -1 }
