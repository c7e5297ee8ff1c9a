package structural

import (
	"bytes"

	"github.com/evgrep/evgrep/syntax"
)

// relational is inside, has, precedes or follows: a node related to the
// candidate matches sub; by default only the nearest (the parent, a
// direct child, the next or previous sibling), with stopBy end all of
// them, with a stopBy rule up to and including the first that matches it.
type relational struct {
	op    string
	sub   Matcher
	toEnd bool
	stop  Matcher
	// field, when not 0, is the grammar's field the related node must
	// stand in (the first child in it, as tree-sitter finds a field):
	// for has, the child searched from (its subtree with stopBy); for
	// inside, the child of each ancestor on the way up.
	field uint8
}

func (r *relational) kinds() []uint16 { return nil }

func (r *relational) match(t *syntax.Tree, i int32, e *env) bool {
	try := func(j int32) (found, stop bool) {
		e.budget--
		if e.budget < 0 {
			return false, true
		}
		if r.sub.match(t, j, e) {
			return true, true
		}
		if r.stop != nil {
			m := e.mark()
			s := r.stop.match(t, j, e)
			e.undo(m)
			return false, s
		}
		return false, !r.toEnd
	}
	switch r.op {
	case "inside":
		prev := i
		for p := t.Nodes[i].Parent; p >= 0; prev, p = p, t.Nodes[p].Parent {
			if r.field != 0 && fieldChild(t, p, r.field) != prev {
				// Not through the field: the ancestor is no match, but
				// may still stop the search.
				if !r.toEnd && r.stop == nil {
					return false
				}
				if r.stop != nil {
					e.budget--
					m := e.mark()
					s := r.stop.match(t, p, e)
					e.undo(m)
					if s {
						return false
					}
				}
				continue
			}
			if f, s := try(p); f || s {
				return f
			}
		}
	case "has":
		if !r.toEnd && r.stop == nil {
			for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
				if r.field != 0 && c != fieldChild(t, i, r.field) {
					continue
				}
				if f, _ := try(c); f {
					return true
				}
			}
			return false
		}
		// Pre-order over the descendants; a stop node's own subtree is
		// not entered.
		stack := []int32{}
		for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
			if r.field == 0 || c == fieldChild(t, i, r.field) {
				stack = append(stack, c)
			}
		}
		for k, j := 0, len(stack)-1; k < j; k, j = k+1, j-1 {
			stack[k], stack[j] = stack[j], stack[k]
		}
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			f, s := try(j)
			if f {
				return true
			}
			if s && r.stop != nil || e.budget < 0 {
				continue
			}
			var kids []int32
			for c := t.FirstChild(j); c >= 0; c = t.Nodes[c].Next {
				kids = append(kids, c)
			}
			for k := len(kids) - 1; k >= 0; k-- {
				stack = append(stack, kids[k])
			}
		}
	case "precedes":
		for s := t.Nodes[i].Next; s >= 0; s = t.Nodes[s].Next {
			if blankToken(t, s) {
				continue
			}
			if f, st := try(s); f || st {
				return f
			}
		}
	case "follows":
		p := t.Nodes[i].Parent
		if p < 0 {
			return false
		}
		var prev []int32
		for c := t.FirstChild(p); c >= 0 && c != i; c = t.Nodes[c].Next {
			if !blankToken(t, c) {
				prev = append(prev, c)
			}
		}
		for k := len(prev) - 1; k >= 0; k-- {
			if f, st := try(prev[k]); f || st {
				return f
			}
		}
	}
	return false
}

// blankToken: an anonymous token of white space only (Go's newline
// terminator), which ast-grep's grammars leave out of the tree. Every other
// sibling is a neighbor for precedes and follows, anonymous ones too: with
// stopBy neighbor a separator (Go's `;`, a `,`) stands between two nodes.
func blankToken(t *syntax.Tree, i int32) bool {
	if t.Nodes[i].Named() || t.Nodes[i].NumChildren != 0 {
		return false
	}
	return len(bytes.TrimSpace(t.Text(i))) == 0
}

// fieldChild is the first child of node p in field f (what tree-sitter's
// child_by_field_id finds, and ast-grep relates through), or -1.
func fieldChild(t *syntax.Tree, p int32, f uint8) int32 {
	for c := t.FirstChild(p); c >= 0; c = t.Nodes[c].Next {
		if t.Nodes[c].FieldID() == f {
			return c
		}
	}
	return -1
}
