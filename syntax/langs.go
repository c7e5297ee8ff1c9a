//go:build cgo

package syntax

import (
	"strings"
	"sync"
	"unicode"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// grammars holds the rules of every language with a parser. The table is
// built on first use, so that it costs nothing at program start; a
// grammar's tree-sitter language is built later still, on its first parse.
var grammars = sync.OnceValue(func() map[Language]*grammar {
	return map[Language]*grammar{
		Go: {
			get: golang.GetLanguage, classify: goDecl, wraps: goWraps, exported: goExported,
			attach: set("comment"),
			skip:   set("block", "func_literal", "parameter_list", "field_declaration_list", "literal_value"),
		},
		Python: {
			get: python.GetLanguage, classify: pyDecl, wraps: pyWraps, exported: pyExported,
			attach:     set("comment"),
			decoration: set("decorator", "comment"),
			descend: set("module", "block", "class_definition", "function_definition", "decorated_definition",
				"if_statement", "elif_clause", "else_clause", "for_statement", "while_statement",
				"try_statement", "except_clause", "except_group_clause", "finally_clause", "with_statement",
				"match_statement", "case_clause"),
		},
		Rust: {
			get: upstreamRust, classify: rustDecl, wraps: never, exported: rustExported,
			attach:     set("line_comment", "block_comment", "attribute_item"),
			decoration: set("attribute_item", "line_comment", "block_comment"),
			skip:       set("token_tree", "macro_rule", "string_literal", "raw_string_literal", "field_declaration_list", "enum_variant_list", "parameters"),
		},
		JavaScript: jsGrammar(javascript.GetLanguage),
		TypeScript: jsGrammar(typescript.GetLanguage),
		TSX:        jsGrammar(tsx.GetLanguage),
		Java: {
			get: java.GetLanguage, classify: javaDecl, wraps: never, exported: javaExported,
			attach:     set("line_comment", "block_comment"),
			decoration: set("annotation", "marker_annotation", "line_comment", "block_comment"),
			skip:       set("block", "constructor_body", "formal_parameters", "field_declaration"),
		},
		C:   cGrammar(upstreamC),
		Cpp: cGrammar(upstreamCpp),
		Ruby: {
			get: ruby.GetLanguage, classify: rubyDecl, wraps: never, exported: rubyExported,
			attach: set("comment"),
			skip:   set("string", "heredoc_body", "array", "hash", "method_parameters"),
		},
		// The later languages; their rules are in langs_more.go.
		Bash:   bashGrammar(),
		CSharp: csharpGrammar(),
		CSS:    cssGrammar(),
		HTML:   htmlGrammar(),
		Kotlin: kotlinGrammar(),
		Lua:    luaGrammar(),
		PHP:    phpGrammar(),
		Scala:  scalaGrammar(),
		Swift:  swiftGrammar(),
		YAML:   yamlGrammar(),
	}
})

func never(*builder, *sitter.Node, *sitter.Node, string) bool { return false }

// memberKind is "method" inside a container, "function" elsewhere.
func memberKind(b *builder, parent int) string {
	if parent >= 0 && b.recs[parent].container && b.recs[parent].Kind != "module" && b.recs[parent].Kind != "namespace" {
		return "method"
	}
	return "function"
}

// --- Go ---

func goDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	switch typ {
	case "function_declaration":
		return found{kind: "function", name: b.text(field(n, "name")), bodyStart: start(field(n, "body"))}, true
	case "method_declaration":
		return found{kind: "method", name: b.text(field(n, "name")), bodyStart: start(field(n, "body"))}, true
	case "const_declaration", "var_declaration":
		kind := "const"
		if typ == "var_declaration" {
			kind = "var"
		}
		return found{kind: kind, name: strings.Join(goSpecNames(b, n), ", "), bodyStart: -1, leaf: true}, true
	case "type_declaration":
		// A parenthesised group is a declaration whose members are its
		// specs; a single spec is the declaration itself (see goWraps).
		if goTypeSpecs(b, n) == 1 {
			return found{}, false
		}
		var names []string
		cnt := int(n.NamedChildCount())
		for i := 0; i < cnt; i++ {
			if c := n.NamedChild(i); c != nil {
				switch b.g.typ(c) {
				case "type_spec", "type_alias":
					names = append(names, b.text(field(c, "name")))
				}
			}
		}
		return found{kind: "type", name: strings.Join(names, ", "), bodyStart: -1, container: true}, true
	case "type_spec", "type_alias":
		f := found{kind: "type", name: b.text(field(n, "name")), bodyStart: -1}
		switch t := field(n, "type"); {
		case t == nil:
		case b.g.typ(t) == "struct_type":
			f.kind, f.container = "struct", true
			if l := b.childOfType(t, "field_declaration_list"); l != nil {
				f.bodyStart = start(l)
			}
		case b.g.typ(t) == "interface_type":
			f.kind, f.container = "interface", true
			f.bodyStart = start(b.childOfType(t, "{"))
		}
		return f, true
	case "method_elem", "method_spec":
		return found{kind: "method", name: b.text(field(n, "name")), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

// goSpecNames lists the names of a const or var declaration's specs.
func goSpecNames(b *builder, n *sitter.Node) []string {
	var names []string
	var visit func(m *sitter.Node)
	visit = func(m *sitter.Node) {
		cnt := int(m.NamedChildCount())
		for i := 0; i < cnt; i++ {
			c := m.NamedChild(i)
			switch b.g.typ(c) {
			case "const_spec", "var_spec":
				k := int(c.ChildCount())
				for j := 0; j < k; j++ {
					if c.FieldNameForChild(j) == "name" {
						names = append(names, b.text(c.Child(j)))
					}
				}
			case "var_spec_list":
				visit(c)
			}
		}
	}
	visit(n)
	return names
}

// goWraps: a type declaration with one spec belongs to that spec.
func goWraps(b *builder, p, child *sitter.Node, ptyp string) bool {
	return ptyp == "type_declaration" && goTypeSpecs(b, p) == 1
}

// goTypeSpecs counts the specs of a type declaration.
func goTypeSpecs(b *builder, n *sitter.Node) int {
	specs := 0
	cnt := int(n.NamedChildCount())
	for i := 0; i < cnt; i++ {
		switch b.g.typ(n.NamedChild(i)) {
		case "type_spec", "type_alias":
			specs++
		}
	}
	return specs
}

// --- Python ---

func pyDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	switch typ {
	case "function_definition":
		return found{kind: memberKind(b, parent), name: b.text(field(n, "name")), bodyStart: start(field(n, "body"))}, true
	case "class_definition":
		return found{kind: "class", name: b.text(field(n, "name")), bodyStart: start(field(n, "body")), container: true}, true
	case "expression_statement":
		// A module-level assignment: NAME = value.
		if b.parentTyp(n) != "module" || n.NamedChildCount() == 0 {
			return found{}, false
		}
		a := n.NamedChild(0)
		if b.g.typ(a) != "assignment" {
			return found{}, false
		}
		left := field(a, "left")
		if left == nil {
			return found{}, false
		}
		name := b.text(left)
		if name == "__all__" {
			b.onlyNames = pyAllNames(b, field(a, "right"))
		}
		kind := "var"
		if isUpperName(name) {
			kind = "const"
		}
		return found{kind: kind, name: name, bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

func pyWraps(b *builder, p, child *sitter.Node, ptyp string) bool {
	return ptyp == "decorated_definition"
}

// isUpperName: a constant by convention (MAX_SIZE, T).
func isUpperName(s string) bool {
	upper := false
	for _, r := range s {
		switch {
		case unicode.IsUpper(r):
			upper = true
		case r == '_' || unicode.IsDigit(r):
		default:
			return false
		}
	}
	return upper
}

// --- Rust ---

func rustDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	name := func() string { return b.text(field(n, "name")) }
	body := func() int { return start(field(n, "body")) }
	switch typ {
	case "function_item":
		kind := "function"
		if k := b.parentKind(parent); k == "impl" || k == "trait" {
			kind = "method"
		}
		return found{kind: kind, name: name(), bodyStart: body()}, true
	case "function_signature_item":
		kind := "function"
		if k := b.parentKind(parent); k == "impl" || k == "trait" {
			kind = "method"
		}
		return found{kind: kind, name: name(), bodyStart: -1, leaf: true}, true
	case "impl_item":
		nm := b.text(field(n, "type"))
		if t := field(n, "trait"); t != nil {
			nm = b.text(t) + " for " + nm
		}
		return found{kind: "impl", name: nm, bodyStart: body(), container: true}, true
	case "trait_item":
		return found{kind: "trait", name: name(), bodyStart: body(), container: true}, true
	case "struct_item", "union_item", "enum_item":
		kind := strings.TrimSuffix(typ, "_item")
		return found{kind: kind, name: name(), bodyStart: body(), container: true, leaf: true}, true
	case "type_item":
		return found{kind: "type", name: name(), bodyStart: -1, leaf: true}, true
	case "const_item":
		return found{kind: "const", name: name(), bodyStart: -1, leaf: true}, true
	case "static_item":
		return found{kind: "var", name: name(), bodyStart: -1, leaf: true}, true
	case "mod_item":
		return found{kind: "module", name: name(), bodyStart: body(), container: field(n, "body") != nil}, true
	case "macro_definition":
		return found{kind: "macro", name: name(), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

// --- JavaScript, TypeScript, TSX ---

func jsGrammar(get func() *sitter.Language) *grammar {
	return &grammar{
		get: get, classify: jsDecl, wraps: jsWraps, exported: jsExported,
		attach:     set("comment", "decorator"),
		decoration: set("decorator", "comment"),
		skip: set("string", "template_string", "regex", "formal_parameters", "type_annotation",
			"object_type", "jsx_element", "jsx_self_closing_element", "enum_body"),
	}
}

func jsWraps(b *builder, p, child *sitter.Node, ptyp string) bool {
	return ptyp == "export_statement" || ptyp == "ambient_declaration"
}

// jsFunctionValue is the body start of a function-valued expression, or -1.
func jsFunctionValue(b *builder, v *sitter.Node) (int, bool) {
	if v == nil {
		return -1, false
	}
	switch b.g.typ(v) {
	case "arrow_function", "function_expression", "function", "generator_function":
		return start(field(v, "body")), true
	}
	return -1, false
}

func jsDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	name := func() string { return b.text(field(n, "name")) }
	body := func() int { return start(field(n, "body")) }
	switch typ {
	case "function_declaration", "generator_function_declaration":
		return found{kind: "function", name: name(), bodyStart: body()}, true
	case "function_signature":
		return found{kind: "function", name: name(), bodyStart: -1, leaf: true}, true
	case "class_declaration", "abstract_class_declaration":
		return found{kind: "class", name: name(), bodyStart: body(), container: true}, true
	case "method_definition":
		return found{kind: "method", name: name(), bodyStart: body()}, true
	case "method_signature", "abstract_method_signature":
		return found{kind: "method", name: name(), bodyStart: -1, leaf: true}, true
	case "public_field_definition", "field_definition":
		v := field(n, "value")
		if bs, ok := jsFunctionValue(b, v); ok {
			nm := field(n, "name")
			if nm == nil {
				nm = field(n, "property")
			}
			return found{kind: "method", name: b.text(nm), bodyStart: bs}, true
		}
	case "interface_declaration":
		return found{kind: "interface", name: name(), bodyStart: body(), container: true}, true
	case "type_alias_declaration":
		return found{kind: "type", name: name(), bodyStart: -1, leaf: true}, true
	case "enum_declaration":
		return found{kind: "enum", name: name(), bodyStart: body(), container: true, leaf: true}, true
	case "internal_module":
		return found{kind: "namespace", name: name(), bodyStart: body(), container: true}, true
	case "module":
		return found{kind: "module", name: name(), bodyStart: body(), container: true}, true
	case "lexical_declaration", "variable_declaration":
		d := b.childOfType(n, "variable_declarator")
		if d == nil {
			return found{}, false
		}
		nm := b.text(field(d, "name"))
		v := field(d, "value")
		if bs, ok := jsFunctionValue(b, v); ok {
			return found{kind: "function", name: nm, bodyStart: bs}, true
		}
		if v != nil && b.g.typ(v) == "class" {
			return found{kind: "class", name: nm, bodyStart: start(field(v, "body")), container: true}, true
		}
		if !jsModuleLevel(b, n) {
			return found{}, false
		}
		kind := "var"
		if k := n.Child(0); k != nil && b.g.typ(k) == "const" {
			kind = "const"
		}
		return found{kind: kind, name: nm, bodyStart: -1, leaf: true}, true
	case "export_statement":
		// export default <expression>
		v := field(n, "value")
		if v == nil {
			jsExportList(b, n)
			return found{}, false
		}
		if bs, ok := jsFunctionValue(b, v); ok {
			return found{kind: "function", name: "default", bodyStart: bs}, true
		}
		if b.g.typ(v) == "class" {
			nm := b.text(field(v, "name"))
			if nm == "" {
				nm = "default"
			}
			return found{kind: "class", name: nm, bodyStart: start(field(v, "body")), container: true}, true
		}
	}
	return found{}, false
}

// jsModuleLevel: n is a statement of the program or of a namespace body.
func jsModuleLevel(b *builder, n *sitter.Node) bool {
	p := n.Parent()
	for p != nil {
		switch b.g.typ(p) {
		case "export_statement", "ambient_declaration":
			p = p.Parent()
			continue
		case "program":
			return true
		case "statement_block":
			if q := p.Parent(); q != nil {
				switch b.g.typ(q) {
				case "internal_module", "module":
					return true
				}
			}
		}
		return false
	}
	return false
}

// --- Java ---

func javaDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	name := b.text(field(n, "name"))
	body := start(field(n, "body"))
	switch typ {
	case "class_declaration":
		return found{kind: "class", name: name, bodyStart: body, container: true}, true
	case "interface_declaration", "annotation_type_declaration":
		return found{kind: "interface", name: name, bodyStart: body, container: true}, true
	case "enum_declaration":
		return found{kind: "enum", name: name, bodyStart: body, container: true}, true
	case "record_declaration":
		return found{kind: "record", name: name, bodyStart: body, container: true}, true
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration":
		return found{kind: "method", name: name, bodyStart: body, leaf: true}, true
	}
	return found{}, false
}

// --- C and C++ ---

func cGrammar(get func() *sitter.Language) *grammar {
	return &grammar{
		get: get, classify: cDecl, wraps: cWraps, exported: cExported,
		attach:     set("comment"),
		decoration: set("comment", "attribute_declaration"),
		skip: set("compound_statement", "parameter_list", "enumerator_list", "initializer_list",
			"string_literal", "raw_string_literal", "preproc_arg", "template_argument_list"),
	}
}

// cWraps: a template owns its declaration; a declaration, field or typedef
// owns the struct, class, union or enum it defines.
func cWraps(b *builder, p, child *sitter.Node, ptyp string) bool {
	switch ptyp {
	case "template_declaration":
		return true
	case "declaration", "field_declaration", "type_definition":
		switch b.g.typ(child) {
		case "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
			return field(p, "type") != nil && field(p, "type").Equal(child)
		}
	}
	return false
}

// cSpecifierKinds maps a specifier with a body to its kind.
var cSpecifierKinds = map[string]string{
	"struct_specifier": "struct", "class_specifier": "class",
	"union_specifier": "union", "enum_specifier": "enum",
}

func cDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	switch typ {
	case "function_definition":
		kind := "function"
		if k := b.parentKind(parent); k == "class" || k == "struct" || k == "union" {
			kind = "method"
		}
		return found{kind: kind, name: cDeclaratorName(b, field(n, "declarator")), bodyStart: start(field(n, "body")), leaf: true}, true
	case "struct_specifier", "class_specifier", "union_specifier", "enum_specifier":
		body := field(n, "body")
		if body == nil {
			return found{}, false
		}
		name := b.text(field(n, "name"))
		if p := n.Parent(); name == "" && p != nil && b.g.typ(p) == "type_definition" {
			name = cDeclaratorName(b, field(p, "declarator"))
		}
		kind := cSpecifierKinds[typ]
		return found{kind: kind, name: name, bodyStart: start(body), container: kind != "enum", leaf: kind == "enum"}, true
	case "namespace_definition":
		return found{kind: "namespace", name: b.text(field(n, "name")), bodyStart: start(field(n, "body")), container: true}, true
	case "type_definition", "alias_declaration":
		if t := field(n, "type"); t != nil && field(t, "body") != nil {
			return found{}, false // the specifier is the declaration
		}
		name := cDeclaratorName(b, field(n, "declarator"))
		if typ == "alias_declaration" {
			name = b.text(field(n, "name"))
		}
		return found{kind: "type", name: name, bodyStart: -1, leaf: true}, true
	case "preproc_def":
		return found{kind: "const", name: b.text(field(n, "name")), bodyStart: -1, leaf: true}, true
	case "preproc_function_def":
		return found{kind: "macro", name: b.text(field(n, "name")), bodyStart: -1, leaf: true}, true
	case "declaration", "field_declaration":
		if t := field(n, "type"); t != nil && field(t, "body") != nil {
			return found{}, false // the specifier is the declaration
		}
		d := field(n, "declarator")
		if d == nil {
			return found{}, false
		}
		if cIsFunction(b, d) {
			return found{kind: memberKind(b, parent), name: cDeclaratorName(b, d), bodyStart: -1, leaf: true}, true
		}
		if typ == "field_declaration" || !cTopLevel(b, n) {
			return found{}, false
		}
		kind := "var"
		cnt := int(n.ChildCount())
		for i := 0; i < cnt; i++ {
			if c := n.Child(i); c != nil && b.g.typ(c) == "type_qualifier" {
				switch b.text(c) {
				case "const", "constexpr", "constinit":
					kind = "const"
				}
			}
		}
		return found{kind: kind, name: cDeclaratorName(b, d), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

// cDeclaratorName digs the declared name out of a declarator chain.
func cDeclaratorName(b *builder, d *sitter.Node) string {
	for i := 0; d != nil && i < 64; i++ {
		switch b.g.typ(d) {
		case "pointer_declarator", "reference_declarator", "function_declarator", "array_declarator",
			"init_declarator", "attributed_declarator", "type_qualifier":
			next := field(d, "declarator")
			if next == nil && d.NamedChildCount() > 0 {
				next = d.NamedChild(int(d.NamedChildCount()) - 1)
			}
			d = next
		case "parenthesized_declarator":
			if d.NamedChildCount() == 0 {
				return ""
			}
			d = d.NamedChild(0)
		default:
			return b.text(d)
		}
	}
	return ""
}

// cIsFunction: the declarator declares a function (not a pointer to one).
func cIsFunction(b *builder, d *sitter.Node) bool {
	for i := 0; d != nil && i < 64; i++ {
		switch b.g.typ(d) {
		case "function_declarator":
			inner := field(d, "declarator")
			return inner == nil || b.g.typ(inner) != "parenthesized_declarator"
		case "pointer_declarator", "reference_declarator", "attributed_declarator":
			d = field(d, "declarator")
			if d == nil {
				return false
			}
		default:
			return false
		}
	}
	return false
}

// cTopLevel: a declaration at file scope, in a namespace or extern block,
// or in a preprocessor conditional at those places.
func cTopLevel(b *builder, n *sitter.Node) bool {
	p := n.Parent()
	for i := 0; p != nil && i < 256; i++ {
		switch b.g.typ(p) {
		case "translation_unit":
			return true
		case "declaration_list", "namespace_definition", "linkage_specification", "template_declaration",
			"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef":
			p = p.Parent()
		default:
			return false
		}
	}
	return false
}

// --- Ruby ---

func rubyDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	switch typ {
	case "method":
		kind := "function"
		if k := b.parentKind(parent); k == "class" || k == "module" {
			kind = "method"
		}
		return found{kind: kind, name: b.text(field(n, "name")), bodyStart: rubyBody(b, n)}, true
	case "singleton_method":
		return found{kind: "method", name: b.text(field(n, "object")) + "." + b.text(field(n, "name")), bodyStart: rubyBody(b, n)}, true
	case "class":
		return found{kind: "class", name: b.text(field(n, "name")), bodyStart: rubyBody(b, n), container: true}, true
	case "module":
		return found{kind: "module", name: b.text(field(n, "name")), bodyStart: rubyBody(b, n), container: true}, true
	case "assignment":
		left := field(n, "left")
		if left == nil || b.g.typ(left) != "constant" {
			return found{}, false
		}
		switch b.parentTyp(n) {
		case "program":
		case "body_statement":
			if k := b.parentKind(parent); k != "class" && k != "module" {
				return found{}, false
			}
		default:
			return found{}, false
		}
		return found{kind: "const", name: b.text(left), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

// rubyBody is where a Ruby definition's body starts: its body field, or
// the start of its second line when it has none.
func rubyBody(b *builder, n *sitter.Node) int {
	if body := field(n, "body"); body != nil {
		return start(body)
	}
	return -1
}

// --- Public surface (Decl.Exported) ---

// isCapitalised: a Go exported identifier.
func isCapitalised(name string) bool {
	for _, r := range name {
		return unicode.IsUpper(r)
	}
	return false
}

func goExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	if b.g.typ(n) == "method_declaration" && !isCapitalised(goReceiverType(b.text(field(n, "receiver")))) {
		return false // a method of an unexported type
	}
	for _, name := range strings.Split(f.name, ", ") {
		if isCapitalised(name) {
			return true
		}
	}
	return false
}

// goReceiverType is the type name of a receiver list: "(f *File[T])" is
// "File".
func goReceiverType(recv string) string {
	recv = strings.Trim(recv, "() \t")
	if i := strings.IndexByte(recv, '['); i >= 0 {
		recv = recv[:i]
	}
	fields := strings.Fields(recv)
	if len(fields) == 0 {
		return ""
	}
	return strings.TrimLeft(fields[len(fields)-1], "*")
}

func pyExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	return f.name != "" && !strings.HasPrefix(f.name, "_")
}

// pyAllNames reads the strings of `__all__ = [...]` (or a tuple); an
// __all__ that is not a literal list exports nothing it names, so it is
// ignored (nil).
func pyAllNames(b *builder, v *sitter.Node) map[string]bool {
	if v == nil {
		return nil
	}
	switch b.g.typ(v) {
	case "list", "tuple":
	default:
		return nil
	}
	names := map[string]bool{}
	cnt := int(v.NamedChildCount())
	for i := 0; i < cnt; i++ {
		c := v.NamedChild(i)
		if c == nil || b.g.typ(c) != "string" {
			return nil
		}
		names[strings.Trim(b.text(c), "\"'")] = true
	}
	return names
}

// jsExportList records the local names of `export { a, b as c }` (not a
// re-export from another module).
func jsExportList(b *builder, n *sitter.Node) {
	if field(n, "source") != nil {
		return
	}
	clause := b.childOfType(n, "export_clause")
	if clause == nil {
		return
	}
	cnt := int(clause.NamedChildCount())
	for i := 0; i < cnt; i++ {
		c := clause.NamedChild(i)
		if c == nil || b.g.typ(c) != "export_specifier" {
			continue
		}
		if b.alsoNames == nil {
			b.alsoNames = map[string]bool{}
		}
		b.alsoNames[b.text(field(c, "name"))] = true
	}
}

func jsExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	if parent >= 0 && b.recs[parent].container && b.recs[parent].Kind != "namespace" && b.recs[parent].Kind != "module" {
		// A member: public unless private or protected.
		if strings.HasPrefix(f.name, "#") {
			return false
		}
		if m := b.childOfType(n, "accessibility_modifier"); m != nil {
			t := b.text(m)
			return t != "private" && t != "protected"
		}
		return true
	}
	return b.g.typ(outer) == "export_statement"
}

func rustExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	if parent >= 0 {
		switch p := b.recs[parent]; {
		case p.Kind == "trait", p.Kind == "impl" && strings.Contains(p.Name, " for "):
			return true
		}
	}
	switch f.kind {
	case "impl":
		return true // its pub members are the surface
	case "macro":
		return strings.Contains(string(pre), "macro_export")
	}
	v := b.childOfType(n, "visibility_modifier")
	return v != nil && b.text(v) == "pub"
}

func javaExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	if parent >= 0 && b.recs[parent].Kind == "interface" {
		return true
	}
	mods := b.childOfType(n, "modifiers")
	if mods == nil {
		return false
	}
	cnt := int(mods.ChildCount())
	for i := 0; i < cnt; i++ {
		if c := mods.Child(i); c != nil && b.g.typ(c) == "public" {
			return true
		}
	}
	return false
}

func cExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	if parent >= 0 {
		switch k := b.recs[parent].Kind; k {
		case "class", "struct", "union":
			// The last access specifier before the member, else the
			// container's default.
			public := k != "class"
			kids, i := b.siblings(outer)
			for i--; i >= 0; i-- {
				if b.g.typ(kids[i]) == "access_specifier" {
					public = strings.TrimSpace(b.text(kids[i])) == "public"
					break
				}
			}
			return public
		case "namespace":
			if b.recs[parent].Name == "" {
				return false // an anonymous namespace is file-local
			}
		}
	}
	for _, m := range []*sitter.Node{n, outer} {
		cnt := int(m.ChildCount())
		for i := 0; i < cnt; i++ {
			if c := m.Child(i); c != nil && b.g.typ(c) == "storage_class_specifier" && b.text(c) == "static" {
				return false
			}
		}
	}
	return f.kind != "namespace" || f.name != ""
}

func rubyExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	if f.kind != "method" || parent < 0 {
		return true
	}
	// private def name
	if p := n.Parent(); p != nil && b.g.typ(p) == "argument_list" {
		if c := p.Parent(); c != nil && b.g.typ(c) == "call" {
			switch b.text(field(c, "method")) {
			case "private", "protected":
				return false
			}
		}
	}
	// A bare `private` or `protected` above it in the body.
	kids, i := b.siblings(outer)
	for i--; i >= 0; i-- {
		if b.g.typ(kids[i]) == "identifier" {
			switch b.text(kids[i]) {
			case "private", "protected":
				return false
			case "public":
				return true
			}
		}
	}
	return true
}
