package matcher

import (
	"errors"
	"sort"
	"sync"
	"unicode/utf8"
)

// A byte-level Pike VM. It implements the exact semantics of Rust's
// regex::bytes (leftmost-first, byte offsets, Unicode word boundaries,
// invalid UTF-8 never matched by Unicode classes, raw-byte classes in
// non-Unicode mode, search from an offset with the text before it as
// context). RE2 is used where it gives the same answers; this VM covers the
// rest (Unicode \b on non-ASCII text, -w occurrences, empty matches inside
// multi-byte characters, mixed byte/Unicode patterns, huge repetitions).

type opcode uint8

const (
	opBytes  opcode = iota // consume one byte via edges
	opSplit                // try out, then out1
	opSave                 // record position in slot n
	opAssert               // empty-width assertion
	opMatch
	opFail
)

type edge struct {
	lo, hi byte
	to     int32
}

type inst struct {
	op     opcode
	assert assertKind
	uni    bool
	out    int32
	out1   int32
	n      int32
	edges  []edge
}

type prog struct {
	insts  []inst
	start  int32
	nslots int // 2 * (captures + 1)
	pool   sync.Pool
}

var errTooBig = errors.New("compiled regex exceeds size limit")

// patch locations: (pc, which) where which -1 = out, -2 = out1, k >= 0 = edge k.
type hole struct {
	pc    int32
	which int32
}

type frag struct {
	start int32
	holes []hole
	empty bool // placeholder for the empty expression
}

type compiler struct {
	p   *prog
	err error
}

func compileProg(h *hir, ncap int) (*prog, error) {
	c := &compiler{p: &prog{nslots: 2 * (ncap + 1)}}
	// Program: save0, body, save1, match.
	s0 := c.emit(inst{op: opSave, n: 0})
	body := c.compile(h)
	s1 := c.emit(inst{op: opSave, n: 1})
	m := c.emit(inst{op: opMatch})
	c.p.insts[s1].out = m
	if c.err != nil {
		return nil, c.err
	}
	if body.empty {
		c.p.insts[s0].out = s1
	} else {
		c.p.insts[s0].out = body.start
		c.patch(body.holes, s1)
	}
	c.p.start = s0
	return c.p, nil
}

func (c *compiler) emit(i inst) int32 {
	if len(c.p.insts) >= vmProgLimit {
		c.err = errTooBig
		return 0
	}
	c.p.insts = append(c.p.insts, i)
	return int32(len(c.p.insts) - 1)
}

func (c *compiler) patch(hs []hole, to int32) {
	if c.err != nil {
		// A failed emit left holes that point nowhere; the program is
		// thrown away.
		return
	}
	for _, h := range hs {
		in := &c.p.insts[h.pc]
		switch h.which {
		case -1:
			in.out = to
		case -2:
			in.out1 = to
		default:
			in.edges[h.which].to = to
		}
	}
}

func (c *compiler) compile(h *hir) frag {
	if c.err != nil {
		return frag{empty: true}
	}
	switch h.kind {
	case hEmpty:
		return frag{empty: true}
	case hLit:
		if h.isByte || h.r < utf8.RuneSelf {
			return c.byteRange(byte(h.r), byte(h.r))
		}
		var buf [4]byte
		n := utf8.EncodeRune(buf[:], h.r)
		f := c.byteRange(buf[0], buf[0])
		for i := 1; i < n; i++ {
			g := c.byteRange(buf[i], buf[i])
			f = c.cat(f, g)
		}
		return f
	case hClass:
		return c.class(h.cls)
	case hAssert:
		pc := c.emit(inst{op: opAssert, assert: h.assert, uni: h.uniWB})
		return frag{start: pc, holes: []hole{{pc, -1}}}
	case hCapture:
		s := c.emit(inst{op: opSave, n: int32(2 * h.capIdx)})
		sub := c.compile(h.subs[0])
		e := c.emit(inst{op: opSave, n: int32(2*h.capIdx + 1)})
		if sub.empty {
			c.p.insts[s].out = e
		} else {
			c.p.insts[s].out = sub.start
			c.patch(sub.holes, e)
		}
		return frag{start: s, holes: []hole{{e, -1}}}
	case hConcat:
		f := frag{empty: true}
		for _, s := range h.subs {
			f = c.cat(f, c.compile(s))
		}
		return f
	case hAlt:
		return c.alt(h.subs)
	case hRepeat:
		return c.repeat(h)
	}
	return frag{empty: true}
}

func (c *compiler) cat(a, b frag) frag {
	if a.empty {
		return b
	}
	if b.empty {
		return a
	}
	c.patch(a.holes, b.start)
	return frag{start: a.start, holes: b.holes}
}

// emptyFrag materializes an empty expression as a no-op split.
func (c *compiler) emptyFrag() frag {
	pc := c.emit(inst{op: opSplit})
	// Both branches go to the same place; out1 is patched too.
	return frag{start: pc, holes: []hole{{pc, -1}, {pc, -2}}}
}

func (c *compiler) real(f frag) frag {
	if f.empty {
		return c.emptyFrag()
	}
	return f
}

func (c *compiler) alt(subs []*hir) frag {
	if len(subs) == 0 {
		return frag{empty: true}
	}
	if len(subs) == 1 {
		return c.compile(subs[0])
	}
	first := c.real(c.compile(subs[0]))
	split := c.emit(inst{op: opSplit, out: first.start})
	rest := c.real(c.alt(subs[1:]))
	c.p.insts[split].out1 = rest.start
	return frag{start: split, holes: append(first.holes, rest.holes...)}
}

// star compiles sub* (greedy or lazy).
func (c *compiler) star(sub *hir, greedy bool) frag {
	split := c.emit(inst{op: opSplit})
	body := c.real(c.compile(sub))
	c.patch(body.holes, split)
	if greedy {
		c.p.insts[split].out = body.start
		return frag{start: split, holes: []hole{{split, -2}}}
	}
	c.p.insts[split].out1 = body.start
	return frag{start: split, holes: []hole{{split, -1}}}
}

func (c *compiler) repeat(h *hir) frag {
	sub := h.subs[0]
	if h.max == 0 {
		return frag{empty: true}
	}
	if h.min > vmRepeatLimit || h.max > vmRepeatLimit {
		c.err = errTooBig
		return frag{empty: true}
	}
	f := frag{empty: true}
	for i := 0; i < h.min && !h.plus; i++ {
		f = c.cat(f, c.compile(sub))
		if c.err != nil {
			return f
		}
	}
	if h.plus {
		// e+ is e followed by a split back to the same e.
		body := c.real(c.compile(sub))
		split := c.emit(inst{op: opSplit})
		c.patch(body.holes, split)
		if h.greedy {
			c.p.insts[split].out = body.start
			return frag{start: body.start, holes: []hole{{split, -2}}}
		}
		c.p.insts[split].out1 = body.start
		return frag{start: body.start, holes: []hole{{split, -1}}}
	}
	if h.max < 0 {
		if h.min == 0 {
			return c.star(sub, h.greedy)
		}
		return c.cat(f, c.star(sub, h.greedy))
	}
	if h.max == h.min {
		return f
	}
	// Optional copies nest: (sub(sub(sub)?)?)?
	var opt frag
	optEmpty := true
	for i := h.max - h.min; i > 0; i-- {
		split := c.emit(inst{op: opSplit})
		body := c.real(c.compile(sub))
		if !optEmpty {
			c.patch(body.holes, opt.start)
			body.holes = opt.holes
		}
		if h.greedy {
			c.p.insts[split].out = body.start
			opt = frag{start: split, holes: append(body.holes, hole{split, -2})}
		} else {
			c.p.insts[split].out1 = body.start
			opt = frag{start: split, holes: append(body.holes, hole{split, -1})}
		}
		optEmpty = false
		if c.err != nil {
			return f
		}
	}
	// The loop built the innermost copy first; that is the same language
	// and priority order because every copy is identical.
	return c.cat(f, opt)
}

func (c *compiler) byteRange(lo, hi byte) frag {
	pc := c.emit(inst{op: opBytes, edges: []edge{{lo, hi, -1}}})
	return frag{start: pc, holes: []hole{{pc, 0}}}
}

// trieNode is a node of the UTF-8 automaton built for a class.
type trieNode struct {
	edges []trieEdge
}

type trieEdge struct {
	lo, hi byte
	child  *trieNode // nil: leaf (end of a character)
}

func (c *compiler) class(cls *charClass) frag {
	if cls.bytes {
		var edges []edge
		for _, r := range cls.r {
			edges = append(edges, edge{byte(r.lo), byte(r.hi), -1})
		}
		pc := c.emit(inst{op: opBytes, edges: edges})
		var hs []hole
		for i := range edges {
			hs = append(hs, hole{pc, int32(i)})
		}
		return frag{start: pc, holes: hs}
	}
	root := &trieNode{}
	for _, r := range cls.r {
		utf8Sequences(r.lo, r.hi, func(seq []rng) { root.insert(seq) })
	}
	var hs []hole
	start := c.emitTrie(root, &hs)
	if len(root.edges) == 0 {
		pc := c.emit(inst{op: opFail})
		return frag{start: pc}
	}
	return frag{start: start, holes: hs}
}

func (n *trieNode) insert(seq []rng) {
	lo, hi := byte(seq[0].lo), byte(seq[0].hi)
	for i := range n.edges {
		e := &n.edges[i]
		if e.lo == lo && e.hi == hi && e.child != nil && len(seq) > 1 {
			e.child.insert(seq[1:])
			return
		}
	}
	if len(seq) == 1 {
		n.edges = append(n.edges, trieEdge{lo: lo, hi: hi})
		return
	}
	child := &trieNode{}
	child.insert(seq[1:])
	n.edges = append(n.edges, trieEdge{lo: lo, hi: hi, child: child})
}

func (c *compiler) emitTrie(n *trieNode, hs *[]hole) int32 {
	sort.Slice(n.edges, func(i, j int) bool { return n.edges[i].lo < n.edges[j].lo })
	edges := make([]edge, len(n.edges))
	pc := c.emit(inst{op: opBytes, edges: edges})
	for i, e := range n.edges {
		edges[i].lo, edges[i].hi = e.lo, e.hi
		if e.child == nil {
			*hs = append(*hs, hole{pc, int32(i)})
			edges[i].to = -1
		} else {
			edges[i].to = c.emitTrie(e.child, hs)
		}
	}
	return pc
}

// utf8Sequences splits [lo, hi] into ranges of UTF-8 byte sequences, each
// a list of per-byte ranges, skipping surrogates.
func utf8Sequences(lo, hi rune, emit func([]rng)) {
	if lo <= surrHi && hi >= surrLo {
		if lo < surrLo {
			utf8Sequences(lo, surrLo-1, emit)
		}
		if hi > surrHi {
			utf8Sequences(surrHi+1, hi, emit)
		}
		return
	}
	for _, b := range []rune{0x7F, 0x7FF, 0xFFFF} {
		if lo <= b && hi > b {
			utf8Sequences(lo, b, emit)
			utf8Sequences(b+1, hi, emit)
			return
		}
	}
	if hi < 0x80 {
		emit([]rng{{lo, hi}})
		return
	}
	n := utf8.RuneLen(lo)
	for i := 1; i < n; i++ {
		m := rune(1)<<(6*uint(i)) - 1
		if lo&^m != hi&^m {
			if lo&m != 0 {
				utf8Sequences(lo, lo|m, emit)
				utf8Sequences((lo|m)+1, hi, emit)
				return
			}
			if hi&m != m {
				utf8Sequences(lo, (hi&^m)-1, emit)
				utf8Sequences(hi&^m, hi, emit)
				return
			}
		}
	}
	var a, b [4]byte
	utf8.EncodeRune(a[:], lo)
	utf8.EncodeRune(b[:], hi)
	seq := make([]rng, n)
	for i := 0; i < n; i++ {
		seq[i] = rng{rune(a[i]), rune(b[i])}
	}
	emit(seq)
}

// ---- execution ----

type thread struct {
	pc  int32
	cap []int
}

type queue struct {
	sparse []uint32
	dense  []thread
}

func newQueue(n int) queue {
	return queue{sparse: make([]uint32, n), dense: make([]thread, 0, n)}
}

func (q *queue) contains(pc int32) bool {
	j := q.sparse[pc]
	return int(j) < len(q.dense) && q.dense[j].pc == pc
}

func (q *queue) insert(pc int32) *thread {
	j := len(q.dense)
	q.dense = q.dense[:j+1]
	q.sparse[pc] = uint32(j)
	t := &q.dense[j]
	t.pc = pc
	return t
}

type machine struct {
	p        *prog
	q0, q1   queue
	matchcap []int
	scratch  []int
	free     [][]int
	stack    []addFrame
	realEnd  bool // execMode.realEnd of the current run
}

type addFrame struct {
	pc   int32
	slot int32 // restore slot (when >= 0) with old value
	old  int
}

func (p *prog) get() *machine {
	if m, ok := p.pool.Get().(*machine); ok {
		return m
	}
	n := len(p.insts)
	return &machine{p: p, q0: newQueue(n), q1: newQueue(n), matchcap: make([]int, p.nslots), scratch: make([]int, p.nslots)}
}

func (p *prog) put(m *machine) { p.pool.Put(m) }

func (m *machine) alloc() []int {
	if n := len(m.free); n > 0 {
		c := m.free[n-1]
		m.free = m.free[:n-1]
		return c
	}
	return make([]int, m.p.nslots)
}

func (m *machine) clear(q *queue) {
	for i := range q.dense {
		if q.dense[i].cap != nil {
			m.free = append(m.free, q.dense[i].cap)
			q.dense[i].cap = nil
		}
	}
	q.dense = q.dense[:0]
}

// assertOK evaluates an empty-width assertion at pos in h. realEnd says
// that the end of h is the end of the input (see execMode).
func assertOK(a assertKind, uni bool, h []byte, pos int, asciiPrevAt int, realEnd bool) bool {
	switch a {
	case assertStartLine:
		return pos == 0 || h[pos-1] == '\n'
	case assertEndLine:
		return pos == len(h) || h[pos] == '\n'
	case assertStartText:
		return pos == 0
	case assertEndText:
		return pos == len(h)
	case assertEndLineCRLF:
		// Unless it is the end of the input, a haystack that ends in \r
		// lost the \n after it (a line handed without its \n): that end
		// is inside a CRLF.
		if pos == len(h) {
			return realEnd || pos == 0 || h[pos-1] != '\r'
		}
		return h[pos] == '\r' || h[pos] == '\n' && (pos == 0 || h[pos-1] != '\r')
	case assertStartLineCRLF:
		if pos == 0 || h[pos-1] == '\n' {
			return true
		}
		if h[pos-1] != '\r' {
			return false
		}
		if pos == len(h) {
			return realEnd
		}
		return h[pos] != '\n'
	}
	var before, after bool
	if uni {
		// badBefore/badAfter: no character decodes there. rg 15's \B and
		// half boundaries never match next to invalid UTF-8 (or inside a
		// character); \b, \b{start} and \b{end} treat it as a non-word.
		badBefore, badAfter := false, false
		if pos > 0 && pos == asciiPrevAt {
			before = isASCIIWord(h[pos-1])
		} else if pos > 0 {
			r, n := utf8.DecodeLastRune(h[:pos])
			badBefore = r == utf8.RuneError && n <= 1
			before = !badBefore && isUniWord(r)
		}
		if pos < len(h) {
			r, n := utf8.DecodeRune(h[pos:])
			badAfter = r == utf8.RuneError && n <= 1
			after = !badAfter && isUniWord(r)
		}
		switch a {
		case assertWordStartHalf:
			return !badBefore && !before
		case assertWordEndHalf:
			return !badAfter && !after
		case assertNotWordB:
			return !badBefore && !badAfter && before == after
		}
	} else {
		before = pos > 0 && isASCIIWord(h[pos-1])
		after = pos < len(h) && isASCIIWord(h[pos])
	}
	switch a {
	case assertWordB:
		return before != after
	case assertWordStart:
		return !before && after
	case assertWordEnd:
		return before && !after
	case assertWordStartHalf:
		return !before
	case assertWordEndHalf:
		return !after
	}
	return before == after
}

// add follows empty transitions from pc at pos, adding threads to q in
// priority order. cap is the working capture array.
func (m *machine) add(q *queue, pc0 int32, pos int, cap []int, h []byte, ap int) {
	stk := m.stack[:0]
	stk = append(stk, addFrame{pc: pc0, slot: -1})
	for len(stk) > 0 {
		f := stk[len(stk)-1]
		stk = stk[:len(stk)-1]
		if f.slot >= 0 {
			cap[f.slot] = f.old
			continue
		}
		pc := f.pc
		for {
			if q.contains(pc) {
				break
			}
			t := q.insert(pc)
			in := &m.p.insts[pc]
			switch in.op {
			case opFail:
			case opSplit:
				stk = append(stk, addFrame{pc: in.out1, slot: -1})
				pc = in.out
				continue
			case opAssert:
				if assertOK(in.assert, in.uni, h, pos, ap, m.realEnd) {
					pc = in.out
					continue
				}
			case opSave:
				if int(in.n) < len(cap) {
					stk = append(stk, addFrame{slot: in.n, old: cap[in.n]})
					cap[in.n] = pos
				}
				pc = in.out
				continue
			case opBytes, opMatch:
				t.cap = m.alloc()
				copy(t.cap, cap)
			}
			break
		}
	}
	m.stack = stk
}

// exec searches h for the leftmost-first match starting at or after at
// (only at at when anchored). On success the capture slots are copied to
// caps (which may be shorter than the program's slot count) and it
// returns true. With earliest set it stops at the first match found,
// without caring for its end (enough for "is there a match").
func (p *prog) exec(h []byte, at int, anchored, earliest bool, caps []int) bool {
	return p.execMode(h, at, execMode{anchored: anchored, earliest: earliest, asciiPrevAt: -1}, caps)
}

// execMode selects search details that mimic Rust's engine choice.
type execMode struct {
	anchored, earliest bool
	// charStep adds start threads only at character boundaries reached by
	// stepping from at (Rust's NFA, used for Unicode \b on non-ASCII text).
	charStep bool
	// asciiPrevAt, when >= 0, makes a Unicode word boundary at that
	// position look at the previous byte as ASCII (Rust's DFA start state).
	asciiPrevAt int
	// realEnd: the haystack ends where the input does (not where a line
	// lost its terminator), which CRLF's ^ and $ after a \r need to know.
	realEnd bool
}

func (p *prog) execMode(h []byte, at int, md execMode, caps []int) bool {
	anchored, earliest := md.anchored, md.earliest
	nextStart := at
	if at > len(h) {
		return false
	}
	m := p.get()
	defer p.put(m)
	m.realEnd = md.realEnd
	run, next := &m.q0, &m.q1
	m.clear(run)
	m.clear(next)
	matched := false
	for i := range m.scratch {
		m.scratch[i] = -1
	}
	for pos := at; ; pos++ {
		if !matched && (!anchored || pos == at) && pos >= nextStart {
			for i := range m.scratch {
				m.scratch[i] = -1
			}
			m.add(run, p.start, pos, m.scratch, h, md.asciiPrevAt)
			if md.charStep {
				nextStart = pos + max(1, decodeLen(h[pos:]))
				if r, _ := utf8.DecodeRune(h[pos:]); r == utf8.RuneError {
					nextStart = pos + 1
				}
			}
		}
		if len(run.dense) == 0 && (matched || anchored) {
			break
		}
		var b byte
		if pos < len(h) {
			b = h[pos]
		}
		for i := 0; i < len(run.dense); i++ {
			t := &run.dense[i]
			if t.cap == nil {
				continue
			}
			in := &p.insts[t.pc]
			switch in.op {
			case opMatch:
				copy(m.matchcap, t.cap)
				matched = true
				if earliest {
					goto done
				}
				// Lower-priority threads are cut off.
				for j := i + 1; j < len(run.dense); j++ {
					if run.dense[j].cap != nil {
						m.free = append(m.free, run.dense[j].cap)
						run.dense[j].cap = nil
					}
				}
				run.dense = run.dense[:i+1]
			case opBytes:
				if pos >= len(h) {
					break
				}
				for _, e := range in.edges {
					if b < e.lo {
						break
					}
					if b <= e.hi {
						m.add(next, e.to, pos+1, t.cap, h, md.asciiPrevAt)
						break
					}
				}
			}
		}
		m.clear(run)
		run, next = next, run
		if pos >= len(h) {
			break
		}
	}
done:
	m.clear(run)
	m.clear(next)
	if matched {
		copy(caps, m.matchcap)
	}
	return matched
}
