// Package litset finds occurrences of a large set of literal byte strings
// with the leftmost-first rule of a regex alternation of those literals
// (as Rust's regex and so ripgrep answer for -f with many words): the
// match that starts first, and among those starting there the literal
// listed first.
//
// One Aho-Corasick pass (a trie with failure links; the root's transitions
// dense, the others sparse and sorted) finds the earliest end of any
// occurrence. The leftmost occurrence starts no later than that one and no
// earlier than the longest literal before its end, so only that window is
// checked start by start against the trie, where each node keeps the
// first-listed literal ending there.
package litset

import "slices"

const none = -1

// Dense goto tables are kept for nodes at most denseDepth bytes from the
// root, for at most denseMax nodes (1 KiB each).
const (
	denseDepth = 2
	denseMax   = 4096
)

// Set is a compiled set of literals. It is safe for concurrent use.
type Set struct {
	root [256]int32 // the root's goto function (never fails)
	// Nodes near the root (where a scan spends most steps) have dense
	// goto tables: denseAt[n] is the table's offset in dense, or -1.
	denseAt []int32
	dense   []int32
	first   []int32 // per node: first edge in edges
	nedges  []int32 // per node: its number of edges
	edges   []edge  // sorted by byte within each node
	fail    []int32
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
	for i, l := range lits {
		maxLen = max(maxLen, len(l))
		n := int32(0)
		for _, b := range l {
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
	s := &Set{maxLen: maxLen}
	nn := len(nodes)
	s.first = make([]int32, nn)
	s.nedges = make([]int32, nn)
	s.fail = make([]int32, nn)
	s.best = make([]int32, nn)
	s.depth = make([]int32, nn)
	s.out = make([]bool, nn)
	for i := range nodes {
		kids := nodes[i].kids
		slices.SortFunc(kids, func(a, b edge) int { return int(a.b) - int(b.b) })
		s.first[i] = int32(len(s.edges))
		s.nedges[i] = int32(len(kids))
		s.edges = append(s.edges, kids...)
		s.best[i] = nodes[i].best
		s.depth[i] = nodes[i].depth
		nodes[i].kids = nil
	}
	s.denseAt = make([]int32, nn)
	for i := range s.denseAt {
		s.denseAt[i] = none
	}
	for i := 1; i < nn; i++ {
		if s.depth[i] > denseDepth || len(s.dense) >= denseMax*256 {
			continue
		}
		s.denseAt[i] = int32(len(s.dense))
		for range 256 {
			s.dense = append(s.dense, none)
		}
		for _, e := range s.children(int32(i)) {
			s.dense[int(s.denseAt[i])+int(e.b)] = e.to
		}
	}
	for _, e := range s.children(0) {
		s.root[e.b] = e.to
	}
	// Failure links, breadth first.
	queue := make([]int32, 0, nn)
	for _, e := range s.children(0) {
		s.fail[e.to] = 0
		queue = append(queue, e.to)
	}
	s.out[0] = s.best[0] != none
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		s.out[n] = s.best[n] != none || s.out[s.fail[n]]
		for _, e := range s.children(n) {
			f := s.fail[n]
			for {
				if t := s.step(f, e.b); t != none {
					s.fail[e.to] = t
					break
				}
				f = s.fail[f]
			}
			queue = append(queue, e.to)
		}
	}
	return s
}

func (s *Set) children(n int32) []edge {
	return s.edges[s.first[n] : s.first[n]+s.nedges[n]]
}

// step is the goto function: the child of n by b, or none (never none at
// the root).
func (s *Set) step(n int32, b byte) int32 {
	if n == 0 {
		return s.root[b]
	}
	if d := s.denseAt[n]; d >= 0 {
		return s.dense[int(d)+int(b)]
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

// firstEnd returns the end of the occurrence that ends first in
// buf[from:], or -1.
func (s *Set) firstEnd(buf []byte, from int) int {
	n := int32(0)
	for i := from; i < len(buf); i++ {
		b := buf[i]
		for {
			if t := s.step(n, b); t != none {
				n = t
				break
			}
			n = s.fail[n]
		}
		if s.out[n] {
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
		t := s.step(n, buf[i])
		if t <= 0 {
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
