package structural

import (
	"errors"
	"fmt"
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// metaKind is what a pattern node stands for.
type metaKind uint8

const (
	notMeta      metaKind = iota
	metaCapture           // $A (or $$A, which may bind an anonymous node)
	metaDropped           // $_
	metaMulti             // $$$
	metaMultiCap          // $$$A
)

// pnode is one node of a compiled pattern.
type pnode struct {
	meta     metaKind
	name     string // metavariable name
	anyNode  bool   // $$A / $$_: anonymous nodes bind too
	kind     uint16
	named    bool
	terminal bool
	text     string
	children []*pnode
}

func (p *pnode) isEllipsis() bool { return p.meta == metaMulti || p.meta == metaMultiCap }

// trivial: an anonymous terminal (skipped after an ellipsis).
func (p *pnode) trivial() bool { return p.meta == notMeta && p.terminal && !p.named }

// Pattern is a compiled code pattern of one language.
type Pattern struct {
	Lang   *Lang
	Source string
	root   *pnode
	// fixed is set when the pattern was read otherwise than ast-grep
	// reads it (see bodyReading).
	fixed bool
	// Warning is set when the pattern itself has a syntax error (it may
	// then match less than meant).
	Warning string
}

// CompilePattern parses src with lang's grammar into a pattern: the
// snippet's single top node, descending through nodes that only wrap one
// child (a statement around an expression), so that an expression pattern
// matches expressions wherever they stand.
func CompilePattern(lang *Lang, src string) (*Pattern, error) {
	if len(src) > MaxPattern {
		return nil, fmt.Errorf("pattern is %d bytes, over the %d KiB cap", len(src), MaxPattern>>10)
	}
	if strings.TrimSpace(src) == "" {
		return nil, errors.New("empty pattern")
	}
	proc := lang.preprocess(src)
	t, err := syntax.ParseCode(lang.Name, []byte(proc))
	if err != nil {
		return nil, fmt.Errorf("cannot parse the pattern: %w", err)
	}
	if len(t.Nodes) == 0 || t.Nodes[0].NumChildren == 0 {
		return nil, fmt.Errorf("no syntax node in the pattern %q", src)
	}
	if !singleNode(t, 0) {
		return nil, fmt.Errorf("the pattern %q is more than one syntax node; give one expression, statement or declaration", src)
	}
	i := int32(0)
	for singleNode(t, i) {
		i = t.FirstChild(i)
	}
	var skip map[uint32]bool
	fixed := false
	if bt, bi, bskip, ok := bodyReading(lang, proc, t, i); ok {
		t, i, skip = bt, bi, bskip
		fixed = true
	}
	p := &Pattern{Lang: lang, Source: src, root: convert(t, i, lang.expando, skip), fixed: fixed}
	if t.Nodes[i].HasError() || t.Kind(i) == "ERROR" {
		// An error in the pattern's own node (not in a wrapper above it,
		// as Go's grammar puts around a call standing alone).
		p.Warning = fmt.Sprintf("the pattern %q has a syntax error in %s's grammar", src, lang.Name)
	}
	return p, nil
}

// singleNode: node i has one child, or two of which the second is missing
// or of an empty kind (some grammars end a statement so).
func singleNode(t *syntax.Tree, i int32) bool {
	switch t.Nodes[i].NumChildren {
	case 1:
		return true
	case 2:
		c := t.Nodes[t.FirstChild(i)].Next
		return t.Nodes[c].Missing() || t.Kind(c) == ""
	}
	return false
}

// convert builds the pattern node of tree node i. The tokens starting at
// the offsets of skip were inserted by bodyReading: they are left out, and
// a node's text is read without them.
func convert(t *syntax.Tree, i int32, expando rune, skip map[uint32]bool) *pnode {
	n := &t.Nodes[i]
	text := t.Text(i)
	if len(skip) != 0 {
		var b []byte
		for k, c := range text {
			if !skip[n.Start+uint32(k)] {
				b = append(b, c)
			}
		}
		text = b
	}
	if m := metaVar(string(text), expando); m != nil {
		return m
	}
	p := &pnode{kind: n.Kind, named: n.Named()}
	if n.NumChildren == 0 {
		p.terminal = true
		p.text = string(text)
		return p
	}
	for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
		if t.Nodes[c].Missing() || skip[t.Nodes[c].Start] && t.Nodes[c].NumChildren == 0 {
			continue
		}
		p.children = append(p.children, convert(t, c, expando, skip))
	}
	return p
}

// metaVar recognises a metavariable's text: $$$, $$$NAME, $NAME, $$NAME,
// $_ (with the expando character in place of $). Names are upper-case
// letters, digits and `_`, not starting with a digit; one starting with `_`
// captures nothing.
func metaVar(s string, sigil rune) *pnode {
	sg := string(sigil)
	three := sg + sg + sg
	if s == three {
		return &pnode{meta: metaMulti}
	}
	if rest, ok := strings.CutPrefix(s, three); ok {
		if !validName(rest, true) {
			return nil
		}
		if rest[0] == '_' {
			return &pnode{meta: metaMulti}
		}
		return &pnode{meta: metaMultiCap, name: rest}
	}
	rest, ok := strings.CutPrefix(s, sg)
	if !ok {
		return nil
	}
	anyNode := false
	if r, ok := strings.CutPrefix(rest, sg); ok {
		rest, anyNode = r, true
	}
	if !validName(rest, false) {
		return nil
	}
	if rest[0] == '_' {
		return &pnode{meta: metaDropped, anyNode: anyNode}
	}
	return &pnode{meta: metaCapture, name: rest, anyNode: anyNode}
}

func validName(s string, _ bool) bool {
	if s == "" || !(s[0] >= 'A' && s[0] <= 'Z' || s[0] == '_') {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c == '_' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// kinds implements Matcher.
func (p *Pattern) kinds() []uint16 {
	if p.root.meta != notMeta {
		return nil
	}
	if p.root.kind == syntax.ErrorKind {
		return nil
	}
	return []uint16{p.root.kind}
}

// match implements Matcher.
func (p *Pattern) match(t *syntax.Tree, i int32, e *env) bool {
	m := e.mark()
	if matchNode(p.root, i, e) == matched {
		return true
	}
	e.undo(m)
	return false
}

// Literals are the texts of the pattern's named terminals (identifiers,
// literals), each of which must occur in a file for the pattern to match
// there (a named terminal matches only a node of equal text). Longest
// first.
func (p *Pattern) Literals() []string {
	seen := map[string]bool{}
	var out []string
	var walk func(n *pnode)
	walk = func(n *pnode) {
		if n.meta != notMeta {
			return
		}
		if n.terminal {
			if n.text != "" && !seen[n.text] && n.named {
				seen[n.text] = true
				out = append(out, n.text)
			}
			return
		}
		for _, c := range n.children {
			walk(c)
		}
	}
	walk(p.root)
	sortLongestFirst(out)
	return out
}

func sortLongestFirst(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && len(s[j]) > len(s[j-1]); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
