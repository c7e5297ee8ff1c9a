package matcher

import (
	"slices"
	"strconv"
	"unicode/utf8"
)

// rg 15 rejects a pattern whose compiled program is too big with
// "compiled regex exceeds size limit of N" (--regex-size-limit, 100 MiB by
// default). Its regex engine counts the memory of the Thompson NFA while
// building it: 32 bytes per state, plus 8 bytes per transition of a
// multi-transition state and 4 per alternative of a union, and it builds
// two NFAs, the forward one (with capture states) and a reverse one
// (without), each under the limit. Large Unicode classes dominate: the
// forward NFA compiles them into a near-minimal UTF-8 automaton, the
// reverse one into a larger automaton that only shares suffixes, and both
// compressions go through small hash-indexed caches whose collisions
// depend on state numbers. nfaCount replays that construction over the HIR
// (state numbering and caches included) without building anything, so
// that the patterns on either side of the limit are the ones rg answers
// for, and stops as soon as the limit is passed.

// Memory units of rg's NFA builder (64-bit).
const (
	nfaStateBytes = 32 // one builder state
	nfaTransBytes = 8  // one transition of a sparse state
	nfaAltBytes   = 4  // one alternative of a union
)

// Sizes of rg's UTF-8 compression caches (entries).
const (
	utf8MapCap    = 10000
	utf8SuffixCap = 1000
)

// rgLiteralAltMin is the number of alternatives from which rg searches an
// alternation of plain literals with Aho-Corasick and builds no NFA.
const rgLiteralAltMin = 3000

// errSizeLimit is rg 15's error for a program over the limit.
func errSizeLimit(limit int) error {
	return &Error{text: "compiled regex exceeds size limit of " + strconv.Itoa(limit)}
}

// checkRgSize returns errSizeLimit when rg 15 would reject h (the pattern
// after flags; word adds -w's two half word boundaries) under limit, and
// otherwise the number of non-epsilon states of its reverse NFA: about the
// number of instructions of h's RE2 program, which compiles classes into
// the same suffix-sharing chains.
func checkRgSize(h *hir, word bool, limit int) (int, error) {
	if !word && isLiteralAlt(h, rgLiteralAltMin) {
		// rg builds no NFA, so there is no limit; the count still tells
		// whether RE2 may have the pattern.
		z := nfaCount(h, false, true, 1<<62)
		return z.re2Insts(), nil
	}
	// The reverse NFA is the larger for Unicode classes: it fails first.
	z := nfaCount(h, word, true, limit)
	if z.over {
		return 0, errSizeLimit(limit)
	}
	if nfaCount(h, word, false, limit).over {
		return 0, errSizeLimit(limit)
	}
	return z.re2Insts(), nil
}

// nfaCount replays the construction of h's forward (or reverse) NFA,
// counting until limit is passed.
func nfaCount(h *hir, word, reverse bool, limit int) *nfaSizer {
	z := &nfaSizer{limit: limit, reverse: reverse}
	z.top(h, word)
	return z
}

type nfaRef struct{ start, end int }

type utf8Trans struct {
	lo, hi byte
	next   int
}

type utf8Node struct {
	trans   []utf8Trans
	hasLast bool
	lastLo  byte
	lastHi  byte
}

type utf8MapEntry struct {
	version int
	key     []utf8Trans
	val     int
}

type suffixEntry struct {
	version int
	from    int
	lo, hi  rune
	val     int
}

type nfaSizer struct {
	limit    int
	reverse  bool
	over     bool
	states   int      // states added so far (the next state's number)
	epsilons int      // how many of them are epsilon states
	heap     int      // heap bytes of sparse and union states
	union    []uint64 // bit set: which states are unions

	mapVersion int
	fwdMap     []utf8MapEntry
	uncompiled []utf8Node
	sufVersion int
	sufMap     []suffixEntry
	seqs       map[*rng][][]rng // UTF-8 sequences of a class, by its ranges
	classes    map[*rng][]rng   // rgClassRanges answers, by a class's ranges
}

// sequences returns the UTF-8 sequences of ranges (computed once per
// class: a repetition compiles the same class many times).
func (z *nfaSizer) sequences(ranges []rng) [][]rng {
	key := &ranges[0]
	if s, ok := z.seqs[key]; ok {
		return s
	}
	var out [][]rng
	for _, r := range ranges {
		utf8Sequences(r.lo, r.hi, func(seq []rng) { out = append(out, slices.Clone(seq)) })
	}
	if z.seqs == nil {
		z.seqs = map[*rng][][]rng{}
	}
	z.seqs[key] = out
	return out
}

func (z *nfaSizer) usage() int { return z.states*nfaStateBytes + z.heap }

func (z *nfaSizer) check() {
	if z.usage() > z.limit {
		z.over = true
	}
}

// add adds a state with heap bytes; it returns the state's number.
func (z *nfaSizer) add(heap int) int {
	id := z.states
	z.states++
	z.heap += heap
	z.check()
	return id
}

func (z *nfaSizer) addUnion() int {
	id := z.add(0)
	w := id / 64
	for len(z.union) <= w {
		z.union = append(z.union, 0)
	}
	z.union[w] |= 1 << (id % 64)
	return id
}

// patch links from to a next state: only a union grows.
func (z *nfaSizer) patch(from int) {
	if w := from / 64; w < len(z.union) && z.union[w]&(1<<(from%64)) != 0 {
		z.heap += nfaAltBytes
		z.check()
	}
}

// empty adds an epsilon state (RE2 has no instruction for it).
func (z *nfaSizer) empty() nfaRef {
	id := z.eps()
	return nfaRef{id, id}
}

// state adds a state without heap memory that RE2 also has (a byte
// range, an assertion, a fail state).
func (z *nfaSizer) state() nfaRef {
	id := z.add(0)
	return nfaRef{id, id}
}

// eps adds an epsilon state and counts it.
func (z *nfaSizer) eps() int {
	z.epsilons++
	return z.add(0)
}

// re2Insts estimates the instructions of the pattern's RE2 program: the
// states less the epsilon ones.
func (z *nfaSizer) re2Insts() int { return z.states - z.epsilons }

func (z *nfaSizer) top(h *hir, word bool) {
	var pre nfaRef
	if anchoredAt(h, z.reverse) {
		pre = z.empty()
	} else {
		// (?s-u:.)*? before the pattern.
		u := z.addUnion()
		end := z.eps()
		z.add(nfaTransBytes)
		z.patch(u)
		z.patch(end)
		pre = nfaRef{u, u}
	}
	var one nfaRef
	body := func() nfaRef {
		if !word {
			return z.c(h)
		}
		// \b{start-half}(?:pat)\b{end-half}
		return z.concat(3, func(i int) nfaRef {
			if i == 1 {
				return z.c(h)
			}
			return z.state()
		})
	}
	if z.reverse {
		one = body()
	} else {
		s := z.add(0)
		inner := body()
		e := z.add(0)
		z.patch(s)
		z.patch(inner.end)
		one = nfaRef{s, e}
	}
	z.add(0) // match
	z.patch(one.end)
	z.patch(pre.end)
}

// anchoredAt reports whether every match starts with \A (forward) or
// ends with \z (reverse), so that rg adds no unanchored prefix.
func anchoredAt(h *hir, reverse bool) bool {
	switch h.kind {
	case hAssert:
		if reverse {
			return h.assert == assertEndText
		}
		return h.assert == assertStartText
	case hCapture:
		return anchoredAt(h.subs[0], reverse)
	case hConcat:
		subs := nfaConcatSubs(h.subs)
		if len(subs) == 0 {
			return false
		}
		if reverse {
			return anchoredAt(subs[len(subs)-1], reverse)
		}
		return anchoredAt(subs[0], reverse)
	case hAlt:
		for _, s := range h.subs {
			if !anchoredAt(s, reverse) {
				return false
			}
		}
		return len(h.subs) > 0
	case hRepeat:
		return h.min > 0 && anchoredAt(h.subs[0], reverse)
	}
	return false
}

func nfaConcatSubs(subs []*hir) []*hir {
	out := make([]*hir, 0, len(subs))
	for _, s := range subs {
		switch s.kind {
		case hEmpty:
			continue
		case hConcat:
			out = append(out, nfaConcatSubs(s.subs)...)
			continue
		}
		out = append(out, s)
	}
	return out
}

func (z *nfaSizer) c(h *hir) nfaRef {
	if z.over {
		return nfaRef{}
	}
	switch h.kind {
	case hEmpty:
		return z.empty()
	case hLit:
		if h.isByte || h.r < utf8.RuneSelf {
			return z.state() // one byte-range state
		}
		return z.bytesChain(utf8.RuneLen(h.r))
	case hClass:
		return z.class(h.cls)
	case hAssert:
		return z.state()
	case hCapture:
		if z.reverse {
			return z.c(h.subs[0])
		}
		s := z.add(0)
		inner := z.c(h.subs[0])
		e := z.add(0)
		z.patch(s)
		z.patch(inner.end)
		return nfaRef{s, e}
	case hConcat:
		subs := nfaConcatSubs(h.subs)
		switch len(subs) {
		case 0:
			return z.empty()
		case 1:
			return z.c(subs[0])
		}
		return z.concat(len(subs), func(i int) nfaRef { return z.c(subs[i]) })
	case hAlt:
		return z.alt(h.subs)
	case hRepeat:
		return z.repeat(h)
	}
	return z.empty()
}

// bytesChain compiles n consecutive byte-range states.
func (z *nfaSizer) bytesChain(n int) nfaRef {
	return z.concat(n, func(int) nfaRef { return z.state() })
}

// concat compiles n pieces in order (last first in reverse).
func (z *nfaSizer) concat(n int, piece func(i int) nfaRef) nfaRef {
	if n == 0 {
		return z.empty()
	}
	idx := func(k int) int {
		if z.reverse {
			return n - 1 - k
		}
		return k
	}
	first := piece(idx(0))
	end := first.end
	for k := 1; k < n && !z.over; k++ {
		next := piece(idx(k))
		z.patch(end)
		end = next.end
	}
	return nfaRef{first.start, end}
}

func (z *nfaSizer) alt(subs []*hir) nfaRef {
	var flat []*hir
	var walk func([]*hir)
	walk = func(ss []*hir) {
		for _, s := range ss {
			if s.kind == hAlt {
				walk(s.subs)
			} else {
				flat = append(flat, s)
			}
		}
	}
	walk(subs)
	if len(flat) == 0 {
		return z.state() // a fail state
	}
	if len(flat) == 1 {
		return z.c(flat[0])
	}
	if cls, ok := singleCharsClass(flat); ok {
		return z.class(cls)
	}
	if lits, ok := altLiterals(flat); ok {
		return z.literalTrie(lits)
	}
	// rg compiles the first two alternatives before it adds the union.
	first := z.c(flat[0])
	second := z.c(flat[1])
	u := z.addUnion()
	end := z.eps()
	for i, s := range flat {
		if z.over {
			break
		}
		r := first
		switch i {
		case 0:
		case 1:
			r = second
		default:
			r = z.c(s)
		}
		z.patch(u)
		z.patch(r.end)
	}
	return nfaRef{u, end}
}

// singleCharsClass merges an alternation of single characters and classes
// of one kind into one class, as rg's HIR does.
func singleCharsClass(subs []*hir) (*charClass, bool) {
	out := &charClass{}
	for i, s := range subs {
		var c *charClass
		switch s.kind {
		case hLit:
			c = &charClass{bytes: s.isByte, r: []rng{{s.r, s.r}}}
		case hClass:
			c = s.cls
		default:
			return nil, false
		}
		if i == 0 {
			out.bytes = c.bytes
		} else if c.bytes != out.bytes {
			return nil, false
		}
		out.r = append(out.r, c.r...)
	}
	out.canon()
	return out, true
}

// literalString returns the bytes of h when h is a literal string.
func literalString(h *hir) ([]byte, bool) {
	switch h.kind {
	case hLit:
		if h.isByte {
			return []byte{byte(h.r)}, true
		}
		return utf8.AppendRune(nil, h.r), true
	case hConcat:
		var out []byte
		for _, s := range h.subs {
			b, ok := literalString(s)
			if !ok {
				return nil, false
			}
			out = append(out, b...)
		}
		return out, len(out) > 0
	}
	return nil, false
}

func altLiterals(subs []*hir) ([][]byte, bool) {
	out := make([][]byte, 0, len(subs))
	for _, s := range subs {
		b, ok := literalString(s)
		if !ok {
			return nil, false
		}
		out = append(out, b)
	}
	return out, true
}

// isLiteralAlt reports whether h is an alternation of at least n plain
// literals (no groups, no assertions).
func isLiteralAlt(h *hir, n int) bool {
	if h.kind != hAlt || len(h.subs) < n {
		return false
	}
	_, ok := altLiterals(h.subs)
	return ok
}

// literalTrie estimates rg's trie of an alternation of literals: one
// byte-range state per trie edge, a union per branching node.
func (z *nfaSizer) literalTrie(lits [][]byte) nfaRef {
	sorted := slices.Clone(lits)
	slices.SortFunc(sorted, func(a, b []byte) int { return slices.Compare(a, b) })
	start := z.addUnion()
	end := z.eps()
	var prev []byte
	for _, l := range sorted {
		if z.over {
			break
		}
		common := 0
		for common < len(prev) && common < len(l) && prev[common] == l[common] {
			common++
		}
		if common == len(l) && len(prev) == len(l) {
			continue
		}
		if common > 0 && common <= len(prev) {
			u := z.addUnion()
			z.patch(u)
		}
		for i := common; i < len(l) && !z.over; i++ {
			z.add(0)
		}
		z.patch(start)
		prev = l
	}
	return nfaRef{start, end}
}

func (z *nfaSizer) repeat(h *hir) nfaRef {
	sub := h.subs[0]
	min, max := h.min, h.max
	switch {
	case min == 0 && max == 0:
		return z.empty()
	case min == 1 && max == 1:
		return z.c(sub)
	case min == 0 && max == 1:
		u := z.addUnion()
		r := z.c(sub)
		e := z.eps()
		z.patch(u)
		z.patch(u)
		z.patch(r.end)
		return nfaRef{u, e}
	case max < 0:
		return z.atLeast(sub, min)
	case min == max:
		return z.exactly(sub, min)
	}
	prefix := z.exactly(sub, min)
	e := z.eps()
	prevEnd := prefix.end
	for i := min; i < max && !z.over; i++ {
		u := z.addUnion()
		r := z.c(sub)
		z.patch(prevEnd)
		z.patch(u)
		z.patch(u)
		prevEnd = r.end
	}
	z.patch(prevEnd)
	return nfaRef{prefix.start, e}
}

func (z *nfaSizer) exactly(sub *hir, n int) nfaRef {
	return z.concat(n, func(int) nfaRef { return z.c(sub) })
}

func (z *nfaSizer) atLeast(sub *hir, n int) nfaRef {
	switch n {
	case 0:
		if !canMatchEmpty(sub) {
			u := z.addUnion()
			r := z.c(sub)
			z.patch(u)
			z.patch(r.end)
			return nfaRef{u, u}
		}
		r := z.c(sub)
		plus := z.addUnion()
		z.patch(r.end)
		z.patch(plus)
		q := z.addUnion()
		e := z.eps()
		z.patch(q)
		z.patch(q)
		z.patch(plus)
		return nfaRef{q, e}
	case 1:
		r := z.c(sub)
		u := z.addUnion()
		z.patch(r.end)
		z.patch(u)
		return nfaRef{r.start, u}
	}
	prefix := z.exactly(sub, n-1)
	last := z.c(sub)
	u := z.addUnion()
	z.patch(prefix.end)
	z.patch(last.end)
	z.patch(u)
	return nfaRef{prefix.start, u}
}

// class compiles a character class as rg's compiler does.
func (z *nfaSizer) class(c *charClass) nfaRef {
	ranges := z.rgClassRanges(c)
	if len(ranges) == 1 && ranges[0].lo == ranges[0].hi {
		if c.bytes || ranges[0].lo < utf8.RuneSelf {
			return z.state()
		}
		return z.bytesChain(utf8.RuneLen(ranges[0].lo))
	}
	if c.bytes || len(ranges) == 0 || ranges[len(ranges)-1].hi < utf8.RuneSelf {
		end := z.eps()
		s := z.add(nfaTransBytes * len(ranges))
		return nfaRef{s, end}
	}
	if z.reverse {
		return z.classReverse(ranges)
	}
	return z.classForward(ranges)
}

// classForward replays the forward UTF-8 compiler (Daciuk's algorithm
// over the sorted UTF-8 sequences, with a bounded cache of states).
func (z *nfaSizer) classForward(ranges []rng) nfaRef {
	target := z.eps()
	z.mapVersion++
	if z.fwdMap == nil {
		z.fwdMap = make([]utf8MapEntry, utf8MapCap)
	}
	z.uncompiled = append(z.uncompiled[:0], utf8Node{})
	for _, seq := range z.sequences(ranges) {
		if z.over {
			break
		}
		{
			p := 0
			for p < len(seq) && p < len(z.uncompiled) {
				n := &z.uncompiled[p]
				if !n.hasLast || n.lastLo != byte(seq[p].lo) || n.lastHi != byte(seq[p].hi) {
					break
				}
				p++
			}
			z.compileFrom(p, target)
			last := &z.uncompiled[len(z.uncompiled)-1]
			last.hasLast, last.lastLo, last.lastHi = true, byte(seq[p].lo), byte(seq[p].hi)
			for _, b := range seq[p+1:] {
				z.uncompiled = append(z.uncompiled, utf8Node{hasLast: true, lastLo: byte(b.lo), lastHi: byte(b.hi)})
			}
		}
	}
	z.compileFrom(0, target)
	root := z.uncompiled[0].trans
	z.uncompiled = z.uncompiled[:0]
	start := z.compileNode(root)
	return nfaRef{start, target}
}

func (z *nfaSizer) compileFrom(from, target int) {
	next := target
	for from+1 < len(z.uncompiled) {
		n := z.uncompiled[len(z.uncompiled)-1]
		z.uncompiled = z.uncompiled[:len(z.uncompiled)-1]
		next = z.compileNode(freeze(n, next))
	}
	top := &z.uncompiled[len(z.uncompiled)-1]
	top.trans = freeze(*top, next)
	top.hasLast = false
}

func freeze(n utf8Node, next int) []utf8Trans {
	if n.hasLast {
		return append(n.trans, utf8Trans{n.lastLo, n.lastHi, next})
	}
	return n.trans
}

const (
	fnvInit  uint64 = 14695981039346656037
	fnvPrime uint64 = 1099511628211
)

func (z *nfaSizer) compileNode(trans []utf8Trans) int {
	h := fnvInit
	for _, t := range trans {
		h = (h ^ uint64(t.lo)) * fnvPrime
		h = (h ^ uint64(t.hi)) * fnvPrime
		h = (h ^ uint64(t.next)) * fnvPrime
	}
	e := &z.fwdMap[h%utf8MapCap]
	if e.version == z.mapVersion && slices.Equal(e.key, trans) {
		return e.val
	}
	id := z.add(nfaTransBytes * len(trans))
	*e = utf8MapEntry{version: z.mapVersion, key: slices.Clone(trans), val: id}
	return id
}

// classReverse replays the reverse UTF-8 compilation: one chain of
// byte-range states per UTF-8 sequence, sharing suffixes through a small
// cache, all joined by a union.
func (z *nfaSizer) classReverse(ranges []rng) nfaRef {
	z.sufVersion++
	if z.sufMap == nil {
		z.sufMap = make([]suffixEntry, utf8SuffixCap)
	}
	u := z.addUnion()
	altEnd := z.eps()
	for _, seq := range z.sequences(ranges) {
		if z.over {
			break
		}
		{
			end := altEnd
			for _, b := range seq {
				h := fnvInit
				h = (h ^ uint64(end)) * fnvPrime
				h = (h ^ uint64(b.lo)) * fnvPrime
				h = (h ^ uint64(b.hi)) * fnvPrime
				e := &z.sufMap[h%utf8SuffixCap]
				if e.version == z.sufVersion && e.from == end && e.lo == b.lo && e.hi == b.hi {
					end = e.val
					continue
				}
				id := z.add(0)
				*e = suffixEntry{version: z.sufVersion, from: end, lo: b.lo, hi: b.hi, val: id}
				end = id
			}
			z.patch(u)
		}
	}
	return nfaRef{u, altEnd}
}

// rgClassRanges returns c's ranges as rg 15 has them. Its Unicode tables
// are version 16, Go's 15; the two classes whose size decides the limit
// for common patterns (\w{N}, \d{N}, [\w-]{N}) are swapped for rg's own
// wherever c contains all of Go's.
func (z *nfaSizer) rgClassRanges(c *charClass) []rng {
	if c.bytes || len(c.r) == 0 {
		return c.r
	}
	key := &c.r[0]
	if r, ok := z.classes[key]; ok {
		return r
	}
	out := c
	for _, t := range []struct {
		goTable *charClass
		rg      []rng
	}{{uniWordClass(), word16}, {uniDigitClass(), digit16}} {
		if covers(out, t.goTable) {
			d := out.clone()
			d.difference(t.goTable)
			d.union(&charClass{r: t.rg})
			out = d
		}
	}
	if z.classes == nil {
		z.classes = map[*rng][]rng{}
	}
	z.classes[key] = out.r
	return out.r
}

// covers reports whether every code point of b is in a.
func covers(a, b *charClass) bool {
	i := 0
	for _, r := range b.r {
		for i < len(a.r) && a.r[i].hi < r.lo {
			i++
		}
		if i == len(a.r) || a.r[i].lo > r.lo || a.r[i].hi < r.hi {
			return false
		}
	}
	return true
}
