package syntax

import "bytes"

// phpOpenTag is put before a PHP source that has no opening tag, so that
// the grammar reads it as code (see ParseCode).
const phpOpenTag = "<?php "

// ParseCode parses src as code of lang, the way ast-grep 0.51.1 reads a
// source. For every language but PHP, JavaScript, TypeScript and TSX it is
// ParseFlatOnce (a search parses each file once: no tree is cached). The JavaScript grammars compiled in here start the `<`, `</`
// or `{` of a JSX tag or expression that follows JSX text at the white
// space before it (and so the element); the newer ones ast-grep uses
// start them at the token, and so does ParseCode. The Kotlin grammar
// compiled in ends a `return` before a value that starts with the letter
// e (`return emptyMap()`: its scanner's look-ahead for `else` ends the
// statement there), leaving the value a statement of its own; the newer
// one returns the value, and so does ParseCode. ast-grep parses PHP
// with the "PHP only" variant of a newer PHP grammar (0.24), in which a
// file is statements from its first byte; the full grammar compiled in
// here reads the same code alike once it opens with a tag, so:
//
//   - a source without an opening tag (`<?`, after any white space) is
//     parsed behind an added tag, which is then taken out of the tree and
//     every offset moved back onto src;
//   - the two places where the newer grammar's tree differs are rebuilt
//     as it has them: it has no namespace_name_as_prefix,
//     namespace_aliasing_clause or property_initializer node (their
//     children stand in their place), the type `object` is a
//     primitive_type, the `[$k, $v]` of `foreach ($m as [$k, $v])` is a
//     list_literal of the variables, and the `function` or `const` of
//     `use function a;` starts the first namespace_use_clause.
func ParseCode(lang Language, src []byte) (*Tree, error) {
	switch lang {
	case JavaScript, TypeScript, TSX:
		t, err := ParseFlatOnce(lang, src)
		if err != nil {
			return nil, err
		}
		return jsxTagsAsNewer(t), nil
	case Kotlin:
		t, err := ParseFlatOnce(lang, src)
		if err != nil {
			return nil, err
		}
		return kotlinReturnsAsNewer(t), nil
	case PHP:
	default:
		return ParseFlatOnce(lang, src)
	}
	lead := 0
	parsed := src
	if !opensWithTag(src) {
		lead = len(phpOpenTag)
		parsed = make([]byte, 0, lead+len(src))
		parsed = append(append(parsed, phpOpenTag...), src...)
	}
	t, err := ParseFlatOnce(lang, parsed)
	if err != nil {
		return nil, err
	}
	if lead == 0 && !hasKind(t, "namespace_name_as_prefix", "namespace_aliasing_clause", "property_initializer", "namespace_use_declaration", "named_type", "foreach_statement") {
		return t, nil
	}
	root := unflatten(t, 0)
	if lead > 0 {
		dropLead(root, uint32(lead))
	}
	phpAsNewer(t, src, root)
	out := &Tree{Lang: t.Lang, Src: src, HasError: t.HasError, kinds: t.kinds}
	out.Nodes = make([]Node, 0, len(t.Nodes))
	out.Nodes = flatten(root, -1, out.Nodes)
	return out, nil
}

// opensWithTag: src starts, after white space, with a PHP opening tag.
func opensWithTag(src []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(src, " \t\r\n\f"), []byte("<?"))
}

func hasKind(t *Tree, names ...string) bool {
	for _, name := range names {
		if id, ok := t.kinds.byName[name]; ok {
			for i := range t.Nodes {
				if t.Nodes[i].Kind == id {
					return true
				}
			}
		}
	}
	return false
}

// tnode is a node of a tree being rebuilt: its flat node (Parent, Next
// and NumChildren are recomputed by flatten) and its children.
type tnode struct {
	n    Node
	kind string
	kids []*tnode
}

func unflatten(t *Tree, i int32) *tnode {
	n := &tnode{n: t.Nodes[i], kind: t.Kind(i)}
	if !t.Nodes[i].Named() {
		n.kind = "\x00" + n.kind // anonymous kinds apart from named ones
	}
	for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
		n.kids = append(n.kids, unflatten(t, c))
	}
	return n
}

// flatten appends n's subtree in pre-order under parent.
func flatten(n *tnode, parent int32, out []Node) []Node {
	me := int32(len(out))
	nd := n.n
	nd.Parent, nd.Next, nd.NumChildren = parent, -1, uint32(len(n.kids))
	out = append(out, nd)
	prev := int32(-1)
	for _, k := range n.kids {
		at := int32(len(out))
		if prev >= 0 {
			out[prev].Next = at
		}
		out = flatten(k, me, out)
		prev = at
	}
	return out
}

// dropLead removes the leaf of the added tag (the first leaf, at offset
// 0) and moves every range back by lead bytes; the leaf's ancestors then
// start at their first remaining child, as tree-sitter starts a node at
// its first token.
func dropLead(root *tnode, lead uint32) {
	var path []*tnode
	for n := root; len(n.kids) > 0 && n.kids[0].n.Start == 0; n = n.kids[0] {
		path = append(path, n)
		if k := n.kids[0]; len(k.kids) == 0 {
			if k.n.End == lead-1 {
				n.kids = n.kids[1:]
			} else {
				path = nil
			}
			break
		}
	}
	shiftAll(root, lead)
	for i := len(path) - 1; i >= 0; i-- {
		n := path[i]
		if len(n.kids) > 0 {
			n.n.Start = n.kids[0].n.Start
		} else {
			n.n.Start = n.n.End
		}
	}
}

func shiftAll(n *tnode, lead uint32) {
	shift(&n.n, lead)
	for _, k := range n.kids {
		shiftAll(k, lead)
	}
}

// shift moves a range back by lead bytes (a range within them ends at 0).
func shift(n *Node, lead uint32) {
	n.Start = max(n.Start, lead) - lead
	n.End = max(n.End, lead) - lead
}

// phpListOfVariables: every element of the array is a variable (what a
// list_literal of the newer grammar holds), none a bare name.
func phpListOfVariables(a *tnode) bool {
	for _, e := range a.kids {
		if e.kind == "array_element_initializer" && (len(e.kids) != 1 || e.kids[0].kind == "name" || e.kids[0].kind == "qualified_name") {
			return false
		}
	}
	return true
}

// phpSpliced are the kinds the newer grammar does not have: their
// children stand in their place.
var phpSpliced = map[string]bool{"namespace_name_as_prefix": true, "namespace_aliasing_clause": true, "property_initializer": true}

// phpAsNewer rebuilds the parts of a PHP tree where the newer grammar
// ast-grep uses differs from the one compiled in (see ParseCode).
func phpAsNewer(t *Tree, src []byte, n *tnode) {
	var kids []*tnode
	for _, k := range n.kids {
		phpAsNewer(t, src, k)
		if phpSpliced[k.kind] {
			kids = append(kids, k.kids...)
			continue
		}
		kids = append(kids, k)
	}
	n.kids = kids
	if n.kind == "named_type" && len(n.kids) == 1 && n.kids[0].kind == "name" &&
		bytes.EqualFold(src[n.n.Start:n.n.End], []byte("object")) {
		// `object` is a primitive type there, its keyword anonymous.
		if id, ok := t.kinds.byName["primitive_type"]; ok {
			n.kind, n.n.Kind = "primitive_type", id
			k := n.kids[0]
			k.kind, k.n.flags = "\x00object", k.n.flags&^flagNamed
			for i, name := range t.kinds.names {
				if name == "object" && uint16(i) != t.kinds.byName["object"] {
					k.n.Kind = uint16(i)
					break
				}
			}
		}
	}
	if n.kind == "foreach_statement" {
		// `foreach ($m as [$k, $v])`: the target is a list_literal of
		// the values, not an array of initializers.
		for i := 1; i < len(n.kids); i++ {
			k := n.kids[i]
			id, ok := t.kinds.byName["list_literal"]
			if !ok || k.kind != "array_creation_expression" || n.kids[i-1].kind != "\x00as" {
				continue
			}
			if !phpListOfVariables(k) {
				// A list of names (a pattern's metavariables) is an
				// array to the newer grammar too.
				continue
			}
			k.kind, k.n.Kind = "list_literal", id
			var kids []*tnode
			for _, e := range k.kids {
				if e.kind == "array_element_initializer" && len(e.kids) == 1 {
					kids = append(kids, e.kids[0])
					continue
				}
				kids = append(kids, e)
			}
			k.kids = kids
		}
	}
	if n.kind == "namespace_use_declaration" {
		for i := 0; i+1 < len(n.kids); i++ {
			k, next := n.kids[i], n.kids[i+1]
			if (k.kind == "\x00function" || k.kind == "\x00const") && next.kind == "namespace_use_clause" {
				next.kids = append([]*tnode{k}, next.kids...)
				next.n.Start = k.n.Start
				n.kids = append(n.kids[:i], n.kids[i+1:]...)
				break
			}
		}
	}
}

// jsxTagsAsNewer returns t, or a copy of it in which every `<`, `</` and
// `{` token that starts with white space (a JSX tag or expression after
// JSX text) starts after it, and so do the ancestors that started with
// the token.
func jsxTagsAsNewer(t *Tree) *Tree {
	var out *Tree
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.Named() || n.NumChildren != 0 || n.Start >= n.End || !jsxSpace(t.Src[n.Start]) {
			continue
		}
		if k := t.Kind(int32(i)); k != "<" && k != "</" && k != "{" {
			continue
		}
		if out == nil {
			out = &Tree{Lang: t.Lang, Src: t.Src, HasError: t.HasError, kinds: t.kinds}
			out.Nodes = append([]Node(nil), t.Nodes...)
		}
		old := n.Start
		at := old
		for at < n.End && jsxSpace(t.Src[at]) {
			at++
		}
		for j := int32(i); j >= 0 && out.Nodes[j].Start == old; j = out.Nodes[j].Parent {
			out.Nodes[j].Start = at
		}
	}
	if out == nil {
		return t
	}
	return out
}

// jsxSpace: white space before a JSX tag.
func jsxSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

// ParseRegions parses each region of src (a byte range) as a document of
// lang of its own, as ParseCode parses a source, and returns them as one
// Tree over src: the regions' trees one after another, each moved to its
// region's offset, each with its own root (Parent -1). It is how a block
// embedded in another language's file (a <script> of an HTML page) is
// searched with the offsets of the file. Regions must be in order and not
// overlap.
func ParseRegions(lang Language, src []byte, regions [][2]int) (*Tree, error) {
	out := &Tree{Lang: lang, Src: src}
	for _, r := range regions {
		if r[0] < 0 || r[1] < r[0] || r[1] > len(src) {
			return nil, &Error{"region out of the source"}
		}
		t, err := ParseCode(lang, src[r[0]:r[1]])
		if err != nil {
			return nil, err
		}
		out.kinds = t.kinds
		out.HasError = out.HasError || t.HasError
		base := int32(len(out.Nodes))
		off := uint32(r[0])
		for _, n := range t.Nodes {
			n.Start += off
			n.End += off
			if n.Parent >= 0 {
				n.Parent += base
			}
			if n.Next >= 0 {
				n.Next += base
			}
			out.Nodes = append(out.Nodes, n)
		}
	}
	if out.kinds == nil {
		k, err := kinds(lang)
		if err != nil {
			return nil, err
		}
		out.kinds = k
	}
	return out, nil
}

// kotlinReturnsAsNewer returns t, or, where a bare `return` is followed
// on its line by a value that starts with `e`, a rebuilt tree in which
// that value (the next statement) is the return's value and the nodes
// that ended with the `return` end with the value.
func kotlinReturnsAsNewer(t *Tree) *Tree {
	found := false
	for i := range t.Nodes {
		if t.Nodes[i].NumChildren == 1 && t.Kind(int32(i)) == "jump_expression" {
			found = true
			break
		}
	}
	if !found {
		return t
	}
	root := unflatten(t, 0)
	if !kotlinJoinReturns(t.Src, root) {
		return t
	}
	out := &Tree{Lang: t.Lang, Src: t.Src, HasError: t.HasError, kinds: t.kinds}
	out.Nodes = flatten(root, -1, make([]Node, 0, len(t.Nodes)))
	return out
}

func kotlinJoinReturns(src []byte, n *tnode) bool {
	changed := false
	for i := 0; i < len(n.kids); i++ {
		if kotlinJoinReturns(src, n.kids[i]) {
			changed = true
		}
		if i+1 >= len(n.kids) {
			break
		}
		// The chain of last children that ends with a bare return.
		var chain []*tnode
		for k := n.kids[i]; ; k = k.kids[len(k.kids)-1] {
			chain = append(chain, k)
			if k.kind == "jump_expression" || len(k.kids) == 0 || k.kids[len(k.kids)-1].n.End != k.n.End {
				break
			}
		}
		j := chain[len(chain)-1]
		if j.kind != "jump_expression" || len(j.kids) != 1 || j.kids[0].kind != "\x00return" {
			continue
		}
		next := n.kids[i+1]
		gap := src[j.n.End:next.n.Start]
		if len(bytes.Trim(gap, " \t")) != 0 || len(gap) == 0 || src[next.n.Start] != 'e' || !next.n.Named() {
			continue
		}
		j.kids = append(j.kids, next)
		for _, c := range chain {
			c.n.End = next.n.End
		}
		n.kids = append(n.kids[:i+1], n.kids[i+2:]...)
		changed = true
	}
	return changed
}
