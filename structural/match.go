package structural

import (
	"bytes"

	"github.com/evgrep/evgrep/syntax"
)

// outcome is the result of comparing one pattern node with one code node.
type outcome uint8

const (
	noMatch  outcome = iota
	matched          // both consumed
	skipCand         // the code node is trivial: skip it, keep the pattern node
)

// matchNode compares pattern node p with code node i (ast-grep's
// match_node_impl under "smart" strictness).
func matchNode(p *pnode, i int32, e *env) outcome {
	e.budget--
	if e.budget < 0 {
		return noMatch
	}
	t := e.t
	n := &t.Nodes[i]
	switch p.meta {
	case metaCapture:
		if !p.anyNode && !n.Named() {
			return noMatch
		}
		if !e.bindOne(p.name, i) {
			return noMatch
		}
		return matched
	case metaDropped:
		if !p.anyNode && !n.Named() {
			return noMatch
		}
		return matched
	case metaMultiCap:
		if !e.bindMulti(p.name, []int32{i}) {
			return noMatch
		}
		return matched
	case metaMulti:
		return matched
	}
	kindOK := p.kind == n.Kind || p.kind == syntax.ErrorKind
	if p.terminal {
		if kindOK && (!p.named || bytes.Equal([]byte(p.text), t.Text(i))) {
			return matched
		}
		if !n.Named() {
			return skipCand
		}
		return noMatch
	}
	if !kindOK {
		return noMatch
	}
	e.depth++
	defer func() { e.depth-- }()
	kids := e.children(i)
	if matchList(p.children, kids, e) {
		return matched
	}
	return noMatch
}

// matchList matches a pattern node's children against a code node's
// children (ast-grep's match_nodes_impl_recursive): ellipses take as few
// code nodes as let the rest match, trivial code nodes are skipped, and
// code nodes after the last pattern node are ignored.
func matchList(goals []*pnode, cands []int32, e *env) bool {
	if len(cands) == 0 {
		return false
	}
	gi, ci := 0, 0
	for {
		// An ellipsis at goals[gi].
		if gi == len(goals) {
			return true
		}
		if g := goals[gi]; g.isEllipsis() {
			gi++
			start := ci
			if gi == len(goals) {
				return bindEllipsis(g, cands[start:], 0, e)
			}
			skipped := 0
			for goals[gi].trivial() {
				gi++
				skipped++
				if gi == len(goals) {
					return bindEllipsis(g, cands[start:], skipped, e)
				}
			}
			if goals[gi].isEllipsis() {
				ci++
				if ci == len(cands) {
					return false
				}
				if !bindEllipsis(g, cands[start:ci], skipped, e) {
					return false
				}
				continue
			}
			for {
				m := e.mark()
				if matchNode(goals[gi], cands[ci], e) == matched {
					e.undo(m)
					if !bindEllipsis(g, cands[start:ci], skipped, e) {
						return false
					}
					break
				}
				e.undo(m)
				if e.budget < 0 {
					return false
				}
				ci++
				if ci == len(cands) {
					return false
				}
			}
		}
		// One pattern node, skipping trivial code nodes before it.
		for {
			if ci == len(cands) {
				for ; gi < len(goals); gi++ {
					if !goals[gi].isEllipsis() {
						return false
					}
				}
				break
			}
			if g := goals[gi]; (g.terminal || g.meta == metaCapture || g.meta == metaDropped) && e.passable(cands[ci], g) {
				// A comment, a line continuation or tokens the parser
				// skipped (an ERROR) in the code are passed over where
				// the pattern has a token or a metavariable (not where it
				// has a larger node), as ast-grep does.
				ci++
				continue
			}
			r := matchNode(goals[gi], cands[ci], e)
			if r == matched {
				break
			}
			if r == skipCand {
				ci++
				continue
			}
			return false
		}
		if gi < len(goals) {
			gi++
			ci++
		}
		if gi == len(goals) {
			return true
		}
		if ci >= len(cands) {
			return false
		}
	}
}

// bindEllipsis binds a `$$$NAME` to the code nodes it took, less the
// trailing ones that stand for trivial pattern nodes skipped after it.
func bindEllipsis(g *pnode, nodes []int32, skipped int, e *env) bool {
	if g.meta != metaMultiCap {
		return true
	}
	k := len(nodes) - skipped
	if k < 0 {
		k = 0
	}
	return e.bindMulti(g.name, nodes[:k])
}

// isCommentGoal: the pattern itself has a comment here.
func isCommentGoal(g *pnode, e *env) bool {
	return g.meta == notMeta && g.named && e.commentKind(g.kind)
}

// passable: code node i may be passed over before pattern node g: a named
// node that may appear anywhere (an extra of the grammar: a comment, a
// line continuation, an ERROR of skipped tokens; or a comment kind), unless
// g is such a node itself.
func (e *env) passable(i int32, g *pnode) bool {
	n := &e.t.Nodes[i]
	if !n.Named() || !(n.Extra() || e.commentKind(n.Kind)) {
		return false
	}
	if e.commentKind(n.Kind) {
		return !isCommentGoal(g, e)
	}
	return !(g.meta == notMeta && g.kind == n.Kind)
}
