package structural

import (
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// A pattern means what its text means where a developer writes it: in a
// function body. ast-grep parses the snippet standing alone, and some
// grammars read a snippet alone otherwise than the same text in code: C's
// `free(p)` alone is a macro type, C++'s `std::move(a)` a declaration,
// Go's `fmt.Errorf(x)` a conversion, and C#'s `if (a == null) { $$$B }` a
// syntax error; each then matches nothing. evgrep's one rule (bodyReading):
//
//   - a text that reads as a call in an expression of a function body is
//     that call, whatever the grammar makes of it alone;
//   - a text that reads with a syntax error alone, and without one as a
//     statement of a function body, is that statement; a `$$$LIST` alone
//     before a `}` there stands for statements, so where the grammar
//     wants a statement there evgrep reads it as one (C#'s `{ $$$B }`).
//
// Every other pattern is read as ast-grep reads it. The cases where this
// differs from ast-grep are listed in internal/astsearch's
// TestAstGrepMisreads and bench/structdiff/DIFFERENCES.

// codeContext is a place of a function body: the pattern's text goes
// between prefix and suffix.
type codeContext struct{ prefix, suffix string }

// exprContexts put the pattern where an expression stands (the right side
// of an assignment); stmtContexts where a statement stands. Languages
// without one (markup, style sheets, shell commands) keep ast-grep's
// reading.
var exprContexts = map[syntax.Language]codeContext{
	"c":          {"void _f(void) { _x = ", "; }\n"},
	"cpp":        {"void _f() { _x = ", "; }\n"},
	"csharp":     {"class _C { void _f() { _x = ", "; } }\n"},
	"go":         {"package _p\nfunc _f() { _ = ", "\n}\n"},
	"java":       {"class _C { void _f() { _x = ", "; } }\n"},
	"javascript": {"_x = ", ";\n"},
	"typescript": {"_x = ", ";\n"},
	"tsx":        {"_x = ", ";\n"},
	"kotlin":     {"fun _f() { _x = ", "\n}\n"},
	"lua":        {"_x = ", "\n"},
	"python":     {"_x = ", "\n"},
	"ruby":       {"_x = ", "\n"},
	"rust":       {"fn _f() { _x = ", "; }\n"},
	"scala":      {"object _O { val _x = ", "\n}\n"},
	"swift":      {"func _f() { _x = ", "\n}\n"},
}

var stmtContexts = map[syntax.Language]codeContext{
	"c":          {"void _f(void) {\n", "\n}\n"},
	"cpp":        {"void _f() {\n", "\n}\n"},
	"csharp":     {"class _C { void _f() {\n", "\n} }\n"},
	"go":         {"package _p\nfunc _f() {\n", "\n}\n"},
	"java":       {"class _C { void _f() {\n", "\n} }\n"},
	"javascript": {"function _f() {\n", "\n}\n"},
	"typescript": {"function _f() {\n", "\n}\n"},
	"tsx":        {"function _f() {\n", "\n}\n"},
	"kotlin":     {"fun _f() {\n", "\n}\n"},
	"rust":       {"fn _f() {\n", "\n}\n"},
	"scala":      {"object _O { def _f() = {\n", "\n} }\n"},
	"swift":      {"func _f() {\n", "\n}\n"},
}

// bodyReading returns the node of the function-body reading of proc (the
// preprocessed pattern) that replaces alone (the node ast-grep's reading
// takes in tree t), or ok false to keep ast-grep's reading.
// The offsets of the bytes evgrep inserted (terminateLists) are returned
// as skip.
func bodyReading(lang *Lang, proc string, t *syntax.Tree, alone int32) (bt *syntax.Tree, n int32, skip map[uint32]bool, ok bool) {
	aloneKind := t.Kind(alone)
	if c, has := exprContexts[lang.Name]; has {
		if bt, n, ok := readIn(lang, c, proc); ok && isCallKind(bt.Kind(n)) && bt.Kind(n) != aloneKind && !bt.Nodes[0].HasError() {
			return bt, n, nil, true
		}
	}
	if !t.Nodes[0].HasError() && aloneKind != "ERROR" {
		return nil, 0, nil, false
	}
	// The body's whole tree must read without an error: a pattern
	// node found amid errors is not a reading.
	clean := func(bt *syntax.Tree, n int32, ok bool) bool {
		return ok && bt.Kind(n) != "ERROR" && !bt.Nodes[0].HasError()
	}
	if c, has := stmtContexts[lang.Name]; has {
		if bt, n, ok := readIn(lang, c, proc); clean(bt, n, ok) {
			return bt, n, nil, true
		}
		if with, at := terminateLists(lang, proc); len(at) != 0 {
			if bt, n, ok := readIn(lang, c, with); clean(bt, n, ok) {
				skip = map[uint32]bool{}
				lead := len(proc) - len(strings.TrimLeft(proc, " \t\r\n"))
				for _, k := range at {
					skip[uint32(len(c.prefix)+k-lead)] = true
				}
				return bt, n, skip, true
			}
		}
	}
	return nil, 0, nil, false
}

// terminateLists makes a statement of each `$$$LIST` metavariable that is
// followed only by white space and a `}`: it appends `();` (a call
// statement, which every C-like grammar takes, where C# takes no bare
// name), returning the new text and the offsets of the inserted bytes.
func terminateLists(lang *Lang, proc string) (string, []int) {
	sigil := strings.Repeat(string(lang.expando), 3)
	var b strings.Builder
	var at []int
	for i := 0; i < len(proc); {
		k := strings.Index(proc[i:], sigil)
		if k < 0 {
			b.WriteString(proc[i:])
			break
		}
		j := i + k + len(sigil)
		for j < len(proc) && (proc[j] >= 'A' && proc[j] <= 'Z' || proc[j] >= '0' && proc[j] <= '9' || proc[j] == '_') {
			j++
		}
		b.WriteString(proc[i:j])
		rest := strings.TrimLeft(proc[j:], " \t\r\n")
		if strings.HasPrefix(rest, "}") {
			for _, c := range []byte("();") {
				at = append(at, b.Len())
				b.WriteByte(c)
			}
		}
		i = j
	}
	return b.String(), at
}

// readIn parses proc in context c and returns the outermost node spanning
// exactly the pattern's text (without its surrounding white space),
// descended through the nodes that only wrap one child.
func readIn(lang *Lang, c codeContext, proc string) (*syntax.Tree, int32, bool) {
	body := strings.TrimSpace(proc)
	if body == "" {
		return nil, 0, false
	}
	t, err := syntax.ParseFlat(lang.Name, []byte(c.prefix+body+c.suffix))
	if err != nil {
		return nil, 0, false
	}
	start, end := uint32(len(c.prefix)), uint32(len(c.prefix)+len(body))
	i := int32(0)
	for {
		n := &t.Nodes[i]
		if n.Start == start && n.End == end {
			break
		}
		next := int32(-1)
		for k := t.FirstChild(i); k >= 0; k = t.Nodes[k].Next {
			if t.Nodes[k].Start <= start && t.Nodes[k].End >= end {
				next = k
				break
			}
		}
		if next < 0 {
			return nil, 0, false
		}
		i = next
	}
	for singleNode(t, i) {
		i = t.FirstChild(i)
	}
	return t, i, true
}

// isCallKind: a grammar's kind of a call (call_expression, call,
// invocation_expression, method_invocation, function_call...).
func isCallKind(k string) bool {
	return strings.Contains(k, "call") || strings.Contains(k, "invocation")
}
