//go:build cgo

package syntax

import (
	"sort"
	"strings"
	"sync"

	"github.com/evgrep/evgrep/internal/textpos"
	sitter "github.com/smacker/go-tree-sitter"
)

// Supported reports whether a parser for lang is compiled in (always, for
// the known languages, in a cgo build).
func Supported(lang Language) bool { return grammars()[lang] != nil }

// grammar is one language's parser plus the rules that turn its tree into
// declarations.
type grammar struct {
	get      func() *sitter.Language
	once     sync.Once
	lang     *sitter.Language
	names    []string // node type by symbol
	classify func(b *builder, n *sitter.Node, typ string, parent int) (found, bool)
	// wraps reports whether parent is a wrapper that belongs to its child
	// declaration (export, decorators, template, a one-spec Go type group).
	wraps func(b *builder, parent, child *sitter.Node, parentTyp string) bool
	// attach lists node types that attach to the declaration below them
	// (comments, attributes, decorators).
	attach map[string]bool
	// decoration lists node types skipped at the start of a signature.
	decoration map[string]bool
	// skip lists node types whose children hold no declarations.
	skip map[string]bool
	// descend, when set, lists the only node types whose children are
	// searched (a faster alternative to skip).
	descend map[string]bool
	// exported reports whether a declaration is public (Decl.Exported):
	// n is the classified node, outer the node with its wrappers, pre the
	// attached comments and attributes above it.
	exported func(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool
	// finish, when set, runs after the walk (Lua's returned module table).
	finish func(b *builder)
	// climb: comments above a declaration that begins its parent node are
	// looked for above that parent too (YAML: the comment above a
	// document belongs to its first key).
	climb bool
}

// load prepares the grammar's symbol table once.
func (g *grammar) init() {
	g.once.Do(func() {
		g.lang = g.get()
		n := int(g.lang.SymbolCount())
		g.names = make([]string, n)
		for i := 0; i < n; i++ {
			g.names[i] = g.lang.SymbolName(sitter.Symbol(i))
		}
	})
}

// typ is the node type of n without a C string conversion.
func (g *grammar) typ(n *sitter.Node) string {
	s := int(n.Symbol())
	if s < len(g.names) {
		return g.names[s]
	}
	if n.IsError() {
		return "ERROR"
	}
	return n.Type()
}

// found is a declaration that classify recognised.
type found struct {
	kind, name string
	// bodyStart is the byte where the body begins (the signature stops
	// there), or -1 when the declaration has no body.
	bodyStart int
	container bool
	// leaf: the node's children hold no further declarations.
	leaf bool
	// headerOnly: the declaration is only its header (a C# namespace
	// block); what its body declares is top-level, as if outside it.
	headerOnly bool
}

// parse runs tree-sitter over src and builds its index.
func parse(lang Language, src []byte) (*index, error) {
	g := grammars()[lang]
	if g == nil {
		return nil, ErrNoParser
	}
	tree, err := g.parseTree(src)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	b := &builder{g: g, src: src, lt: textpos.NewLines(src), kids: map[uintptr][]*sitter.Node{}}
	root := tree.RootNode()
	b.walk(root)
	b.applyExportLists()
	if g.finish != nil {
		g.finish(b)
	}
	if root.HasError() {
		b.collectErrors(root)
	}
	return &index{recs: b.recs, errs: b.errs, lines: b.lt.Count()}, nil
}

// builder walks one tree.
type builder struct {
	g    *grammar
	src  []byte
	lt   *textpos.Lines
	recs []rec
	errs []span
	kids map[uintptr][]*sitter.Node // children by parent, for siblings
	// onlyNames, when set (Python's __all__), are the only exported
	// top-level names; alsoNames (a JavaScript export list) are exported
	// besides those marked so.
	onlyNames, alsoNames map[string]bool
}

// applyExportLists applies __all__ and export lists to the top-level
// declarations.
func (b *builder) applyExportLists() {
	for i := range b.recs {
		r := &b.recs[i]
		if r.parent >= 0 {
			continue
		}
		if b.onlyNames != nil {
			r.Exported = b.onlyNames[r.Name]
		}
		if b.alsoNames[r.Name] {
			r.Exported = true
		}
	}
}

// text is the source of n.
func (b *builder) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	s, e := int(n.StartByte()), int(n.EndByte())
	if s < 0 || e > len(b.src) || s > e {
		return ""
	}
	return string(b.src[s:e])
}

// trim is n's byte range without leading and trailing white space (some
// grammars, Lua's and Scala's, let a node take in the blank space around
// it); a node of white space only keeps its range.
func (b *builder) trim(n *sitter.Node) (int, int) {
	s, e := int(n.StartByte()), int(n.EndByte())
	if s < 0 || e > len(b.src) || s > e {
		return s, s
	}
	ts, te := s, e
	for ts < te && isSpace(b.src[ts]) {
		ts++
	}
	for te > ts && isSpace(b.src[te-1]) {
		te--
	}
	if ts == te {
		return s, e // all white space (a newline token): left as it is
	}
	return ts, te
}

// firstLine is the line of the node's first byte, lastLine that of its
// last one (white space around the node left out).
func (b *builder) firstLine(n *sitter.Node) int {
	s, _ := b.trim(n)
	return b.lt.Line(s)
}

func (b *builder) lastLine(n *sitter.Node) int {
	s, e := b.trim(n)
	if e > s {
		e--
	}
	return b.lt.Line(e)
}

// item is a node waiting in the walk with the declaration that encloses it.
type item struct {
	n      *sitter.Node
	parent int
}

// walk records every declaration in pre-order. It keeps its own stack, so
// deeply nested sources cannot exhaust the goroutine stack.
func (b *builder) walk(root *sitter.Node) {
	stack := []item{{root, -1}}
	var kids []*sitter.Node
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.n
		typ := b.g.typ(n)
		parent := it.parent
		if f, ok := b.g.classify(b, n, typ, parent); ok {
			if b.keep(n, parent) {
				if i := b.record(n, f, parent); !f.headerOnly {
					parent = i
				}
			}
			if f.leaf {
				continue
			}
		}
		if n.IsError() || b.g.skip[typ] || (b.g.descend != nil && !b.g.descend[typ]) {
			continue
		}
		// Inside a function body only multi-line declarations are kept
		// (see keep), and a single-line node holds none.
		if parent >= 0 && !b.recs[parent].container && b.firstLine(n) == b.lastLine(n) {
			continue
		}
		cnt := int(n.NamedChildCount())
		kids = kids[:0]
		for i := 0; i < cnt; i++ {
			if c := n.NamedChild(i); c != nil && c.NamedChildCount() > 0 {
				kids = append(kids, c)
			}
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], parent})
		}
	}
}

// keep drops one-line declarations local to a function body: for a line
// there, the enclosing function is the better answer.
func (b *builder) keep(n *sitter.Node, parent int) bool {
	if parent < 0 || b.recs[parent].container {
		return true
	}
	return b.firstLine(n) != b.lastLine(n)
}

// record appends the declaration of node n and returns its index.
func (b *builder) record(n *sitter.Node, f found, parent int) int {
	outer := n
	for {
		p := outer.Parent()
		if p == nil || !b.g.wraps(b, p, outer, b.g.typ(p)) {
			break
		}
		outer = p
	}
	sigStart := b.sigStart(outer)
	start := b.attached(outer)
	own, _ := b.trim(outer)
	first, last := b.lt.Line(start), b.lastLine(outer)
	if f.headerOnly {
		last = b.header(Decl{}, sigStart, f.bodyStart).EndLine
	}
	sb, eb := b.lt.Range(first, last)
	r := rec{
		Decl: Decl{
			Kind: f.kind, Name: clip(f.name),
			StartLine: first, EndLine: last, StartByte: sb, EndByte: eb,
			Signature: b.signature(sigStart, f.bodyStart, int(outer.EndByte())),
		},
		parent:    parent,
		container: f.container,
		hasErr:    outer.HasError(),
	}
	if b.g.exported != nil {
		r.Exported = b.g.exported(b, n, outer, f, parent, b.src[start:own])
	}
	if f.container {
		r.header = b.header(r.Decl, sigStart, f.bodyStart)
	}
	b.recs = append(b.recs, r)
	return len(b.recs) - 1
}

// attached is the start byte of the comments, attributes and decorators
// directly above outer (no blank line between), or outer's own start.
func (b *builder) attached(outer *sitter.Node) int {
	start, _ := b.trim(outer)
	top := b.lt.Line(start)
	kids, i := b.siblings(outer)
	if b.g.climb {
		kids, i = b.climbFirst(outer, kids, i)
	}
	for i--; i >= 0; i-- {
		p := kids[i]
		if !p.IsNamed() {
			continue
		}
		if !b.g.attach[b.g.typ(p)] || b.lastLine(p) < top-1 {
			break // not a comment, or a blank line between
		}
		txt := b.text(p)
		if strings.HasPrefix(txt, "#!") || strings.HasPrefix(txt, "//!") || strings.HasPrefix(txt, "/*!") {
			break // a shebang or an inner doc comment belongs to the file
		}
		// A comment that trails code on its own first line belongs there.
		if i > 0 {
			if q := kids[i-1]; !b.g.attach[b.g.typ(q)] && b.lastLine(q) == b.firstLine(p) {
				break
			}
		}
		start, _ = b.trim(p)
		top = b.firstLine(p)
	}
	return start
}

// climbFirst goes up from n while it is the first named child of its
// parent and starts where the parent starts, and returns the siblings of
// the node reached and its place among them.
func (b *builder) climbFirst(n *sitter.Node, kids []*sitter.Node, i int) ([]*sitter.Node, int) {
	for depth := 0; depth < 8 && i >= 0; depth++ {
		first := true
		for j := 0; j < i; j++ {
			if kids[j].IsNamed() {
				first = false
				break
			}
		}
		p := n.Parent()
		if !first || p == nil || p.StartByte() != n.StartByte() || p.Parent() == nil {
			break
		}
		pk, pi := b.siblings(p)
		if pi < 0 {
			break
		}
		n, kids, i = p, pk, pi
	}
	return kids, i
}

// siblings returns the children of n's parent and n's place among them
// (-1 when n has no parent). Children lists are kept per parent, as
// tree-sitter finds a previous sibling by scanning from the first one.
func (b *builder) siblings(n *sitter.Node) ([]*sitter.Node, int) {
	p := n.Parent()
	if p == nil {
		return nil, -1
	}
	kids, ok := b.kids[p.ID()]
	if !ok {
		cnt := int(p.ChildCount())
		kids = make([]*sitter.Node, 0, cnt)
		for i := 0; i < cnt; i++ {
			if c := p.Child(i); c != nil {
				kids = append(kids, c)
			}
		}
		b.kids[p.ID()] = kids
	}
	s := n.StartByte()
	i := sort.Search(len(kids), func(i int) bool { return kids[i].StartByte() >= s })
	for ; i < len(kids) && kids[i].StartByte() == s; i++ {
		if kids[i].Equal(n) {
			return kids, i
		}
	}
	return nil, -1
}

// sigStart is where outer's signature starts: after its leading
// decorators, attributes and annotations, and white space.
func (b *builder) sigStart(outer *sitter.Node) int {
	s := b.sigNode(outer)
	for s < int(outer.EndByte()) && s < len(b.src) && isSpace(b.src[s]) {
		s++
	}
	return s
}

// sigNode is the start of the first child of outer that is no decoration.
func (b *builder) sigNode(outer *sitter.Node) int {
	cnt := int(outer.ChildCount())
	for i := 0; i < cnt; i++ {
		c := outer.Child(i)
		if c == nil {
			continue
		}
		t := b.g.typ(c)
		if b.g.decoration[t] {
			continue
		}
		if t == "modifiers" { // Java: annotations, then keywords
			mc := int(c.ChildCount())
			for j := 0; j < mc; j++ {
				m := c.Child(j)
				if m != nil && !b.g.decoration[b.g.typ(m)] {
					return int(m.StartByte())
				}
			}
			continue
		}
		return int(c.StartByte())
	}
	return int(outer.StartByte())
}

// signature collapses src from start up to the body (or, without one, the
// end of the first line).
func (b *builder) signature(start, body, end int) string {
	if body > start && body <= len(b.src) {
		end = body
	} else if i := strings.IndexByte(string(b.src[start:end]), '\n'); i >= 0 {
		end = start + i
	}
	if start < 0 || start > end || end > len(b.src) {
		return ""
	}
	return collapse(b.src[start:end])
}

// header is a container's header: from the signature's line to the line
// where its body opens (the `{` line, or the line ending in `:`).
func (b *builder) header(d Decl, sigStart, body int) *Decl {
	first := b.lt.Line(sigStart)
	last := first
	if body > sigStart && body <= len(b.src) {
		e := body
		for e > sigStart && isSpace(b.src[e-1]) {
			e--
		}
		last = b.lt.Line(e - 1)
		if body < len(b.src) && b.src[body] == '{' {
			last = b.lt.Line(body)
		}
	}
	if last < first {
		last = first
	}
	sb, eb := b.lt.Range(first, last)
	return &Decl{Kind: d.Kind, Name: d.Name, StartLine: first, EndLine: last, StartByte: sb, EndByte: eb, Signature: d.Signature}
}

// collectErrors records the line spans of ERROR and MISSING nodes,
// descending only where tree-sitter reports an error below.
func (b *builder) collectErrors(root *sitter.Node) {
	stack := []*sitter.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.IsError() || n.IsMissing() {
			b.errs = append(b.errs, span{b.firstLine(n), b.lastLine(n)})
			continue
		}
		cnt := int(n.ChildCount())
		for i := cnt - 1; i >= 0; i-- {
			if c := n.Child(i); c != nil && c.HasError() {
				stack = append(stack, c)
			}
		}
	}
}

// Helpers shared by the language rules.

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// clip bounds a name like a signature.
func clip(s string) string {
	if len(s) <= MaxSignature && !strings.ContainsAny(s, "\n\t\r") {
		return s
	}
	return collapse([]byte(s))
}

// field is n's child under a field name, or nil.
func field(n *sitter.Node, name string) *sitter.Node {
	if n == nil {
		return nil
	}
	return n.ChildByFieldName(name)
}

// start is a node's start byte, or -1 for nil.
func start(n *sitter.Node) int {
	if n == nil {
		return -1
	}
	return int(n.StartByte())
}

// childOfType is n's first child (named or not) of type t, or nil.
func (b *builder) childOfType(n *sitter.Node, t string) *sitter.Node {
	cnt := int(n.ChildCount())
	for i := 0; i < cnt; i++ {
		if c := n.Child(i); c != nil && b.g.typ(c) == t {
			return c
		}
	}
	return nil
}

// parentTyp is the type of n's parent, or "".
func (b *builder) parentTyp(n *sitter.Node) string {
	if p := n.Parent(); p != nil {
		return b.g.typ(p)
	}
	return ""
}

// parentKind is the kind of the declaration at index i, or "" for -1.
func (b *builder) parentKind(i int) string {
	if i < 0 {
		return ""
	}
	return b.recs[i].Kind
}

// set builds a lookup table.
func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, s := range names {
		m[s] = true
	}
	return m
}
