package structural

import "github.com/evgrep/evgrep/syntax"

// fixGoConversion: Go's grammar parses a snippet `pkg.Name(x)` with one
// operand as a conversion to the type pkg.Name, while in code the same
// text is (almost always) a call of a package's function, so ast-grep's
// `fmt.Errorf($$$A)` matches nothing. evgrep turns such a conversion in a
// pattern into the call it means.
func fixGoConversion(lang *Lang, p *Pattern) {
	if lang.Name != syntax.Go {
		return
	}
	id := func(kind string) (uint16, bool) { return syntax.KindID(lang.Name, kind) }
	call, ok1 := id("call_expression")
	sel, ok2 := id("selector_expression")
	ident, ok3 := id("identifier")
	field, ok4 := id("field_identifier")
	args, ok5 := id("argument_list")
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return
	}
	var fix func(n *pnode) *pnode
	fix = func(n *pnode) *pnode {
		for i, c := range n.children {
			n.children[i] = fix(c)
		}
		if n.meta != notMeta || n.terminal || syntax.KindName(lang.Name, n.kind) != "type_conversion_expression" || len(n.children) < 4 {
			return n
		}
		typ := n.children[0]
		if syntax.KindName(lang.Name, typ.kind) != "qualified_type" || len(typ.children) != 3 ||
			!typ.children[0].terminal || !typ.children[2].terminal {
			return n
		}
		pkg, dot, name := *typ.children[0], typ.children[1], *typ.children[2]
		pkg.kind, name.kind = ident, field
		return &pnode{kind: call, named: true, children: []*pnode{
			{kind: sel, named: true, children: []*pnode{&pkg, dot, &name}},
			{kind: args, named: true, children: n.children[1:]},
		}}
	}
	p.root = fix(p.root)
	p.fixed = p.root.kind == call
}
