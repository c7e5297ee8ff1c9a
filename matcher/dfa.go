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
// It answers for programs without empty-width assertions (no ^ $ \b \A
// …) that cannot match the empty string; others keep RE2 and the VM. On
// those programs it is exact: it runs the same edges as the VM, so invalid
// UTF-8 and raw bytes are treated alike.

// dfaProg is the immutable part, shared by every goroutine.
type dfaProg struct {
	p       *prog
	classes [256]byte // byte → equivalence class
	reps    []byte    // a representative byte of each class
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
	d      *dfaProg
	stride int
	// trans[s+c] is the transition of the state whose row starts at s on
	// class c: 0 not computed yet, > 0 the next state's row, dfaMatch a
	// state holding a match.
	trans []int32
	sets  [][]int32 // per state (row/stride): its sorted program positions
	index map[string]int32
	start int32 // the start state's row
	used  int   // bytes accounted to the cache
	// scratch for closures
	seen  []uint32
	gen   uint32
	stack []int32
	next  []int32
	key   []byte
	// progress since the last reset, to detect thrashing
	sinceReset int
	resets     int
}

const dfaMatch = -1

// newDFA returns the DFA of p, or nil when p has assertions (or is too
// small to need one).
func newDFA(p *prog) *dfaProg {
	var bounds [257]bool
	for i := range p.insts {
		in := &p.insts[i]
		switch in.op {
		case opAssert:
			return nil
		case opBytes:
			for _, e := range in.edges {
				bounds[e.lo] = true
				bounds[int(e.hi)+1] = true
			}
		}
	}
	d := &dfaProg{p: p, free: make(chan *dfaCache, dfaFreeCaches), limit: dfaCacheLimit}
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
	c := &dfaCache{d: d, stride: len(d.reps), seen: make([]uint32, len(d.p.insts))}
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
	c.index = make(map[string]int32)
	c.used = 0
	c.sinceReset = 0
	// Row 0 is never a state, so that 0 can mean "not computed".
	c.trans = append(c.trans, make([]int32, c.stride)...)
	c.sets = append(c.sets, nil)
	c.next = c.next[:0]
	c.gen++
	c.closure(c.d.p.start)
	set := c.sortedNext()
	c.start, _ = c.add(set, true)
}

// closure adds the positions reachable from pc without reading a byte to
// c.next (opBytes and opMatch only), marking them in c.seen under c.gen.
// It reports whether a match was reached.
func (c *dfaCache) closure(pc int32) bool {
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
			c.next = append(c.next, pc)
		case opMatch:
			matched = true
		}
	}
	c.stack = stk
	return matched
}

func (c *dfaCache) sortedNext() []int32 {
	s := c.next
	// insertion sort: sets are small
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
func (c *dfaCache) add(set []int32, force bool) (int32, bool) {
	c.key = c.key[:0]
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
	c.index[string(c.key)] = s
	return s, true
}

// step computes the transition of the state at row s on class cls and
// returns it (a row or dfaMatch), resetting the cache when it is full.
// ok is false when the cache thrashes: the DFA gives up.
func (c *dfaCache) step(s int32, cls byte) (int32, bool) {
	insts := c.d.p.insts
	b := c.d.reps[cls]
	c.next = c.next[:0]
	c.gen++
	matched := false
	for _, pc := range c.sets[int(s)/c.stride] {
		for _, e := range insts[pc].edges {
			if b < e.lo {
				break
			}
			if b <= e.hi {
				if c.closure(e.to) {
					matched = true
				}
				break
			}
		}
	}
	if matched {
		c.trans[int(s)+int(cls)] = dfaMatch
		return dfaMatch, true
	}
	// Unanchored: a match may start at the next position.
	c.closure(c.d.p.start)
	set := c.sortedNext()
	t, ok := c.add(set, false)
	if !ok {
		if c.sinceReset < dfaMinProgress*len(c.sets) {
			c.resets++
			if c.resets > dfaMaxResets {
				c.d.failed.Store(true)
				return 0, false
			}
		}
		set = append([]int32(nil), set...)
		c.reset()
		t, _ = c.add(set, true)
		return t, true
	}
	c.trans[int(s)+int(cls)] = t
	return t, true
}

// firstEnd returns the end of the earliest-ending match in h (-1 for
// none); ok is false when the DFA gave up and another engine must answer.
func (c *dfaCache) firstEnd(h []byte) (end int, ok bool) {
	cls := &c.d.classes
	trans := c.trans
	s := c.start
	last := 0 // bytes up to here are counted in c.sinceReset
	for i := 0; i < len(h); i++ {
		k := cls[h[i]]
		t := trans[int(s)+int(k)]
		if t <= 0 {
			if t == dfaMatch {
				return i + 1, true
			}
			c.sinceReset += i - last
			last = i
			t, ok = c.step(s, k)
			if !ok {
				return 0, false
			}
			if t == dfaMatch {
				return i + 1, true
			}
			trans = c.trans
		}
		s = t
	}
	c.sinceReset += len(h) - last
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
// terminator. ok is false when the DFA gave up (found is then unset).
func (m *Matcher) dfaNextLine(buf []byte, from int) (start, end int, found, ok bool) {
	e, ok := m.dfaFirstEnd(buf[from:])
	if !ok {
		return 0, 0, false, false
	}
	if e < 0 {
		return 0, 0, false, true
	}
	p := from + e - 1
	ls := from
	if i := bytes.LastIndexByte(buf[from:p], m.term); i >= 0 {
		ls = from + i + 1
	}
	return ls, advance(buf, lineEnd(buf, ls, m.term)), true, true
}
