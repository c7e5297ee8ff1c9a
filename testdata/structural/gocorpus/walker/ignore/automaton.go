package ignore

import (
	"fmt"
	"math/bits"
	"regexp"
	"strings"
	"unicode/utf8"
)

// A glob that no literal strategy answers is compiled here. globset turns
// such a glob into a Rust byte regex, "(?-u)" mode, with '.' matching any
// byte; this file builds the same language as a small expression tree over
// byte sets and compiles it to a Glushkov position automaton whose states
// are bitsets (an NFA: no allocation per match, linear in the path length),
// and from that, when it stays small, to a DFA (one table look-up per
// byte). A glob with more positions than the bitset holds runs on Go's
// regexp, with each byte of the path mapped to the rune of the same value.

// byteSet is a set of byte values.
type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }

func (s *byteSet) addRange(lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
}

func (s *byteSet) negate() {
	for i := range s {
		s[i] = ^s[i]
	}
}

// foldASCII adds the other case of every ASCII letter in the set, as Rust's
// regex does for "(?i)" in byte mode.
func (s *byteSet) foldASCII() {
	for c := byte('a'); c <= 'z'; c++ {
		u := c - 'a' + 'A'
		if s.has(c) || s.has(u) {
			s.add(c)
			s.add(u)
		}
	}
}

func allBytes() byteSet { return byteSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)} }

func notSlash() byteSet {
	s := allBytes()
	s[0] &^= 1 << '/'
	return s
}

func oneByte(b byte) byteSet {
	var s byteSet
	s.add(b)
	return s
}

// classSet returns the bytes a glob class matches. globset writes each
// class item as the escaped UTF-8 bytes of its bounds joined by '-', so for
// a multi-byte bound the regex range joins only the last byte of the start
// and the first byte of the end; the other bytes stand alone.
func classSet(t token, caseInsensitive bool) byteSet {
	var s byteSet
	var lo, hi [utf8.UTFMax]byte
	for _, r := range t.ranges {
		lb := lo[:utf8.EncodeRune(lo[:], r.lo)]
		if r.lo == r.hi {
			for _, b := range lb {
				s.add(b)
			}
			continue
		}
		hb := hi[:utf8.EncodeRune(hi[:], r.hi)]
		for _, b := range lb[:len(lb)-1] {
			s.add(b)
		}
		a, z := lb[len(lb)-1], hb[0]
		if a > z { // cannot happen for lo < hi; kept so no input can misbehave
			a, z = z, a
		}
		s.addRange(a, z)
		for _, b := range hb[1:] {
			s.add(b)
		}
	}
	if caseInsensitive {
		s.foldASCII()
	}
	if t.negated {
		s.negate()
	}
	return s
}

type nodeKind uint8

const (
	nSet  nodeKind = iota // one byte from set
	nSeq                  // kids in order (empty: the empty string)
	nAlt                  // one of kids
	nStar                 // kids[0] zero or more times
)

type node struct {
	kind nodeKind
	set  byteSet
	kids []*node
}

func setNode(s byteSet) *node     { return &node{kind: nSet, set: s} }
func seqNode(kids ...*node) *node { return &node{kind: nSeq, kids: kids} }
func altNode(kids ...*node) *node { return &node{kind: nAlt, kids: kids} }
func starNode(s byteSet) *node    { return &node{kind: nStar, kids: []*node{setNode(s)}} }
func anyStar() *node              { return starNode(allBytes()) }
func slashNode() *node            { return setNode(oneByte('/')) }
func (n *node) add(kids ...*node) { n.kids = append(n.kids, kids...) }
func literalSet(b byte, ci bool) byteSet {
	s := oneByte(b)
	if ci {
		s.foldASCII()
	}
	return s
}

// buildTree returns the expression tree of a glob's tokens: the language
// globset's regex for them matches, anchored at both ends.
func buildTree(toks []token, o GlobOptions) *node {
	if len(toks) == 1 && toks[0].kind == tRecursivePrefix {
		return anyStar() // a lone ** matches everything
	}
	return seqTree(toks, o)
}

func seqTree(toks []token, o GlobOptions) *node {
	seq := seqNode()
	wild := allBytes()
	if o.LiteralSeparator {
		wild = notSlash()
	}
	var buf [utf8.UTFMax]byte
	for _, t := range toks {
		switch t.kind {
		case tLiteral:
			for _, b := range buf[:utf8.EncodeRune(buf[:], t.ch)] {
				seq.add(setNode(literalSet(b, o.CaseInsensitive)))
			}
		case tAny:
			seq.add(setNode(wild))
		case tZeroOrMore:
			seq.add(starNode(wild))
		case tRecursivePrefix: // (?:/?|.*/)
			seq.add(altNode(seqNode(), slashNode(), seqNode(anyStar(), slashNode())))
		case tRecursiveSuffix: // /.*
			seq.add(slashNode(), anyStar())
		case tRecursiveZeroOrMore: // (?:/|/.*/)
			seq.add(altNode(slashNode(), seqNode(slashNode(), anyStar(), slashNode())))
		case tClass:
			seq.add(setNode(classSet(t, o.CaseInsensitive)))
		case tAlternates:
			alt := altNode()
			for _, br := range t.alts {
				if len(br) > 0 { // globset drops empty alternatives
					alt.add(seqTree(br, o))
				}
			}
			if len(alt.kids) > 0 {
				seq.add(alt)
			}
		}
	}
	return seq
}

func countPositions(n *node) int {
	if n.kind == nSet {
		return 1
	}
	total := 0
	for _, k := range n.kids {
		total += countPositions(k)
	}
	return total
}

// bitset is one automaton state: a set of positions.
type bitset [automatonWords]uint64

func (b *bitset) or(o *bitset) {
	for i := range b {
		b[i] |= o[i]
	}
}

// automaton is a Glushkov position automaton. Position p consumes one byte
// from its set; follow[p] are the positions that may come next.
type automaton struct {
	words    int
	nullable bool
	first    bitset
	last     bitset
	follow   []bitset
	classOf  [256]uint8 // byte → equivalence class
	accepts  []bitset   // class → positions whose set holds its bytes
}

type glushkovBuilder struct {
	sets   []byteSet
	follow []bitset
}

func (g *glushkovBuilder) visit(n *node) (nullable bool, first, last bitset) {
	switch n.kind {
	case nSet:
		p := len(g.sets)
		g.sets = append(g.sets, n.set)
		first[p>>6] |= 1 << (p & 63)
		return false, first, first
	case nSeq:
		nullable = true
		for _, k := range n.kids {
			kn, kf, kl := g.visit(k)
			g.link(&last, &kf)
			if nullable {
				first.or(&kf)
			}
			if kn {
				last.or(&kl)
			} else {
				last = kl
			}
			nullable = nullable && kn
		}
		return nullable, first, last
	case nAlt:
		for _, k := range n.kids {
			kn, kf, kl := g.visit(k)
			nullable = nullable || kn
			first.or(&kf)
			last.or(&kl)
		}
		return nullable, first, last
	default: // nStar
		_, kf, kl := g.visit(n.kids[0])
		g.link(&kl, &kf)
		return true, kf, kl
	}
}

// link makes every position in from followable by every position in to.
func (g *glushkovBuilder) link(from, to *bitset) {
	for w, x := range from {
		for x != 0 {
			t := bits.TrailingZeros64(x)
			x &= x - 1
			g.follow[w*64+t].or(to)
		}
	}
}

// newAutomaton compiles a tree with at most maxAutomatonPositions positions.
func newAutomaton(root *node, positions int) *automaton {
	g := &glushkovBuilder{
		sets:   make([]byteSet, 0, positions),
		follow: make([]bitset, positions),
	}
	nullable, first, last := g.visit(root)
	a := &automaton{
		words:    (positions + 63) / 64,
		nullable: nullable,
		first:    first,
		last:     last,
		follow:   g.follow,
	}
	index := map[bitset]uint8{}
	for b := 0; b < 256; b++ {
		var sig bitset
		for p, s := range g.sets {
			if s.has(byte(b)) {
				sig[p>>6] |= 1 << (p & 63)
			}
		}
		c, ok := index[sig]
		if !ok {
			c = uint8(len(a.accepts))
			index[sig] = c
			a.accepts = append(a.accepts, sig)
		}
		a.classOf[b] = c
	}
	return a
}

func (a *automaton) match(s string) bool {
	if len(s) == 0 {
		return a.nullable
	}
	w := a.words
	var cur bitset
	acc := &a.accepts[a.classOf[s[0]]]
	live := uint64(0)
	for i := 0; i < w; i++ {
		cur[i] = a.first[i] & acc[i]
		live |= cur[i]
	}
	for k := 1; k < len(s); k++ {
		if live == 0 {
			return false
		}
		var next bitset
		for i := 0; i < w; i++ {
			for x := cur[i]; x != 0; x &= x - 1 {
				f := &a.follow[i*64+bits.TrailingZeros64(x)]
				for j := 0; j < w; j++ {
					next[j] |= f[j]
				}
			}
		}
		acc = &a.accepts[a.classOf[s[k]]]
		live = 0
		for i := 0; i < w; i++ {
			cur[i] = next[i] & acc[i]
			live |= cur[i]
		}
	}
	for i := 0; i < w; i++ {
		if cur[i]&a.last[i] != 0 {
			return true
		}
	}
	return false
}

// byteRegexp runs a tree on Go's regexp: every byte b of the path becomes
// the rune b, and the tree's byte sets become sets of those runes.
type byteRegexp struct{ re *regexp.Regexp }

func newByteRegexp(root *node) (*byteRegexp, error) {
	var sb strings.Builder
	sb.WriteString(`\A`)
	writeRegexp(&sb, root)
	sb.WriteString(`\z`)
	re, err := regexp.Compile(sb.String())
	if err != nil {
		return nil, err
	}
	return &byteRegexp{re: re}, nil
}

func writeRegexp(sb *strings.Builder, n *node) {
	switch n.kind {
	case nSet:
		writeSet(sb, &n.set)
	case nSeq:
		sb.WriteString("(?:")
		for _, k := range n.kids {
			writeRegexp(sb, k)
		}
		sb.WriteString(")")
	case nAlt:
		sb.WriteString("(?:")
		for i, k := range n.kids {
			if i > 0 {
				sb.WriteString("|")
			}
			writeRegexp(sb, k)
		}
		sb.WriteString(")")
	case nStar:
		sb.WriteString("(?:")
		writeRegexp(sb, n.kids[0])
		sb.WriteString(")*")
	}
}

func writeSet(sb *strings.Builder, s *byteSet) {
	sb.WriteString("[")
	empty := true
	for b := 0; b < 256; {
		if !s.has(byte(b)) {
			b++
			continue
		}
		e := b
		for e+1 < 256 && s.has(byte(e+1)) {
			e++
		}
		fmt.Fprintf(sb, `\x{%x}-\x{%x}`, b, e)
		empty = false
		b = e + 1
	}
	if empty {
		sb.WriteString(`^\x{0}-\x{10FFFF}`)
	}
	sb.WriteString("]")
}

func (r *byteRegexp) match(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			rs := make([]rune, len(s))
			for j := 0; j < len(s); j++ {
				rs[j] = rune(s[j])
			}
			return r.re.MatchString(string(rs))
		}
	}
	return r.re.MatchString(s)
}

// pathMatcher matches a whole path against a compiled glob tree.
type pathMatcher interface {
	match(path string) bool
}

// engine selects how a compiled glob runs.
type engine uint8

const (
	engineAuto   engine = iota // DFA, else NFA, else Go's regexp
	engineNFA                  // the bitset NFA (Go's regexp when too large)
	engineRegexp               // Go's regexp
)

// compileTree compiles a tree: to a DFA when its subset construction
// stays small, else to the bitset NFA, else (a large tree) to Go's regexp.
func compileTree(root *node, eng engine) (pathMatcher, error) {
	n := countPositions(root)
	if n > maxAutomatonPositions || eng == engineRegexp {
		return newByteRegexp(root)
	}
	a := newAutomaton(root, n)
	if eng == engineAuto {
		if d, ok := newDFA(a); ok {
			return d, nil
		}
	}
	return a, nil
}
