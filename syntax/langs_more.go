//go:build cgo

package syntax

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/bash"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/css"
	"github.com/smacker/go-tree-sitter/html"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/swift"
	"github.com/smacker/go-tree-sitter/yaml"
)

// The grammars of the languages added after the first ten. Each one's
// rules say what a declaration is and which declarations are the public
// surface (Decl.Exported); the comment above each grammar sums them up.
// Like the others, a grammar's C code is only reached, and its language
// only built, when a source of that language is first parsed.

// Bash: functions (both spellings) and top-level variable assignments
// (readonly and declare -r ones are constants). Public: functions whose
// name does not start with an underscore, and variables exported to the
// environment (export, declare -x, or a later `export NAME`).
func bashGrammar() *grammar {
	return &grammar{
		get: bash.GetLanguage, classify: bashDecl, wraps: never, exported: bashExported,
		attach: set("comment"),
		descend: set("program", "function_definition", "compound_statement", "redirected_statement",
			"if_statement", "elif_clause", "else_clause", "for_statement", "c_style_for_statement",
			"while_statement", "do_group", "case_statement", "case_item", "subshell", "list"),
	}
}

// C#: namespaces (a namespace block only by its header line: the types in
// it are top-level items, as in a file-scoped namespace), classes, structs, interfaces, enums, records, delegates
// (type), methods, constructors, destructors, operators, properties and
// indexers (property), fields and events (var; const fields const).
// Public: declared `public`; interface members always.
func csharpGrammar() *grammar {
	return &grammar{
		get: csharp.GetLanguage, classify: csharpDecl, wraps: never, exported: csharpExported,
		attach:     set("comment"),
		decoration: set("attribute_list", "comment"),
		skip:       set("block", "parameter_list", "enum_member_declaration_list", "accessor_list", "arrow_expression_clause"),
	}
}

// CSS: rule sets (rule, named by their selectors), at-rules with a block
// (at-rule, named by their prelude: "@media (max-width: 600px)") holding
// their rules, and custom properties (var, "--accent"). Everything in a
// style sheet applies globally, so everything is public.
func cssGrammar() *grammar {
	return &grammar{
		get: css.GetLanguage, classify: cssDecl, wraps: never, exported: always,
		attach:  set("comment"),
		descend: set("stylesheet", "rule_set", "block", "media_statement", "supports_statement", "at_rule"),
	}
}

// HTML: elements with an id (element, "section#orders"), which are what
// links, scripts and style sheets refer to, and <script> and <style>
// elements (named by their src, if any). Public: the elements with an id.
func htmlGrammar() *grammar {
	return &grammar{
		get: html.GetLanguage, classify: htmlDecl, wraps: never, exported: htmlExported,
		attach: set("comment"),
		skip:   set("start_tag", "end_tag", "self_closing_tag", "text", "raw_text", "attribute"),
	}
}

// Kotlin: classes, interfaces, enum classes, objects and companion objects
// (object), functions and methods, properties (property; `const val` is
// const) and type aliases. Public: everything not marked private,
// internal or protected.
func kotlinGrammar() *grammar {
	return &grammar{
		get: kotlin.GetLanguage, classify: kotlinDecl, wraps: never, exported: kotlinExported,
		attach:     set("line_comment", "multiline_comment"),
		decoration: set("annotation", "line_comment", "multiline_comment"),
		skip: set("function_value_parameters", "primary_constructor", "string_literal",
			"enum_entry", "value_arguments", "type_parameters"),
	}
}

// Lua: functions (`function M.f`, `function M:m` is a method, `local
// function f`) and top-level variables (`local x = …`, globals; upper-case
// names are constants; a function value makes a function). Public:
// globals, the table the chunk returns (`return M`), and the functions
// stored in a public table.
func luaGrammar() *grammar {
	return &grammar{
		get: upstreamLua, classify: luaDecl, wraps: never, exported: luaExported, finish: luaFinish,
		attach:     set("comment"),
		decoration: set("comment", "emmy_documentation"),
		descend: set("chunk", "function_declaration", "block", "do_statement", "if_statement",
			"elseif_statement", "else_statement", "while_statement", "repeat_statement", "for_statement",
			"variable_declaration", "assignment_statement", "expression_list", "function_definition"),
	}
}

// PHP: namespaces (a braced one by its header, like C#), classes, interfaces, traits, enums, functions, methods,
// constants and properties. Public: top-level declarations (PHP has no
// file-private ones), members declared public or without a visibility
// modifier, interface members.
func phpGrammar() *grammar {
	return &grammar{
		get: php.GetLanguage, classify: phpDecl, wraps: never, exported: phpExported,
		attach:     set("comment"),
		decoration: set("attribute_list", "comment"),
		skip: set("formal_parameters", "string", "encapsed_string", "heredoc", "nowdoc",
			"enum_case", "text", "array_creation_expression"),
	}
}

// Scala: packages with a body (namespace, by its header, like C#), classes, traits, objects,
// enums, extensions, functions and methods (with or without a body),
// val/var members (property) and type members. Public: not private or
// protected (a qualified private[p] is not public either).
func scalaGrammar() *grammar {
	return &grammar{
		get: scala.GetLanguage, classify: scalaDecl, wraps: never, exported: scalaExported,
		attach:     set("comment", "block_comment"),
		decoration: set("annotation", "comment", "block_comment"),
		skip: set("parameters", "class_parameters", "string", "interpolated_string_expression",
			"enum_case_definitions", "type_parameters"),
	}
}

// Swift: classes, structs, enums, actors, extensions, protocols
// (interface), functions, methods, initialisers and deinitialisers,
// subscripts, properties and type aliases. Public: declared public or
// open; protocol members always; an extension itself (its members by
// their own modifiers).
func swiftGrammar() *grammar {
	return &grammar{
		get: swift.GetLanguage, classify: swiftDecl, wraps: never, exported: swiftExported,
		attach:     set("comment", "multiline_comment"),
		decoration: set("attribute", "comment", "multiline_comment"),
		skip:       set("parameter", "enum_entry", "type_parameters", "line_string_literal", "multi_line_string_literal"),
	}
}

// YAML: the keys of block mappings (key), a key whose value is a block (a
// nested mapping or a sequence) being a container of the keys below it;
// each document's top-level keys are top-level declarations; the comment
// above a document (or a nested mapping) goes with its first key. Every
// key is public.
func yamlGrammar() *grammar {
	return &grammar{
		get: yaml.GetLanguage, classify: yamlDecl, wraps: never, exported: always,
		attach: set("comment"), climb: true,
		descend: set("stream", "document", "block_node", "block_mapping", "block_mapping_pair",
			"block_sequence", "block_sequence_item"),
	}
}

func always(*builder, *sitter.Node, *sitter.Node, found, int, []byte) bool { return true }

// hasChildText reports whether n has a child of type typ whose text is one
// of texts (modifiers spelled as keywords).
func (b *builder) hasChildText(n *sitter.Node, typ string, texts ...string) bool {
	cnt := int(n.ChildCount())
	for i := 0; i < cnt; i++ {
		c := n.Child(i)
		if c == nil || b.g.typ(c) != typ {
			continue
		}
		t := b.text(c)
		for _, want := range texts {
			if t == want {
				return true
			}
		}
	}
	return false
}

// inContainer reports whether parent is a class-like container (a member
// there is a method, not a function).
func inContainer(b *builder, parent int) bool {
	return parent >= 0 && b.recs[parent].container && b.recs[parent].Kind != "module" && b.recs[parent].Kind != "namespace"
}

// --- Bash ---

func bashDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	switch typ {
	case "function_definition":
		return found{kind: "function", name: b.text(field(n, "name")), bodyStart: start(field(n, "body"))}, true
	case "variable_assignment":
		if b.parentTyp(n) != "program" {
			return found{}, false
		}
		return found{kind: "var", name: b.text(field(n, "name")), bodyStart: -1, leaf: true}, true
	case "declaration_command":
		if b.parentTyp(n) != "program" {
			return found{}, false
		}
		var names []string
		cnt := int(n.NamedChildCount())
		for i := 0; i < cnt; i++ {
			c := n.NamedChild(i)
			switch b.g.typ(c) {
			case "variable_assignment":
				names = append(names, b.text(field(c, "name")))
			case "variable_name":
				// `export NAME`: exports a variable set elsewhere.
				if bashDeclFlag(b, n, "x") {
					if b.alsoNames == nil {
						b.alsoNames = map[string]bool{}
					}
					b.alsoNames[b.text(c)] = true
				}
			}
		}
		if len(names) == 0 {
			return found{}, false
		}
		kind := "var"
		if bashDeclFlag(b, n, "r") {
			kind = "const"
		}
		return found{kind: kind, name: strings.Join(names, ", "), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

// bashDeclFlag reports whether a declaration command sets the attribute
// flag ("x" export, "r" read-only): by its command (export, readonly) or
// by an option of declare, typeset or local.
func bashDeclFlag(b *builder, n *sitter.Node, flag string) bool {
	cmd := ""
	if c := n.Child(0); c != nil {
		cmd = b.text(c)
	}
	switch {
	case cmd == "export" && flag == "x", cmd == "readonly" && flag == "r":
		return true
	}
	cnt := int(n.NamedChildCount())
	for i := 0; i < cnt; i++ {
		c := n.NamedChild(i)
		if t := b.text(c); b.g.typ(c) == "word" && strings.HasPrefix(t, "-") && strings.Contains(t, flag) {
			return true
		}
	}
	return false
}

func bashExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	switch b.g.typ(n) {
	case "function_definition":
		return parent < 0 && !strings.HasPrefix(f.name, "_")
	case "declaration_command":
		return bashDeclFlag(b, n, "x")
	}
	return false
}

// --- C# ---

func csharpDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	name := func() string { return b.text(field(n, "name")) }
	body := func() int { return start(field(n, "body")) }
	switch typ {
	case "namespace_declaration":
		// Most C# files are one namespace block: its types are the
		// file's top-level items.
		return found{kind: "namespace", name: name(), bodyStart: body(), headerOnly: true}, true
	case "file_scoped_namespace_declaration":
		return found{kind: "namespace", name: name(), bodyStart: -1, leaf: true}, true
	case "class_declaration":
		return found{kind: "class", name: name(), bodyStart: body(), container: true}, true
	case "struct_declaration":
		return found{kind: "struct", name: name(), bodyStart: body(), container: true}, true
	case "interface_declaration":
		return found{kind: "interface", name: name(), bodyStart: body(), container: true}, true
	case "enum_declaration":
		return found{kind: "enum", name: name(), bodyStart: body(), container: true, leaf: true}, true
	case "record_declaration", "record_struct_declaration":
		return found{kind: "record", name: name(), bodyStart: body(), container: true}, true
	case "delegate_declaration":
		return found{kind: "type", name: name(), bodyStart: -1, leaf: true}, true
	case "method_declaration", "constructor_declaration":
		return found{kind: "method", name: name(), bodyStart: body(), leaf: true}, true
	case "destructor_declaration":
		return found{kind: "method", name: "~" + name(), bodyStart: body(), leaf: true}, true
	case "operator_declaration", "conversion_operator_declaration":
		nm := "operator " + b.text(field(n, "operator"))
		if typ == "conversion_operator_declaration" {
			nm = "operator " + b.text(field(n, "type"))
		}
		return found{kind: "method", name: nm, bodyStart: body(), leaf: true}, true
	case "local_function_statement":
		return found{kind: "function", name: name(), bodyStart: body(), leaf: true}, true
	case "property_declaration":
		bs := start(field(n, "accessors"))
		if bs < 0 {
			bs = start(field(n, "value"))
		}
		return found{kind: "property", name: name(), bodyStart: bs, leaf: true}, true
	case "indexer_declaration":
		bs := start(field(n, "accessors"))
		if bs < 0 {
			bs = start(field(n, "value"))
		}
		return found{kind: "property", name: "this", bodyStart: bs, leaf: true}, true
	case "field_declaration", "event_field_declaration":
		v := b.childOfType(n, "variable_declaration")
		if v == nil {
			return found{}, false
		}
		var names []string
		cnt := int(v.NamedChildCount())
		for i := 0; i < cnt; i++ {
			if c := v.NamedChild(i); c != nil && b.g.typ(c) == "variable_declarator" {
				nm := field(c, "name")
				if nm == nil && c.NamedChildCount() > 0 {
					nm = c.NamedChild(0)
				}
				names = append(names, b.text(nm))
			}
		}
		kind := "var"
		if b.hasChildText(n, "modifier", "const") {
			kind = "const"
		}
		return found{kind: kind, name: strings.Join(names, ", "), bodyStart: -1, leaf: true}, true
	case "event_declaration":
		return found{kind: "var", name: name(), bodyStart: start(field(n, "accessors")), leaf: true}, true
	}
	return found{}, false
}

func csharpExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	if parent >= 0 && b.recs[parent].Kind == "interface" {
		return true
	}
	if f.kind == "namespace" {
		return true
	}
	return b.hasChildText(n, "modifier", "public")
}

// --- CSS ---

func cssDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	switch typ {
	case "rule_set":
		blk := b.childOfType(n, "block")
		return found{kind: "rule", name: collapse([]byte(b.text(b.childOfType(n, "selectors")))), bodyStart: start(blk), container: true}, true
	case "media_statement", "supports_statement", "at_rule", "keyframes_statement":
		blk := b.childOfType(n, "block")
		if blk == nil {
			blk = b.childOfType(n, "keyframe_block_list")
		}
		if blk == nil {
			return found{}, false // @import, @charset and the like
		}
		nm := collapse(b.src[n.StartByte():blk.StartByte()])
		return found{kind: "at-rule", name: nm, bodyStart: start(blk), container: true, leaf: typ == "keyframes_statement"}, true
	case "declaration":
		p := b.childOfType(n, "property_name")
		if p == nil || !strings.HasPrefix(b.text(p), "--") {
			return found{}, false
		}
		return found{kind: "var", name: b.text(p), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

// --- HTML ---

func htmlDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	switch typ {
	case "element":
		tag := b.childOfType(n, "start_tag")
		if tag == nil {
			tag = b.childOfType(n, "self_closing_tag")
		}
		if tag == nil {
			return found{}, false
		}
		id := htmlAttr(b, tag, "id")
		if id == "" {
			return found{}, false
		}
		return found{kind: "element", name: b.text(b.childOfType(tag, "tag_name")) + "#" + id, bodyStart: int(tag.EndByte()), container: true}, true
	case "script_element", "style_element":
		tag := b.childOfType(n, "start_tag")
		if tag == nil {
			return found{}, false
		}
		kind := strings.TrimSuffix(typ, "_element")
		return found{kind: kind, name: htmlAttr(b, tag, "src"), bodyStart: int(tag.EndByte()), leaf: true}, true
	}
	return found{}, false
}

// htmlAttr is the value of a start tag's attribute (names compare without
// case), or "".
func htmlAttr(b *builder, tag *sitter.Node, name string) string {
	cnt := int(tag.NamedChildCount())
	for i := 0; i < cnt; i++ {
		a := tag.NamedChild(i)
		if a == nil || b.g.typ(a) != "attribute" {
			continue
		}
		an := b.childOfType(a, "attribute_name")
		if an == nil || !strings.EqualFold(b.text(an), name) {
			continue
		}
		if v := b.childOfType(a, "quoted_attribute_value"); v != nil {
			return strings.Trim(b.text(v), "\"'")
		}
		return b.text(b.childOfType(a, "attribute_value"))
	}
	return ""
}

func htmlExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	return f.kind == "element"
}

// --- Kotlin ---

func kotlinDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	switch typ {
	case "class_declaration":
		kind := "class"
		switch {
		case b.childOfType(n, "interface") != nil:
			kind = "interface"
		case b.childOfType(n, "enum") != nil:
			kind = "enum"
		}
		body := b.childOfType(n, "class_body")
		if body == nil {
			body = b.childOfType(n, "enum_class_body")
		}
		return found{kind: kind, name: b.text(b.childOfType(n, "type_identifier")), bodyStart: start(body), container: true}, true
	case "object_declaration", "companion_object":
		nm := b.text(b.childOfType(n, "type_identifier"))
		if nm == "" && typ == "companion_object" {
			nm = "Companion"
		}
		return found{kind: "object", name: nm, bodyStart: start(b.childOfType(n, "class_body")), container: true}, true
	case "function_declaration":
		kind := "function"
		if inContainer(b, parent) {
			kind = "method"
		}
		return found{kind: kind, name: b.text(b.childOfType(n, "simple_identifier")), bodyStart: start(b.childOfType(n, "function_body"))}, true
	case "property_declaration":
		switch b.parentTyp(n) {
		case "source_file", "class_body", "enum_class_body":
		default:
			return found{}, false
		}
		kind := "property"
		if m := b.childOfType(n, "modifiers"); m != nil && b.hasChildText(m, "property_modifier", "const") {
			kind = "const"
		}
		var names []string
		if v := b.childOfType(n, "variable_declaration"); v != nil {
			names = append(names, b.text(b.childOfType(v, "simple_identifier")))
		} else if m := b.childOfType(n, "multi_variable_declaration"); m != nil {
			cnt := int(m.NamedChildCount())
			for i := 0; i < cnt; i++ {
				if c := m.NamedChild(i); c != nil && b.g.typ(c) == "variable_declaration" {
					names = append(names, b.text(b.childOfType(c, "simple_identifier")))
				}
			}
		}
		bs := -1
		if d := b.childOfType(n, "property_delegate"); d != nil {
			bs = start(d)
		}
		return found{kind: kind, name: strings.Join(names, ", "), bodyStart: bs, leaf: true}, true
	case "type_alias":
		return found{kind: "type", name: b.text(b.childOfType(n, "type_identifier")), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

func kotlinExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	m := b.childOfType(n, "modifiers")
	if m == nil {
		return true
	}
	return !b.hasChildText(m, "visibility_modifier", "private", "internal", "protected")
}

// --- Lua ---

func luaDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	switch typ {
	case "function_declaration":
		nm := b.text(field(n, "name"))
		kind := "function"
		if strings.Contains(nm, ":") {
			kind = "method"
		}
		return found{kind: kind, name: nm, bodyStart: luaBodyStart(b, n)}, true
	case "return_statement":
		// return M at the chunk's end: the module's table is public.
		if b.parentTyp(n) != "chunk" || n.NamedChildCount() != 1 {
			return found{}, false
		}
		if l := n.NamedChild(0); l.NamedChildCount() == 1 && b.g.typ(l.NamedChild(0)) == "identifier" {
			if b.alsoNames == nil {
				b.alsoNames = map[string]bool{}
			}
			b.alsoNames[b.text(l.NamedChild(0))] = true
		}
		return found{}, false
	case "variable_declaration", "assignment_statement":
		// local a, b = …  (a variable_declaration holding the names, or an
		// assignment_statement holding names and values), and a global
		// assignment at the top of the chunk.
		asg := n
		if typ == "variable_declaration" {
			if a := b.childOfType(n, "assignment_statement"); a != nil {
				asg = a
			}
		} else if b.parentTyp(n) == "variable_declaration" {
			return found{}, false // its declaration was read above
		}
		names, values := luaNames(b, asg)
		if len(names) == 0 {
			return found{}, false
		}
		if len(names) == 1 && len(values) == 1 && b.g.typ(values[0]) == "function_definition" {
			kind := "function"
			if strings.Contains(names[0], ":") {
				kind = "method"
			}
			return found{kind: kind, name: names[0], bodyStart: luaBodyStart(b, values[0])}, true
		}
		if b.parentTyp(n) != "chunk" {
			return found{}, false
		}
		for _, nm := range names {
			if strings.ContainsAny(nm, ".:[") {
				return found{}, false // a field of a table is set, not declared
			}
		}
		kind := "var"
		if typ == "variable_declaration" && isUpperName(strings.Join(names, "")) {
			kind = "const" // an upper-case local; a global can be set anywhere
		}
		return found{kind: kind, name: strings.Join(names, ", "), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

// luaBodyStart is where a function's body starts: its block, or the "end"
// of an empty one (the signature is the text before it).
func luaBodyStart(b *builder, fn *sitter.Node) int {
	if body := field(fn, "body"); body != nil {
		return start(body)
	}
	return start(b.childOfType(fn, "end"))
}

// luaNames are the names a declaration or assignment sets (its
// variable_list's "name" children) and the values it gives them (its
// expression_list's).
func luaNames(b *builder, n *sitter.Node) (names []string, values []*sitter.Node) {
	if l := b.childOfType(n, "variable_list"); l != nil {
		for i := 0; i < int(l.ChildCount()); i++ {
			if l.FieldNameForChild(i) == "name" {
				names = append(names, b.text(l.Child(i)))
			}
		}
	}
	if l := b.childOfType(n, "expression_list"); l != nil {
		for i := 0; i < int(l.NamedChildCount()); i++ {
			values = append(values, l.NamedChild(i))
		}
	}
	return names, values
}

// luaLocal reports whether a function or variable declaration is local.
func luaLocal(b *builder, n *sitter.Node) bool {
	return b.childOfType(n, "local") != nil
}

// luaTable is the table part of "T.f" or "T:m" ("" for a plain name).
func luaTable(name string) string {
	if i := strings.IndexAny(name, ".:"); i > 0 {
		return name[:i]
	}
	return ""
}

func luaExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	if parent >= 0 || luaLocal(b, n) {
		return false // luaFinish adds the returned table
	}
	t := luaTable(f.name)
	if t == "" {
		return true // a global
	}
	// A field of a table: public when the table is (a table declared
	// nowhere in the chunk is a global one).
	for i := len(b.recs) - 1; i >= 0; i-- {
		if r := &b.recs[i]; r.parent < 0 && r.Name == t {
			return r.Exported
		}
	}
	return true
}

// luaFinish makes the functions stored in a public table public (the
// table the chunk returns became public through alsoNames).
func luaFinish(b *builder) {
	public := map[string]bool{}
	for i := range b.recs {
		if r := &b.recs[i]; r.parent < 0 && r.Exported && luaTable(r.Name) == "" {
			public[r.Name] = true
		}
	}
	for i := range b.recs {
		if r := &b.recs[i]; r.parent < 0 && public[luaTable(r.Name)] {
			r.Exported = true
		}
	}
}

// --- PHP ---

func phpDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	name := func() string { return b.text(field(n, "name")) }
	body := func() int { return start(field(n, "body")) }
	switch typ {
	case "namespace_definition":
		if field(n, "body") == nil {
			return found{kind: "namespace", name: name(), bodyStart: -1, leaf: true}, true
		}
		return found{kind: "namespace", name: name(), bodyStart: body(), headerOnly: true}, true
	case "class_declaration":
		return found{kind: "class", name: name(), bodyStart: body(), container: true}, true
	case "interface_declaration":
		return found{kind: "interface", name: name(), bodyStart: body(), container: true}, true
	case "trait_declaration":
		return found{kind: "trait", name: name(), bodyStart: body(), container: true}, true
	case "enum_declaration":
		return found{kind: "enum", name: name(), bodyStart: body(), container: true}, true
	case "function_definition":
		return found{kind: "function", name: name(), bodyStart: body()}, true
	case "method_declaration":
		return found{kind: "method", name: name(), bodyStart: body(), leaf: true}, true
	case "const_declaration":
		var names []string
		cnt := int(n.NamedChildCount())
		for i := 0; i < cnt; i++ {
			if c := n.NamedChild(i); c != nil && b.g.typ(c) == "const_element" {
				names = append(names, b.text(b.childOfType(c, "name")))
			}
		}
		return found{kind: "const", name: strings.Join(names, ", "), bodyStart: -1, leaf: true}, true
	case "property_declaration":
		var names []string
		cnt := int(n.NamedChildCount())
		for i := 0; i < cnt; i++ {
			if c := n.NamedChild(i); c != nil && b.g.typ(c) == "property_element" {
				names = append(names, b.text(b.childOfType(c, "variable_name")))
			}
		}
		return found{kind: "property", name: strings.Join(names, ", "), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

func phpExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	if parent < 0 || b.recs[parent].Kind == "namespace" || b.recs[parent].Kind == "interface" {
		return true
	}
	return !b.hasChildText(n, "visibility_modifier", "private", "protected")
}

// --- Scala ---

func scalaDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	name := func() string { return b.text(field(n, "name")) }
	body := func() int { return start(field(n, "body")) }
	switch typ {
	case "package_clause":
		if field(n, "body") == nil {
			return found{}, false
		}
		return found{kind: "namespace", name: name(), bodyStart: body(), headerOnly: true}, true
	case "class_definition":
		return found{kind: "class", name: name(), bodyStart: body(), container: true}, true
	case "trait_definition":
		return found{kind: "trait", name: name(), bodyStart: body(), container: true}, true
	case "object_definition", "package_object":
		return found{kind: "object", name: name(), bodyStart: body(), container: true}, true
	case "enum_definition":
		return found{kind: "enum", name: name(), bodyStart: body(), container: true}, true
	case "extension_definition":
		return found{kind: "extension", name: b.text(b.childOfType(n, "parameters")), bodyStart: body(), container: true}, true
	case "function_definition", "function_declaration":
		kind := "function"
		if inContainer(b, parent) {
			kind = "method"
		}
		bs := start(b.childOfType(n, "="))
		if bs < 0 {
			bs = body()
		}
		return found{kind: kind, name: name(), bodyStart: bs, leaf: typ == "function_declaration"}, true
	case "val_definition", "var_definition", "val_declaration", "var_declaration":
		switch b.parentTyp(n) {
		case "compilation_unit", "template_body":
		default:
			return found{}, false
		}
		nm := field(n, "pattern")
		if nm == nil {
			nm = field(n, "name")
		}
		return found{kind: "property", name: b.text(nm), bodyStart: start(b.childOfType(n, "=")), leaf: true}, true
	case "type_definition":
		return found{kind: "type", name: name(), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

func scalaExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	m := b.childOfType(n, "modifiers")
	if m == nil {
		return true
	}
	cnt := int(m.ChildCount())
	for i := 0; i < cnt; i++ {
		if c := m.Child(i); c != nil && b.g.typ(c) == "access_modifier" {
			return false // private, protected, private[scope]
		}
	}
	return true
}

// --- Swift ---

func swiftDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	name := func() string { return b.text(field(n, "name")) }
	body := func() int { return start(field(n, "body")) }
	member := func() string {
		if inContainer(b, parent) {
			return "method"
		}
		return "function"
	}
	switch typ {
	case "class_declaration":
		kind := b.text(field(n, "declaration_kind"))
		switch kind {
		case "class", "struct", "enum", "extension":
		case "actor":
			kind = "class"
		default:
			kind = "class"
		}
		return found{kind: kind, name: name(), bodyStart: body(), container: true}, true
	case "protocol_declaration":
		return found{kind: "interface", name: name(), bodyStart: body(), container: true}, true
	case "function_declaration":
		return found{kind: member(), name: name(), bodyStart: body()}, true
	case "protocol_function_declaration":
		return found{kind: "method", name: name(), bodyStart: -1, leaf: true}, true
	case "init_declaration":
		return found{kind: "method", name: "init", bodyStart: body(), leaf: true}, true
	case "deinit_declaration":
		return found{kind: "method", name: "deinit", bodyStart: body(), leaf: true}, true
	case "subscript_declaration":
		return found{kind: "method", name: "subscript", bodyStart: start(b.childOfType(n, "computed_property")), leaf: true}, true
	case "property_declaration", "protocol_property_declaration":
		switch b.parentTyp(n) {
		case "source_file", "class_body", "enum_class_body", "protocol_body":
		default:
			return found{}, false
		}
		nm := field(n, "name")
		if id := field(nm, "bound_identifier"); id != nil {
			nm = id
		} else if nm != nil {
			if id := b.childOfType(nm, "simple_identifier"); id != nil {
				nm = id
			}
		}
		bs := start(field(n, "computed_value"))
		if bs < 0 {
			bs = start(b.childOfType(n, "protocol_property_requirements"))
		}
		return found{kind: "property", name: b.text(nm), bodyStart: bs, leaf: true}, true
	case "typealias_declaration":
		return found{kind: "type", name: name(), bodyStart: -1, leaf: true}, true
	}
	return found{}, false
}

func swiftExported(b *builder, n, outer *sitter.Node, f found, parent int, pre []byte) bool {
	if parent >= 0 && b.recs[parent].Kind == "interface" {
		return true
	}
	if f.kind == "extension" {
		return true // its public members are the surface
	}
	m := b.childOfType(n, "modifiers")
	return m != nil && b.hasChildText(m, "visibility_modifier", "public", "open")
}

// --- YAML ---

func yamlDecl(b *builder, n *sitter.Node, typ string, parent int) (found, bool) {
	if typ != "block_mapping_pair" {
		return found{}, false
	}
	k := field(n, "key")
	if k == nil {
		return found{}, false
	}
	nm := strings.TrimSpace(b.text(k))
	if len(nm) >= 2 && (nm[0] == '"' || nm[0] == '\'') && nm[len(nm)-1] == nm[0] {
		nm = nm[1 : len(nm)-1]
	}
	v := field(n, "value")
	if v != nil && b.g.typ(v) == "block_node" {
		// The body starts after the colon: a comment between the key and
		// its value belongs to the first key below.
		bs := start(v)
		if c := b.childOfType(n, ":"); c != nil {
			bs = int(c.EndByte())
		}
		return found{kind: "key", name: nm, bodyStart: bs, container: true}, true
	}
	return found{kind: "key", name: nm, bodyStart: -1, leaf: true}, true
}
