package structural

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/evgrep/evgrep/syntax"
)

// rewriterSet are a rule document's rewriters by id (the `rewrite`
// transform applies them).
type rewriterSet map[string]*Rule

// parseRewriters reads a document's `rewriters`: a list of rules, each
// with an id, a rule, a fix and optionally constraints and transform.
func (rp *ruleParser) parseRewriters(v *yaml.Node, lang *Lang, reg rewriterSet) error {
	if v.Kind != yaml.SequenceNode {
		return fmt.Errorf("line %d: rewriters must be a list", v.Line)
	}
	for _, n := range v.Content {
		kv, err := mapping(n, "a rewriter")
		if err != nil {
			return err
		}
		r := &Rule{Lang: lang, rewriters: reg}
		var ruleNode, consNode, trNode, fixNode *yaml.Node
		for _, p := range kv {
			switch p[0].Value {
			case "id":
				if r.ID, err = scalar(p[1], "id"); err != nil {
					return err
				}
			case "rule":
				ruleNode = p[1]
			case "constraints":
				consNode = p[1]
			case "transform":
				trNode = p[1]
			case "fix":
				fixNode = p[1]
			default:
				return fmt.Errorf("line %d: unknown key %q in a rewriter (known: id, rule, constraints, transform, fix)", p[0].Line, p[0].Value)
			}
		}
		switch {
		case r.ID == "":
			return fmt.Errorf("line %d: a rewriter needs an id", n.Line)
		case ruleNode == nil || fixNode == nil:
			return fmt.Errorf("line %d: rewriter %q needs a rule and a fix", n.Line, r.ID)
		case reg[r.ID] != nil:
			return fmt.Errorf("line %d: rewriter %q is defined twice", n.Line, r.ID)
		}
		if r.root, err = rp.object(ruleNode, 1); err != nil {
			return fmt.Errorf("rewriter %q: %v", r.ID, err)
		}
		if consNode != nil {
			if r.constraints, err = rp.constraints(consNode); err != nil {
				return fmt.Errorf("rewriter %q: %v", r.ID, err)
			}
		}
		if trNode != nil {
			if r.transforms, err = parseTransforms(trNode); err != nil {
				return fmt.Errorf("rewriter %q: %v", r.ID, err)
			}
		}
		if r.Fix, err = rp.parseFix(fixNode); err != nil {
			return fmt.Errorf("rewriter %q: %v", r.ID, err)
		}
		reg[r.ID] = r
	}
	return nil
}

// checkRewriters: every rewriter a transform names is defined.
func checkRewriters(trs []transform, reg rewriterSet) error {
	for _, tr := range trs {
		for _, id := range tr.rewriters {
			if reg[id] == nil {
				return fmt.Errorf("transform %s: no rewriter %q", tr.name, id)
			}
		}
	}
	return nil
}

// rewrite is the `rewrite` transform of the nodes of a capture: each node
// and its descendants, in pre-order, replaced where one of the named
// rewriters matches first (in their order; nothing inside a replaced node
// is replaced again), the rewriters matching with the enclosing rule's
// captures bound. Without joinBy the result is the capture's source with
// the replacements made; with it, the replacements alone joined by it.
func (tr *transform) rewrite(t *syntax.Tree, nodes []int32, reg rewriterSet, enclosing []Capture) string {
	if len(nodes) == 0 {
		return ""
	}
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	e := &env{t: t, budget: MaxSteps}
	var walk func(i int32)
	walk = func(i int32) {
		for _, id := range tr.rewriters {
			rw := reg[id]
			e.bindings = e.bindings[:0]
			for _, v := range enclosing {
				e.bindings = append(e.bindings, binding{name: v.Name, multi: v.Multi, nodes: v.Nodes})
			}
			if e.budget < 0 || !rw.match(t, i, e) {
				continue
			}
			m := Match{Node: i, Start: int(t.Nodes[i].Start), End: int(t.Nodes[i].End), Vars: e.captures()}
			m.Fixed = &Fixed{Derived: rw.derive(t, &m, enclosing)}
			sp := rw.Fix.fixRange(t, &m)
			edits = append(edits, edit{sp.Start, sp.End, Expand(t, &m, rw.Fix.Template)})
			break
		}
		for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	start, end := int(t.Nodes[nodes[0]].Start), int(t.Nodes[nodes[len(nodes)-1]].End)
	var b strings.Builder
	pos := start
	for k, ed := range edits {
		if ed.start < pos && !(tr.joinBy != nil && k == 0) {
			continue // inside one already replaced
		}
		if tr.joinBy != nil {
			if k > 0 {
				b.WriteString(*tr.joinBy)
			}
		} else {
			b.Write(t.Src[pos:ed.start])
		}
		b.WriteString(ed.text)
		pos = ed.end
	}
	if tr.joinBy == nil {
		b.Write(t.Src[pos:end])
	}
	return b.String()
}
