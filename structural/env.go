package structural

import (
	"bytes"
	"sort"
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// binding is one metavariable's value while matching.
type binding struct {
	name  string
	multi bool
	nodes []int32
}

// env holds the bindings of one match attempt, with a step budget shared
// by all attempts on one file.
type env struct {
	t        *syntax.Tree
	bindings []binding
	budget   int
	kidsBuf  [][]int32 // reusable child lists, by depth
	depth    int
	comments map[uint16]bool // kinds that are comments, by symbol
	// lineStarts are the offsets of the source's lines (range rules),
	// computed on first use.
	lineStarts []int
	// utilDepth counts the utility rules being matched (matches).
	utilDepth int
}

// commentKind: nodes of kind k are comments (ast-grep: the kind's name
// contains "comment").
func (e *env) commentKind(k uint16) bool {
	c, ok := e.comments[k]
	if !ok {
		if e.comments == nil {
			e.comments = map[uint16]bool{}
		}
		c = strings.Contains(syntax.KindName(e.t.Lang, k), "comment")
		e.comments[k] = c
	}
	return c
}

func (e *env) reset() { e.bindings = e.bindings[:0] }

// mark and undo bracket an attempt whose bindings are dropped on failure.
func (e *env) mark() int  { return len(e.bindings) }
func (e *env) undo(m int) { e.bindings = e.bindings[:m] }

func (e *env) lookup(name string, multi bool) *binding {
	for i := range e.bindings {
		b := &e.bindings[i]
		if b.name == name && b.multi == multi {
			return b
		}
	}
	return nil
}

// bindOne binds $name to node i, or checks it against an earlier binding.
func (e *env) bindOne(name string, i int32) bool {
	if b := e.lookup(name, false); b != nil {
		return sameCode(e.t, b.nodes[0], i)
	}
	e.bindings = append(e.bindings, binding{name: name, nodes: []int32{i}})
	return true
}

// bindMulti binds $$$name to a list, or checks it against an earlier
// binding (their named nodes pairwise equal, as ast-grep compares).
func (e *env) bindMulti(name string, nodes []int32) bool {
	if b := e.lookup(name, true); b != nil {
		x, y := namedOnly(e.t, b.nodes), namedOnly(e.t, nodes)
		if len(x) != len(y) {
			return false
		}
		for k := range x {
			if !sameCode(e.t, x[k], y[k]) {
				return false
			}
		}
		return true
	}
	e.bindings = append(e.bindings, binding{name: name, multi: true, nodes: append([]int32(nil), nodes...)})
	return true
}

func namedOnly(t *syntax.Tree, nodes []int32) []int32 {
	var out []int32
	for _, n := range nodes {
		if t.Nodes[n].Named() {
			out = append(out, n)
		}
	}
	return out
}

// captures turns the bindings into sorted Captures.
func (e *env) captures() []Capture {
	if len(e.bindings) == 0 {
		return nil
	}
	out := make([]Capture, 0, len(e.bindings))
	for _, b := range e.bindings {
		c := Capture{Name: b.name, Multi: b.multi, Nodes: b.nodes, Start: -1, End: -1}
		if len(b.nodes) > 0 {
			c.Start = int(e.t.Nodes[b.nodes[0]].Start)
			c.End = int(e.t.Nodes[b.nodes[len(b.nodes)-1]].End)
		}
		if b.multi {
			for _, n := range b.nodes {
				if nd := &e.t.Nodes[n]; nd.Named() {
					c.List = append(c.List, Span{int(nd.Start), int(nd.End)})
				}
			}
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return !out[i].Multi && out[j].Multi
	})
	return out
}

// children returns node i's children in a buffer owned by the current
// depth (valid until the same depth asks again).
func (e *env) children(i int32) []int32 {
	for len(e.kidsBuf) <= e.depth {
		e.kidsBuf = append(e.kidsBuf, nil)
	}
	e.kidsBuf[e.depth] = e.t.Children(i, e.kidsBuf[e.depth][:0])
	return e.kidsBuf[e.depth]
}

// sameCode is ast-grep's test that two nodes are the same code: the same
// node, or equal text where either is a leaf of named nodes, or the same
// kind with pairwise same children.
func sameCode(t *syntax.Tree, a, b int32) bool {
	if a == b {
		return true
	}
	if namedLeaf(t, a) || namedLeaf(t, b) {
		return bytes.Equal(t.Text(a), t.Text(b))
	}
	na, nb := &t.Nodes[a], &t.Nodes[b]
	if na.Kind != nb.Kind || na.NumChildren != nb.NumChildren {
		return false
	}
	ca, cb := t.FirstChild(a), t.FirstChild(b)
	for ca >= 0 && cb >= 0 {
		if !sameCode(t, ca, cb) {
			return false
		}
		ca, cb = t.Nodes[ca].Next, t.Nodes[cb].Next
	}
	return true
}

// namedLeaf: the node has no named children.
func namedLeaf(t *syntax.Tree, i int32) bool {
	for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
		if t.Nodes[c].Named() {
			return false
		}
	}
	return true
}
