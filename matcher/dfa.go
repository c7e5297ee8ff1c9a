package matcher

import (
	"bytes"
	"encoding/binary"
	"sync/atomic"
)

// A lazy DFA over the VM's byte program, for one question: where does the
// first match in a text end? That is what "which line matches first" and
// "does this line match" need. It is built state by state while it runs
// (each state is the set of program positions alive after the bytes read,
// with the unanchored start always added), so only the states the text
// visits exist; its memory is bounded per cache (dfaCacheLimit) and the
// cache starts over when full.
//
// It answers for programs whose only assertions are the line anchors ^
// and $ (with '\n' as the line terminator and no CRLF mode); others keep
// RE2 and the VM. An empty match ends where it starts: at the text's
// start when the start state holds a match (startMatch), else where the
// unanchored start added after a byte reaches one. On those
// programs it is exact: it runs the same edges and the same anchor rules
// as the VM (^ at the start or after '\n', $ at the end or before '\n'),
// so invalid UTF-8 and raw bytes are treated alike. A state knows whether
// its position is a line start; a $ stays pending in the state until the
// next byte (or the end of the text) decides it.

// dfaProg is the immutable part, shared by every goroutine.
type dfaProg struct {
	p       *prog
	classes [256]byte // byte → equivalence class
	reps    []byte    // a representative byte of each class
	anchors bool      // the program has ^ or $
	// failed is set once a cache kept filling up without progress: the
	// caller's other engines answer from then on.
	failed atomic.Bool
	// free holds idle caches; each goroutine takes one for a search.
	free chan *dfaCache
	// limit is the cache's memory bound (dfaCacheLimit; tests lower it).
	limit int
}

// dfaCache is one goroutine's states and transitions.
type dfaCache struct {
	d *dfaProg
	// stride is the row length: one column per byte class and a last one
	// for the end of the text.
	stride int
	eoi    byte // the end-of-text column
	// trans[s+c] is the transition of the state whose row starts at s on
	// class c: 0 not computed yet, > 0 the next state's row, dfaMatch a
	// match ending after the byte, dfaMatchBefore one ending before it
	// (through a $), dfaNoMatch at the end of the text without one.
	trans     []int32
	sets      [][]int32 // per state (row/stride): its sorted program positions
	lineStart []bool    // per state: its position is a line start
	index     map[string]int32
	start     int32 // the start state's row
	// startMatch: the start state holds a match (an empty one at the
	// start of the text, which is a line start).
	startMatch bool
	used       int // bytes accounted to the cache
	// scratch for closures
	seen  []uint32
	gen   uint32
	stack []int32
	cur   []int32
	next  []int32
	key   []byte
	// progress since the last reset, to detect thrashing
	sinceReset int
	resets     int
}

const (
	dfaMatch       = -1
	dfaMatchBefore = -2
	dfaNoMatch     = -3
)

// newDFA returns the DFA of p, or nil when p has assertions it does not
// handle. lineAnchors allows ^ and $ (the caller's text uses '\n' as its
// line terminator, without CRLF).
func newDFA(p *prog, lineAnchors bool) *dfaProg {
	var bounds [257]bool
	anchors := false
	for i := range p.insts {
		in := &p.insts[i]
		switch in.op {
		case opAssert:
			if !lineAnchors || (in.assert != assertStartLine && in.assert != assertEndLine) {
				return nil
			}
			anchors = true
		case opBytes:
			for _, e := range in.edges {
				bounds[e.lo] = true
				bounds[int(e.hi)+1] = true
			}
		}
	}
	if anchors {
		// '\n' decides the anchors: a class of its own.
		bounds['\n'], bounds['\n'+1] = true, true
	}
	d := &dfaProg{p: p, free: make(chan *dfaCache, dfaFreeCaches), limit: dfaCacheLimit, anchors: anchors}
	cls := -1
	for b := 0; b < 256; b++ {
		if b == 0 || bounds[b] {
			cls++
			d.reps = append(d.reps, byte(b))
		}
		d.classes[b] = byte(cls)
	}
	return d
}

// get takes an idle cache or makes one.
func (d *dfaProg) get() *dfaCache {
	select {
	case c := <-d.free:
		return c
	default:
	}
	c := &dfaCache{d: d, stride: len(d.reps) + 1, eoi: byte(len(d.reps)), seen: make([]uint32, len(d.p.insts))}
	c.reset()
	return c
}

func (d *dfaProg) put(c *dfaCache) {
	select {
	case d.free <- c:
	default:
	}
}

// reset drops every state but the start state.
func (c *dfaCache) reset() {
	c.trans = c.trans[:0]
	c.sets = c.sets[:0]
	c.lineStart = c.lineStart[:0]
	c.index = make(map[string]int32)
	c.used = 0
	c.sinceReset = 0
	// Row 0 is never a state, so that 0 can mean "not computed".
	c.trans = append(c.trans, make([]int32, c.stride)...)
	c.sets = append(c.sets, nil)
	c.lineStart = append(c.lineStart, false)
	c.next = c.next[:0]
	c.gen++
	c.startMatch = c.closure(&c.next, c.d.p.start, true, false)
	set := sortSet(c.next)
	c.start, _ = c.add(set, c.d.anchors, true)
}

// closure adds the positions reachable from pc without reading a byte to
// *dst (opBytes; opMatch is reported), marking them in c.seen under
// c.gen; ^ is passed when lineStart, $ when lineEnd, else $ stays in *dst
// as a pending position. It reports whether a match was reached.
func (c *dfaCache) closure(dst *[]int32, pc int32, lineStart, lineEnd bool) bool {
	insts := c.d.p.insts
	matched := false
	stk := append(c.stack[:0], pc)
	for len(stk) > 0 {
		pc := stk[len(stk)-1]
		stk = stk[:len(stk)-1]
		if pc < 0 || c.seen[pc] == c.gen {
			continue
		}
		c.seen[pc] = c.gen
		in := &insts[pc]
		switch in.op {
		case opSplit:
			stk = append(stk, in.out1, in.out)
		case opSave:
			stk = append(stk, in.out)
		case opBytes:
			*dst = append(*dst, pc)
		case opAssert:
			if in.assert == assertStartLine {
				if lineStart {
					stk = append(stk, in.out)
				}
			} else if lineEnd {
				stk = append(stk, in.out)
			} else {
				*dst = append(*dst, pc) // $: pending
			}
		case opMatch:
			matched = true
		}
	}
	c.stack = stk
	return matched
}

// sortSet sorts a (small) set of positions in place.
func sortSet(s []int32) []int32 {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

// add returns the row of the state with positions set, making it if new.
// ok is false when the cache is full (unless force: the state is made
// anyway, as the first ones after a reset must be).
func (c *dfaCache) add(set []int32, lineStart, force bool) (int32, bool) {
	c.key = c.key[:0]
	if lineStart {
		c.key = append(c.key, 1)
	} else {
		c.key = append(c.key, 0)
	}
	for _, pc := range set {
		c.key = binary.LittleEndian.AppendUint32(c.key, uint32(pc))
	}
	if s, ok := c.index[string(c.key)]; ok {
		return s, true
	}
	cost := 4*c.stride + 12*len(set) + 64
	if c.used+cost > c.d.limit && !force {
		return 0, false
	}
	c.used += cost
	s := int32(len(c.trans))
	c.trans = append(c.trans, make([]int32, c.stride)...)
	c.sets = append(c.sets, append([]int32(nil), set...))
	c.lineStart = append(c.lineStart, lineStart)
	c.index[string(c.key)] = s
	return s, true
}

// step computes the transition of the state at row s on class cls (or
// the end of the text) and returns it, resetting the cache when it is
// full. ok is false when the cache thrashes: the DFA gives up.
func (c *dfaCache) step(s int32, cls byte) (int32, bool) {
	insts := c.d.p.insts
	id := int(s) / c.stride
	set := c.sets[id]
	eoi := cls == c.eoi
	var b byte
	if !eoi {
		b = c.d.reps[cls]
	}
	// The positions before the byte: the state's, and those behind a
	// pending $ when the byte (or the end) satisfies it.
	cur := set
	if c.d.anchors && (eoi || b == '\n') {
		c.cur = c.cur[:0]
		c.gen++
		matched := false
		for _, pc := range set {
			if c.closure(&c.cur, pc, c.lineStart[id], true) {
				matched = true
			}
		}
		if matched {
			c.trans[int(s)+int(cls)] = dfaMatchBefore
			return dfaMatchBefore, true
		}
		cur = c.cur
	}
	if eoi {
		c.trans[int(s)+int(cls)] = dfaNoMatch
		return dfaNoMatch, true
	}
	nl := c.d.anchors && b == '\n'
	c.next = c.next[:0]
	c.gen++
	matched := false
	for _, pc := range cur {
		in := &insts[pc]
		if in.op != opBytes {
			continue
		}
		for _, e := range in.edges {
			if b < e.lo {
				break
			}
			if b <= e.hi {
				if c.closure(&c.next, e.to, nl, false) {
					matched = true
				}
				break
			}
		}
	}
	// Unanchored: a match may start at the next position (and, empty,
	// end there).
	if c.closure(&c.next, c.d.p.start, nl, false) {
		matched = true
	}
	if matched {
		c.trans[int(s)+int(cls)] = dfaMatch
		return dfaMatch, true
	}
	next := sortSet(c.next)
	t, ok := c.add(next, nl, false)
	if !ok {
		if c.sinceReset < dfaMinProgress*len(c.sets) {
			c.resets++
			if c.resets > dfaMaxResets {
				c.d.failed.Store(true)
				return 0, false
			}
		}
		next = append([]int32(nil), next...)
		c.reset()
		t, _ = c.add(next, nl, true)
		return t, true
	}
	c.trans[int(s)+int(cls)] = t
	return t, true
}

// firstEnd returns the end of the earliest-ending match in h (-1 for
// none); ok is false when the DFA gave up and another engine must answer.
func (c *dfaCache) firstEnd(h []byte) (end int, ok bool) {
	if c.startMatch {
		return 0, true
	}
	cls := &c.d.classes
	trans := c.trans
	s := c.start
	last := 0 // bytes up to here are counted in c.sinceReset
	for i := 0; i < len(h); i++ {
		k := cls[h[i]]
		t := trans[int(s)+int(k)]
		if t <= 0 {
			if t == 0 {
				c.sinceReset += i - last
				last = i
				if t, ok = c.step(s, k); !ok {
					return 0, false
				}
				trans = c.trans
			}
			switch t {
			case dfaMatch:
				return i + 1, true
			case dfaMatchBefore:
				return i, true
			}
		}
		s = t
	}
	c.sinceReset += len(h) - last
	if !c.d.anchors {
		return -1, true
	}
	t := trans[int(s)+int(c.eoi)]
	if t == 0 {
		if t, ok = c.step(s, c.eoi); !ok {
			return 0, false
		}
	}
	if t == dfaMatchBefore {
		return len(h), true
	}
	return -1, true
}

// dfaFirstEnd runs m's DFA over h: the end of the first match, -1 for
// none, ok false when the DFA cannot answer.
func (m *Matcher) dfaFirstEnd(h []byte) (int, bool) {
	if m.dfa.failed.Load() {
		return 0, false
	}
	c := m.dfa.get()
	e, ok := c.firstEnd(h)
	m.dfa.put(c)
	return e, ok
}

// dfaNextLine is NextLine by the DFA: the line holding the end of the
// first match is the first matching line, since no match holds the
// terminator. A match that ends at a line start is an empty one there
// (at the end of a buffer that ends with a terminator it is on no line:
// rg reports none). ok is false when the DFA gave up (found is then
// unset).
func (m *Matcher) dfaNextLine(buf []byte, from int) (start, end int, found, ok bool) {
	e, ok := m.dfaFirstEnd(buf[from:])
	if !ok {
		return 0, 0, false, false
	}
	if e < 0 {
		return 0, 0, false, true
	}
	if q := from + e; e == 0 || buf[q-1] == m.term {
		if q == len(buf) {
			return 0, 0, false, true
		}
		return q, advance(buf, lineEnd(buf, q, m.term)), true, true
	}
	p := from + e - 1
	ls := from
	if i := bytes.LastIndexByte(buf[from:p], m.term); i >= 0 {
		ls = from + i + 1
	}
	return ls, advance(buf, lineEnd(buf, ls, m.term)), true, true
}
