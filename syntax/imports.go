//go:build cgo

package syntax

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/evgrep/evgrep/internal/textpos"
	sitter "github.com/smacker/go-tree-sitter"
)

// Imports lists what src imports, in source order: Go import specs,
// Python import and from-import statements, JavaScript and TypeScript
// imports, re-exports, require() and import() of a string, Rust mod
// declarations without a body and use declarations, Java imports, C and
// C++ includes, Ruby require, require_relative and load of a string. A
// source with syntax errors gets the imports that parsed. Errors:
// ErrNoParser, ErrTooLarge.
func Imports(lang Language, src []byte) ([]Import, error) {
	g := grammars()[lang]
	if g == nil {
		return nil, ErrNoParser
	}
	if len(src) > MaxSource {
		return nil, ErrTooLarge
	}
	g.init()
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(g.lang)
	ctx, cancel := context.WithTimeout(context.Background(), ParseTimeout)
	defer cancel()
	tree, err := p.ParseCtx(ctx, nil, src)
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%w: parsing took longer than %v", ErrTooLarge, ParseTimeout)
	}
	if err != nil || tree == nil {
		return nil, &Error{"parser failure"}
	}
	defer tree.Close()
	ib := &importBuilder{g: g, src: src, lt: textpos.NewLines(src), lang: lang}
	// An iterative walk: deep sources cannot exhaust the stack.
	stack := []*sitter.Node{tree.RootNode()}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if ib.visit(n) {
			continue
		}
		for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
			if c := n.NamedChild(i); c != nil {
				stack = append(stack, c)
			}
		}
	}
	return ib.out, nil
}

// importBuilder collects the imports of one tree.
type importBuilder struct {
	g    *grammar
	src  []byte
	lt   *textpos.Lines
	lang Language
	out  []Import
}

func (ib *importBuilder) text(n *sitter.Node) string { return nodeText(ib.src, n) }

func (ib *importBuilder) add(kind, spec string, names []string, n *sitter.Node) {
	if spec == "" && len(names) == 0 {
		return
	}
	ib.out = append(ib.out, Import{Kind: kind, Spec: spec, Names: names, Line: ib.lt.Line(int(n.StartByte())),
		Start: int(n.StartByte()), End: int(n.EndByte())})
}

// unquote is the text of a string literal without its quotes.
func (ib *importBuilder) unquote(n *sitter.Node) string {
	s := ib.text(n)
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	if len(s) >= 2 {
		switch s[0] {
		case '"', '\'', '`', '<':
			return s[1 : len(s)-1]
		}
	}
	return s
}

// stringArg is the only argument of a call when it is a plain string.
func (ib *importBuilder) stringArg(call *sitter.Node) *sitter.Node {
	args := call.ChildByFieldName("arguments")
	if args == nil || args.NamedChildCount() != 1 {
		return nil
	}
	a := args.NamedChild(0)
	switch ib.g.typ(a) {
	case "string":
		if a.NamedChildCount() <= 1 { // no interpolation
			return a
		}
	}
	return nil
}

// visit records n when it is an import and reports whether its children
// hold no more.
func (ib *importBuilder) visit(n *sitter.Node) bool {
	typ := ib.g.typ(n)
	switch ib.lang {
	case Go:
		if typ == "import_spec" {
			ib.add("import", ib.unquote(n.ChildByFieldName("path")), nil, n)
			return true
		}
		return typ == "function_declaration" || typ == "method_declaration" || typ == "type_declaration" ||
			typ == "const_declaration" || typ == "var_declaration"
	case Python:
		switch typ {
		case "import_statement":
			for i := 0; i < int(n.NamedChildCount()); i++ {
				c := n.NamedChild(i)
				if ib.g.typ(c) == "aliased_import" {
					c = c.ChildByFieldName("name")
				}
				ib.add("import", ib.text(c), nil, n)
			}
			return true
		case "import_from_statement":
			mod := ib.text(n.ChildByFieldName("module_name"))
			var names []string
			for i := 0; i < int(n.NamedChildCount()); i++ {
				c := n.NamedChild(i)
				switch ib.g.typ(c) {
				case "aliased_import":
					names = append(names, ib.text(c.ChildByFieldName("name")))
				case "dotted_name":
					if !c.Equal(n.ChildByFieldName("module_name")) {
						names = append(names, ib.text(c))
					}
				case "wildcard_import":
					names = append(names, "*")
				}
			}
			ib.add("from", strings.Join(strings.Fields(mod), ""), names, n)
			return true
		}
	case JavaScript, TypeScript, TSX:
		switch typ {
		case "import_statement", "export_statement":
			if s := n.ChildByFieldName("source"); s != nil {
				kind := "import"
				if typ == "export_statement" {
					kind = "export-from"
				}
				ib.add(kind, ib.unquote(s), nil, n)
				return true
			}
		case "call_expression":
			fn := n.ChildByFieldName("function")
			if fn != nil && (ib.g.typ(fn) == "import" || ib.g.typ(fn) == "identifier" && ib.text(fn) == "require") {
				if s := ib.stringArg(n); s != nil {
					ib.add("require", ib.unquote(s), nil, n)
				}
			}
		}
	case Rust:
		switch typ {
		case "mod_item":
			if n.ChildByFieldName("body") == nil {
				ib.add("mod", ib.text(n.ChildByFieldName("name")), nil, n)
				return true
			}
		case "use_declaration":
			arg := n.ChildByFieldName("argument")
			if arg != nil && ib.g.typ(arg) == "scoped_use_list" {
				var names []string
				if l := arg.ChildByFieldName("list"); l != nil {
					for i := 0; i < int(l.NamedChildCount()); i++ {
						names = append(names, strings.Join(strings.Fields(ib.text(l.NamedChild(i))), ""))
					}
				}
				ib.add("use", ib.text(arg.ChildByFieldName("path")), names, n)
			} else {
				ib.add("use", strings.Join(strings.Fields(ib.text(arg)), ""), nil, n)
			}
			return true
		}
	case Java:
		if typ == "import_declaration" {
			t := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(ib.text(n), "import")), ";"))
			ib.add("import", strings.Join(strings.Fields(t), " "), nil, n)
			return true
		}
	case C, Cpp:
		if typ == "preproc_include" {
			p := n.ChildByFieldName("path")
			kind := "include"
			if p != nil && ib.g.typ(p) == "system_lib_string" {
				kind = "include-system"
			}
			if p != nil {
				ib.add(kind, ib.unquote(p), nil, n)
			}
			return true
		}
	case Ruby:
		if typ == "call" && n.ChildByFieldName("receiver") == nil {
			if m := n.ChildByFieldName("method"); m != nil {
				switch k := ib.text(m); k {
				case "require", "require_relative", "load":
					if args := n.ChildByFieldName("arguments"); args != nil && args.NamedChildCount() == 1 {
						if a := args.NamedChild(0); ib.g.typ(a) == "string" && a.NamedChildCount() <= 1 {
							ib.add(k, ib.unquote(a), nil, n)
						}
					}
				}
			}
		}
	}
	return false
}
