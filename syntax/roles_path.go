//go:build cgo

package syntax

import sitter "github.com/smacker/go-tree-sitter"

// frame is one node on the path from the root to an occurrence, with the
// field its parent holds it under.
type frame struct {
	n          *sitter.Node
	typ, field string
	// bad: this node or an ancestor is an error or a missing node.
	bad bool
	// The index in the path of the nearest frame at or above this one
	// that is a comment, a string, an import or a type context (-1:
	// none), so that a role never walks the whole path.
	comment, str, imp, typeCtx int32
	// memo caches a hook's per-node answers (bits the hook defines), as
	// a frame stays on the path across the occurrences below it.
	memo uint8
}

// push appends the frame of node n (held under field) to path.
func (rr *roleRules) push(g *grammar, path []frame, n *sitter.Node, field string) []frame {
	f := frame{n: n, typ: g.typ(n), field: field, comment: -1, str: -1, imp: -1, typeCtx: -1}
	k := int32(len(path))
	if k > 0 {
		p := &path[k-1]
		f.bad, f.comment, f.str, f.imp, f.typeCtx = p.bad, p.comment, p.str, p.imp, p.typeCtx
	}
	f.bad = f.bad || n.IsError() || n.IsMissing()
	if rr.comment[f.typ] {
		f.comment = k
	}
	if rr.str[f.typ] {
		f.str = k
	}
	if rr.imports[f.typ] {
		f.imp = k
	}
	if rr.typeCtx[f.typ] {
		f.typeCtx = k
	}
	return append(path, f)
}

// contains: n holds [s, e) and is not empty.
func contains(n *sitter.Node, s, e uint32) bool {
	return n.StartByte() <= s && n.EndByte() >= e && n.EndByte() > n.StartByte()
}

// descend moves path (and cur, at its last node) to the smallest node that
// contains [s, e), for occurrences in source order: it climbs from the
// previous occurrence's node only as far as needed, and at each level goes
// on from the child it was at, so that the whole classification is linear
// in the tree's size and the number of occurrences, however deep the
// nesting or wide the nodes. (It steps through the children itself: the
// binding's GoToFirstChildForByte misses children after a zero-width or
// extra node.)
func (rr *roleRules) descend(g *grammar, cur *sitter.TreeCursor, s, e uint32, path []frame) []frame {
	// Up: the first child that holds [s, e) comes at or after the one on
	// the path, since occurrences come in order.
	for len(path) > 1 && !contains(path[len(path)-1].n, s, e) {
		moved := false
		for n := path[len(path)-1].n; n.StartByte() <= s && cur.GoToNextSibling(); {
			n = cur.CurrentNode()
			if contains(n, s, e) {
				path = rr.push(g, path[:len(path)-1], n, cur.CurrentFieldName())
				moved = true
				break
			}
		}
		if moved {
			break
		}
		cur.GoToParent()
		path = path[:len(path)-1]
	}
	// Down, as far as a child holds [s, e).
	for cur.GoToFirstChild() {
		found := false
		for {
			n := cur.CurrentNode()
			if contains(n, s, e) {
				path = rr.push(g, path, n, cur.CurrentFieldName())
				found = true
				break
			}
			if n.StartByte() > s || !cur.GoToNextSibling() {
				break
			}
		}
		if !found {
			cur.GoToParent()
			break
		}
	}
	return path
}
