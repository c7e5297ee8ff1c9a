//go:build cgo

package syntax

import (
	"context"
	"fmt"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
)

// roleRules are one language's rules for occurrences. A rule table maps
// "parentType.field" (or "parentType." for a child without a field) to the
// role of a name there.
type roleRules struct {
	comment, str, imports set0
	// lift lists wrappers a name is seen through ("parentType.field"):
	// qualified names (the name part), declarators, expression lists.
	lift set0
	// rules give the role of a name by where it stands.
	rules map[string]Role
	// member is the member-access rule per node type ("selector_expression"
	// → "field"): a member is a field, or a call when the access is the
	// callee (callee lists "callType.field" pairs).
	member map[string]string
	callee set0
	// types are node types that are type uses wherever they are not a
	// definition; typeCtx are ancestors that make any name a type use.
	types, typeCtx set0
	// tokens give the role of a larger token that contains the name
	// (a Ruby instance variable).
	tokens map[string]Role
	// hook runs first and may decide (import by require, test modules).
	hook func(src []byte, path []frame, k int) (Role, string, bool)
	// inTest reports whether an ancestor marks test code.
	inTest func(src []byte, path []frame) bool
}

type set0 = map[string]bool

// HasRoles reports whether Occurrences classifies occurrences of lang
// (a parser and role rules); otherwise they come back unclassified.
func HasRoles(lang Language) bool { return Supported(lang) && roleRulesOf(lang) != nil }

// classify fills the roles of occs (all unclassified on entry).
func classify(lang Language, src []byte, occs []Occurrence) error {
	g := grammars()[lang]
	rr := roleRulesOf(lang)
	if g == nil {
		return ErrNoParser
	}
	if rr == nil {
		return ErrNoRoleRules
	}
	g.init()
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(g.lang)
	ctx, cancel := context.WithTimeout(context.Background(), ParseTimeout)
	defer cancel()
	tree, err := p.ParseCtx(ctx, nil, src)
	if ctx.Err() != nil {
		return fmt.Errorf("%w: parsing took longer than %v", ErrTooLarge, ParseTimeout)
	}
	if err != nil || tree == nil {
		return &Error{"parser failure"}
	}
	defer tree.Close()
	root := tree.RootNode()
	cur := sitter.NewTreeCursor(root)
	defer cur.Close()
	var path []frame
	last := -1
	for i := range occs {
		o := &occs[i]
		if o.Start < last || path == nil {
			// Not in order (never from a search): from the root again.
			cur.Reset(root)
			path = rr.push(g, path[:0], root, "")
		}
		last = o.Start
		path = rr.descend(g, cur, uint32(o.Start), uint32(o.End), path)
		o.Role, o.Detail = rr.role(src, path, o.Start, o.End)
		if rr.inTest != nil {
			o.InTest = rr.inTest(src, path)
		}
	}
	return nil
}

// identLike reports whether a node type is a name token.
func identLike(typ string) bool {
	return strings.HasSuffix(typ, "identifier") || typ == "constant"
}

// role classifies one occurrence at the end of path.
func (rr *roleRules) role(src []byte, path []frame, s, e int) (Role, string) {
	k := len(path) - 1
	for k > 0 && !path[k].n.IsNamed() {
		k--
	}
	if path[k].bad {
		return RoleUnclassified, "syntax error around it"
	}
	if rr.hook != nil {
		if r, d, ok := rr.hook(src, path, k); ok {
			return r, d
		}
	}
	n := path[k]
	exact := int(n.n.StartByte()) == s && int(n.n.EndByte()) == e
	if !exact || !identLike(n.typ) {
		// The nearest comment wins (a comment in an import block is a
		// comment); then an import (a path string is part of it); then
		// the nearest string.
		if c := path[k].comment; c >= 0 {
			return RoleComment, path[c].typ
		}
		if i := path[k].imp; i >= 0 {
			return RoleImport, path[i].typ
		}
		if c := path[k].str; c >= 0 {
			return RoleString, path[c].typ
		}
		if r, ok := rr.tokens[n.typ]; ok {
			return r, n.typ
		}
		return RoleUnclassified, "inside " + n.typ
	}
	if i := path[k].imp; i >= 0 {
		return RoleImport, path[i].typ
	}
	// See the name through its wrappers.
	j := k
	for j > 0 && rr.lift[path[j-1].typ+"."+path[j].field] {
		j--
	}
	if j == 0 {
		return RoleReference, n.typ
	}
	at := path[j-1].typ + "." + path[j].field
	if r, ok := rr.rules[at]; ok {
		return r, at
	}
	if f, ok := rr.member[path[j-1].typ]; ok && f == path[j].field {
		if j >= 2 && rr.callee[path[j-2].typ+"."+path[j-1].field] {
			return RoleCall, path[j-2].typ + "." + path[j-1].field + " " + at
		}
		return RoleField, at
	}
	if rr.callee[at] {
		return RoleCall, at
	}
	if rr.types[n.typ] {
		return RoleTypeUse, n.typ
	}
	if i := path[j-1].typeCtx; i >= 0 {
		return RoleTypeUse, "inside " + path[i].typ
	}
	return RoleReference, at
}

// text is src of n.
func nodeText(src []byte, n *sitter.Node) string {
	s, e := int(n.StartByte()), int(n.EndByte())
	if s < 0 || e > len(src) || s > e {
		return ""
	}
	return string(src[s:e])
}

// roleRulesOf returns the rules of lang, or nil. Each language's table is
// built on its first use: the maps cost every process start-up otherwise.
func roleRulesOf(lang Language) *roleRules {
	switch lang {
	case Go:
		return goRoles()
	case Python:
		return pyRoles()
	case Rust:
		return rustRoles()
	case JavaScript, TypeScript, TSX:
		return jsRoles()
	case Java:
		return javaRoles()
	case C, Cpp:
		return cRoles()
	case Ruby:
		return rubyRoles()
	}
	return nil
}

// rulesOf builds a rule table from "parent.field" keys per role.
func rulesOf(m map[Role][]string) map[string]Role {
	out := map[string]Role{}
	for r, keys := range m {
		for _, k := range keys {
			out[k] = r
		}
	}
	return out
}

var goRoles = sync.OnceValue(func() *roleRules {
	return &roleRules{
		comment: set("comment"),
		str:     set("interpreted_string_literal", "raw_string_literal", "rune_literal"),
		imports: set("import_declaration", "import_spec"),
		lift:    set("qualified_type.name", "expression_list.", "generic_type.type"),
		rules: rulesOf(map[Role][]string{
			RoleDefinition: {"function_declaration.name", "method_declaration.name", "type_spec.name", "type_alias.name",
				"const_spec.name", "var_spec.name", "short_var_declaration.left", "type_parameter_declaration.name"},
			RoleDeclaration: {"method_elem.name", "method_spec.name", "field_declaration.name",
				"parameter_declaration.name", "variadic_parameter_declaration.name"},
			RoleCall: {"call_expression.function"},
		}),
		member: map[string]string{"selector_expression": "field"},
		callee: set("call_expression.function"),
		types:  set("type_identifier"),
		hook:   goHook,
	}
})

// goHook: the key of a keyed element in a composite literal is a field.
func goHook(src []byte, path []frame, k int) (Role, string, bool) {
	if k >= 2 && path[k-1].typ == "literal_element" && path[k-2].typ == "keyed_element" && identLike(path[k].typ) {
		if first := path[k-2].n.NamedChild(0); first != nil && first.Equal(path[k-1].n) {
			return RoleField, "keyed_element key", true
		}
	}
	return "", "", false
}

var pyRoles = sync.OnceValue(func() *roleRules {
	return &roleRules{
		comment: set("comment"),
		str:     set("string", "string_content", "concatenated_string"),
		imports: set("import_statement", "import_from_statement", "future_import_statement"),
		lift:    set(),
		rules: rulesOf(map[Role][]string{
			RoleDefinition: {"function_definition.name", "class_definition.name", "assignment.left"},
			RoleDeclaration: {"parameters.", "typed_parameter.", "default_parameter.name", "typed_default_parameter.name",
				"list_splat_pattern.", "dictionary_splat_pattern.", "lambda_parameters."},
			RoleCall: {"call.function", "decorator."},
		}),
		member:  map[string]string{"attribute": "attribute"},
		callee:  set("call.function", "decorator."),
		typeCtx: set("type"),
		hook:    pyHook,
	}
})

// pyHook: a bare name in an argument list is a type use only among a
// class's superclasses; elsewhere it is a reference.
func pyHook(src []byte, path []frame, k int) (Role, string, bool) {
	if k >= 1 && path[k-1].typ == "argument_list" && path[k].field == "" && identLike(path[k].typ) {
		if k >= 2 && path[k-2].typ == "class_definition" && path[k-1].field == "superclasses" {
			return RoleTypeUse, "class_definition.superclasses", true
		}
		return RoleReference, "argument_list", true
	}
	return "", "", false
}

var rustRoles = sync.OnceValue(func() *roleRules {
	return &roleRules{
		comment: set("line_comment", "block_comment", "doc_comment"),
		str:     set("string_literal", "raw_string_literal", "char_literal"),
		imports: set("use_declaration", "extern_crate_declaration"),
		lift:    set("scoped_identifier.name", "scoped_type_identifier.name", "generic_type.type", "reference_type.type"),
		rules: rulesOf(map[Role][]string{
			RoleDefinition: {"function_item.name", "struct_item.name", "enum_item.name", "union_item.name", "trait_item.name",
				"type_item.name", "const_item.name", "static_item.name", "macro_definition.name", "enum_variant.name",
				"let_declaration.pattern", "mod_item.name", "associated_type.name"},
			RoleDeclaration: {"function_signature_item.name", "field_declaration.name", "parameter.pattern"},
			RoleField:       {"field_initializer.field", "shorthand_field_initializer."},
		}),
		member: map[string]string{"field_expression": "field"},
		callee: set("call_expression.function", "macro_invocation.macro"),
		types:  set("type_identifier"),
		inTest: rustInTest,
	}
})

// rustInTest: an ancestor function or module carries #[test] or
// #[cfg(test)] (an attribute item right before it).
func rustInTest(src []byte, path []frame) bool {
	for _, f := range path {
		if f.typ != "function_item" && f.typ != "mod_item" {
			continue
		}
		for p := f.n.PrevNamedSibling(); p != nil; p = p.PrevNamedSibling() {
			t := p.Type()
			if t == "line_comment" || t == "block_comment" {
				continue
			}
			if t != "attribute_item" {
				break
			}
			a := strings.Join(strings.Fields(nodeText(src, p)), "")
			if a == "#[test]" || strings.HasSuffix(a, "::test]") || strings.Contains(a, "cfg(test)") {
				return true
			}
		}
	}
	return false
}

var jsRoles = sync.OnceValue(func() *roleRules {
	return &roleRules{
		comment: set("comment", "html_comment"),
		str:     set("string", "template_string", "string_fragment", "regex"),
		imports: set("import_statement", "import_alias"),
		lift:    set("nested_type_identifier.name", "generic_type.name", "nested_identifier.property"),
		rules: rulesOf(map[Role][]string{
			RoleDefinition: {"function_declaration.name", "generator_function_declaration.name", "class_declaration.name",
				"class.name", "method_definition.name", "interface_declaration.name", "type_alias_declaration.name",
				"enum_declaration.name", "abstract_class_declaration.name", "module.name", "internal_module.name",
				"variable_declarator.name", "function_expression.name", "function.name"},
			RoleDeclaration: {"function_signature.name", "method_signature.name", "abstract_method_signature.name",
				"field_definition.property", "public_field_definition.name", "property_signature.name",
				"formal_parameters.", "required_parameter.pattern", "optional_parameter.pattern"},
			RoleField:   {"pair.key", "shorthand_property_identifier."},
			RoleTypeUse: {"class_heritage.", "extends_clause.value"},
			RoleCall:    {"new_expression.constructor", "jsx_opening_element.name", "jsx_self_closing_element.name"},
		}),
		member: map[string]string{"member_expression": "property"},
		callee: set("call_expression.function", "new_expression.constructor"),
		types:  set("type_identifier"),
		hook:   jsHook,
	}
})

// jsHook: a re-export (export … from "x") and require("x") are imports.
func jsHook(src []byte, path []frame, k int) (Role, string, bool) {
	for j := k; j >= 0; j-- {
		f := &path[j]
		if f.typ != "export_statement" && f.typ != "call_expression" {
			continue
		}
		if f.memo&memoDone == 0 {
			f.memo |= memoDone
			if f.typ == "export_statement" && f.n.ChildByFieldName("source") != nil {
				f.memo |= memoExportFrom
			}
			if f.typ == "call_expression" {
				if fn := f.n.ChildByFieldName("function"); fn != nil && fn.Type() == "identifier" && nodeText(src, fn) == "require" {
					f.memo |= memoRequire
				}
			}
		}
		if f.memo&memoExportFrom != 0 {
			return RoleImport, "export_statement with source", true
		}
		if f.memo&memoRequire != 0 && j < k {
			return RoleImport, "require", true
		}
	}
	return "", "", false
}

// Bits of frame.memo: the node was looked at; it is an export … from, a
// require call (JavaScript), a Ruby require-like call (memoRequire too).
const (
	memoDone       = 1
	memoExportFrom = 2
	memoRequire    = 4
)

var javaRoles = sync.OnceValue(func() *roleRules {
	return &roleRules{
		comment: set("line_comment", "block_comment"),
		str:     set("string_literal", "character_literal", "text_block", "string_fragment"),
		imports: set("import_declaration"),
		lift:    set("scoped_type_identifier.", "generic_type.", "scoped_identifier.name"),
		rules: rulesOf(map[Role][]string{
			RoleDefinition: {"class_declaration.name", "interface_declaration.name", "enum_declaration.name",
				"record_declaration.name", "annotation_type_declaration.name", "constructor_declaration.name",
				"enum_constant.name"},
			RoleDeclaration: {"formal_parameter.name", "spread_parameter.", "catch_formal_parameter.name"},
			RoleCall:        {"method_invocation.name", "object_creation_expression.type"},
			RoleField:       {"field_access.field"},
		}),
		types: set("type_identifier"),
		hook:  javaHook,
	}
})

// javaHook: a method without a body is a declaration; a variable
// declarator is a field declaration in a class body, else a local
// variable's definition.
func javaHook(src []byte, path []frame, k int) (Role, string, bool) {
	if k < 1 || path[k].field != "name" {
		return "", "", false
	}
	switch p := path[k-1]; p.typ {
	case "method_declaration":
		if p.n.ChildByFieldName("body") != nil {
			return RoleDefinition, "method_declaration.name", true
		}
		return RoleDeclaration, "method_declaration.name without body", true
	case "variable_declarator":
		if k >= 2 && (path[k-2].typ == "field_declaration" || path[k-2].typ == "constant_declaration") {
			return RoleDeclaration, path[k-2].typ + " variable_declarator.name", true
		}
		return RoleDefinition, "variable_declarator.name", true
	}
	return "", "", false
}

var cRoles = sync.OnceValue(func() *roleRules {
	return &roleRules{
		comment: set("comment"),
		str:     set("string_literal", "char_literal", "raw_string_literal", "system_lib_string", "string_content"),
		imports: set("preproc_include", "using_declaration"),
		lift:    cLift,
		rules: rulesOf(map[Role][]string{
			RoleDefinition: {"type_definition.declarator", "enumerator.name", "preproc_def.name",
				"preproc_function_def.name", "namespace_definition.name", "declaration.declarator",
				"alias_declaration.name", "concept_definition.name"},
			RoleDeclaration: {"parameter_declaration.declarator", "field_declaration.declarator",
				"optional_parameter_declaration.declarator"},
		}),
		member: map[string]string{"field_expression": "field"},
		callee: set("call_expression.function"),
		types:  set("type_identifier"),
		hook:   cHook,
	}
})

// cLift are the wrappers a C or C++ name is seen through.
var cLift = set("qualified_identifier.name", "template_function.name", "template_type.name",
	"pointer_declarator.declarator", "array_declarator.declarator", "reference_declarator.",
	"parenthesized_declarator.", "init_declarator.declarator")

// cDeclarators wrap a function declarator inside a definition.
var cDeclarators = set("pointer_declarator", "reference_declarator", "parenthesized_declarator", "function_declarator")

// cHook: a function declarator's name is a definition inside a function
// definition and a declaration (a prototype) elsewhere; a struct, union,
// enum or class name is a definition with a body and a type use without.
func cHook(src []byte, path []frame, k int) (Role, string, bool) {
	if k < 1 || !identLike(path[k].typ) {
		return "", "", false
	}
	j := k
	for j > 0 && cLift[path[j-1].typ+"."+path[j].field] {
		j--
	}
	if j == 0 {
		return "", "", false
	}
	p := path[j-1]
	switch p.typ {
	case "function_declarator":
		if path[j].field != "declarator" {
			return "", "", false
		}
		i := j - 2
		for i >= 0 && cDeclarators[path[i].typ] {
			i--
		}
		if i >= 0 && path[i].typ == "function_definition" {
			return RoleDefinition, "function_definition function_declarator", true
		}
		return RoleDeclaration, "function_declarator (prototype)", true
	case "struct_specifier", "union_specifier", "enum_specifier", "class_specifier":
		if path[j].field != "name" {
			return "", "", false
		}
		if p.n.ChildByFieldName("body") != nil {
			return RoleDefinition, p.typ + ".name", true
		}
		return RoleTypeUse, p.typ + ".name without body", true
	}
	return "", "", false
}

var rubyRoles = sync.OnceValue(func() *roleRules {
	return &roleRules{
		comment: set("comment"),
		str:     set("string", "string_content", "heredoc_body", "bare_string"),
		imports: set(),
		lift:    set("scope_resolution.name"),
		rules: rulesOf(map[Role][]string{
			RoleDefinition:  {"class.name", "module.name", "method.name", "singleton_method.name", "assignment.left"},
			RoleDeclaration: {"method_parameters.", "optional_parameter.name", "keyword_parameter.name", "block_parameters."},
			RoleTypeUse:     {"superclass."},
			RoleCall:        {"call.method"},
		}),
		tokens: map[string]Role{"instance_variable": RoleField, "class_variable": RoleField, "simple_symbol": RoleReference},
		hook:   rubyHook,
	}
})

// rubyHook: the arguments of require, require_relative, load and autoload
// are imports.
func rubyHook(src []byte, path []frame, k int) (Role, string, bool) {
	for j := k - 1; j >= 0; j-- {
		f := &path[j]
		if f.typ != "call" {
			continue
		}
		if f.memo&memoDone == 0 {
			f.memo |= memoDone
			if f.n.ChildByFieldName("receiver") == nil {
				if m := f.n.ChildByFieldName("method"); m != nil {
					switch nodeText(src, m) {
					case "require", "require_relative", "load", "autoload":
						f.memo |= memoRequire
					}
				}
			}
		}
		if f.memo&memoRequire != 0 {
			return RoleImport, nodeText(src, f.n.ChildByFieldName("method")), true
		}
	}
	return "", "", false
}
