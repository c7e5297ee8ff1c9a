// Package litset finds occurrences of a large set of literal byte strings
// with the leftmost-first rule of a regex alternation of those literals
// (as Rust's regex and so ripgrep answer for -f with many words): the
// match that starts first, and among those starting there the literal
// listed first.
//
// One Aho-Corasick pass (a trie with failure links; the nodes nearest
// the root with dense failure-resolved rows over byte classes, the others
// with sorted sparse edges) finds the earliest end of any occurrence. The leftmost occurrence starts no later than that one and no
// earlier than the longest literal before its end, so only that window is
// checked start by start against the trie, where each node keeps the
// first-listed literal ending there.
package litset

import "slices"

const none = -1

// denseBudget (a variable for the tests) bounds the dense transition rows (int32 entries, one per
// byte class) of the nodes nearest the root: 4 Mi entries, 16 MiB.
var denseBudget = 4 << 20

// Set is a compiled set of literals. It is safe for concurrent use.
type Set struct {
	// cls maps a byte to its class: bytes that occur in no literal share
	// class 0, every other byte has its own.
	cls [256]int32
	nc  int32 // number of classes
	// The nodes nearest the root (breadth first, while denseBudget lasts;
	// the root always) have a dense row: the automaton's transition for
	// every class with the failure links already followed, so a scan
	// there takes one lookup a byte. rowAt[n] is the row's offset in
	// dense, or -1 for a node with sparse edges and a failure link.
	rowAt []int32
	dense []int32
	// enc is each node as a scan state: a dense node as (row<<1 | out),
	// a sparse one as ^(node<<1 | out); dense rows hold enc values, so a
	// scan in the dense part touches one row per byte.
	enc    []int32
	scan   []int32
	first  []int32 // per node: first edge in edges
	nedges []int32 // per node: its number of edges
	edges  []edge  // sorted by byte within each node
	fail   []int32
	// best is the index of the first-listed literal that ends at the node
	// (-1: none); out tells whether some literal ends at the node or at a
	// node of its failure chain.
	best   []int32
	depth  []int32
	out    []bool
	maxLen int
}

type edge struct {
	b  byte
	to int32
}

// New compiles lits (which must be non-empty strings). Literal i has
// priority over literal j when i < j.
func New(lits [][]byte) *Set {
	// Build the trie with per-node child lists, then pack them.
	type tnode struct {
		kids  []edge
		best  int32
		depth int32
	}
	nodes := []tnode{{best: none}}
	maxLen := 0
	s := &Set{}
	for i, l := range lits {
		maxLen = max(maxLen, len(l))
		n := int32(0)
		for _, b := range l {
			if s.cls[b] == 0 {
				s.nc++
				s.cls[b] = s.nc
			}
			next := int32(none)
			for _, e := range nodes[n].kids {
				if e.b == b {
					next = e.to
					break
				}
			}
			if next == none {
				next = int32(len(nodes))
				nodes = append(nodes, tnode{best: none, depth: nodes[n].depth + 1})
				nodes[n].kids = append(nodes[n].kids, edge{b, next})
			}
			n = next
		}
		if nodes[n].best == none {
			nodes[n].best = int32(i)
		}
	}
	s.nc++
	s.maxLen = maxLen
	nn := len(nodes)
	s.first = make([]int32, nn)
	s.nedges = make([]int32, nn)
	s.fail = make([]int32, nn)
	s.best = make([]int32, nn)
	s.depth = make([]int32, nn)
	s.out = make([]bool, nn)
	s.rowAt = make([]int32, nn)
	for i := range nodes {
		kids := nodes[i].kids
		slices.SortFunc(kids, func(a, b edge) int { return int(a.b) - int(b.b) })
		s.first[i] = int32(len(s.edges))
		s.nedges[i] = int32(len(kids))
		s.edges = append(s.edges, kids...)
		s.best[i] = nodes[i].best
		s.depth[i] = nodes[i].depth
		s.rowAt[i] = none
		nodes[i].kids = nil
	}
	// Breadth first: failure links, output flags and the dense rows
	// (a node's failure target is shallower, so it is done before it).
	s.rowAt[0] = 0
	// The rows are allocated once (the root's, and at most denseBudget
	// entries in all): growing them by appends copied tens of MiB for
	// word lists.
	s.dense = make([]int32, s.nc, max(int(s.nc), min(denseBudget, nn*int(s.nc))))
	for _, e := range s.children(0) {
		s.dense[s.cls[e.b]] = e.to
	}
	s.out[0] = s.best[0] != none
	queue := make([]int32, 0, nn)
	for _, e := range s.children(0) {
		queue = append(queue, e.to)
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		s.out[n] = s.best[n] != none || s.out[s.fail[n]]
		if len(s.dense)+int(s.nc) <= denseBudget && s.rowAt[s.fail[n]] >= 0 {
			row := int32(len(s.dense))
			s.rowAt[n] = row
			s.dense = append(s.dense, s.dense[s.rowAt[s.fail[n]]:s.rowAt[s.fail[n]]+s.nc]...)
			for _, e := range s.children(n) {
				s.dense[row+s.cls[e.b]] = e.to
			}
		}
		for _, e := range s.children(n) {
			s.fail[e.to] = s.next(s.fail[n], e.b)
			queue = append(queue, e.to)
		}
	}
	s.enc = make([]int32, nn)
	for n := range s.enc {
		o := int32(0)
		if s.out[n] {
			o = 1
		}
		if d := s.rowAt[n]; d >= 0 {
			s.enc[n] = d<<1 | o
		} else {
			s.enc[n] = ^(int32(n)<<1 | o)
		}
	}
	// The scan's rows: the same transitions, as enc values.
	s.scan = make([]int32, len(s.dense))
	for i, t := range s.dense {
		s.scan[i] = s.enc[t]
	}
	return s
}

func (s *Set) children(n int32) []edge {
	return s.edges[s.first[n] : s.first[n]+s.nedges[n]]
}

// child returns n's child by b in the trie, or none.
func (s *Set) child(n int32, b byte) int32 {
	if d := s.rowAt[n]; d >= 0 {
		t := s.dense[d+s.cls[b]]
		if t > 0 && s.depth[t] == s.depth[n]+1 {
			return t // a row's other entries point no deeper than n
		}
		return none
	}
	kids := s.edges[s.first[n] : s.first[n]+s.nedges[n]]
	lo, hi := 0, len(kids)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if kids[m].b < b {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(kids) && kids[lo].b == b {
		return kids[lo].to
	}
	return none
}

// next is the automaton's transition from n by b (failure links
// followed).
func (s *Set) next(n int32, b byte) int32 {
	for {
		if d := s.rowAt[n]; d >= 0 {
			return s.dense[d+s.cls[b]]
		}
		if t := s.child(n, b); t != none {
			return t
		}
		n = s.fail[n]
	}
}

// firstEnd returns the end of the occurrence that ends first in
// buf[from:], or -1.
func (s *Set) firstEnd(buf []byte, from int) int {
	v := s.enc[0]
	for i := from; i < len(buf); i++ {
		if v >= 0 {
			v = s.scan[v>>1+s.cls[buf[i]]]
		} else {
			v = s.enc[s.next((^v)>>1, buf[i])]
		}
		if (v^v>>31)&1 != 0 { // the out bit, of v or of ^v
			return i + 1
		}
	}
	return -1
}

// at returns the length of the first-listed literal that occurs at
// buf[p:], or -1.
func (s *Set) at(buf []byte, p int) int {
	n := int32(0)
	bestIdx, bestLen := int32(none), -1
	for i := p; i < len(buf); i++ {
		t := s.child(n, buf[i])
		if t == none {
			break
		}
		n = t
		if k := s.best[n]; k != none && (bestIdx == none || k < bestIdx) {
			bestIdx, bestLen = k, int(s.depth[n])
		}
	}
	return bestLen
}

// Contains reports whether some literal occurs in buf.
func (s *Set) Contains(buf []byte) bool { return s.firstEnd(buf, 0) >= 0 }

// FirstEnd returns the end of the occurrence of any literal that ends
// first at or after from, or -1: the line holding it has a match.
func (s *Set) FirstEnd(buf []byte, from int) int { return s.firstEnd(buf, from) }

// Find returns the leftmost-first occurrence in buf[from:].
func (s *Set) Find(buf []byte, from int) (start, end int, ok bool) {
	e := s.firstEnd(buf, from)
	if e < 0 {
		return 0, 0, false
	}
	for p := max(from, e-s.maxLen); p < e; p++ {
		if n := s.at(buf, p); n >= 0 {
			return p, p + n, true
		}
	}
	// Unreachable: the occurrence ending at e starts in the window.
	return 0, 0, false
}

// MaxLen returns the length of the set's longest literal.
func (s *Set) MaxLen() int { return s.maxLen }

// FirstAt returns the length of the first-listed literal that occurs at
// buf[p:] and whose end p+length satisfies ok, or -1: the alternative a
// leftmost-first regex takes at p when an assertion follows it.
func (s *Set) FirstAt(buf []byte, p int, ok func(end int) bool) int {
	n := int32(0)
	bestIdx, bestLen := int32(none), -1
	for i := p; i < len(buf); i++ {
		t := s.child(n, buf[i])
		if t == none {
			break
		}
		n = t
		if k := s.best[n]; k != none && (bestIdx == none || k < bestIdx) && ok(i+1) {
			bestIdx, bestLen = k, int(s.depth[n])
		}
	}
	return bestLen
}
