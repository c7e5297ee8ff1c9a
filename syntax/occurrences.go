package syntax

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/textpos"
)

// Role is the syntax role of one occurrence of a name (see Occurrences).
type Role string

// The roles. A test is not a syntax role: callers combine Occurrence.InTest
// and IsTestFile into one.
const (
	// RoleDefinition: the name of a declaration that gives the symbol its
	// body or value (a function or method with a body, a type, class,
	// struct, enum, trait, module, a constant or variable, a macro).
	RoleDefinition Role = "definition"
	// RoleDeclaration: a name introduced without a body (a prototype, an
	// interface or trait method signature, an abstract method, a field,
	// a parameter).
	RoleDeclaration Role = "declaration"
	// RoleCall: the callee of a call (a function, a method after a dot, a
	// constructor after new, a macro, a decorator, a JSX element).
	RoleCall Role = "call"
	// RoleReference: any other use of the name in code.
	RoleReference Role = "reference"
	// RoleImport: inside an import, use, include or require.
	RoleImport Role = "import"
	// RoleTypeUse: the name in a type position.
	RoleTypeUse Role = "type use"
	// RoleField: a member access that is not called (x.name), a key of a
	// struct or object literal, an instance variable.
	RoleField Role = "field"
	// RoleComment: inside a comment.
	RoleComment Role = "comment"
	// RoleString: inside a string literal.
	RoleString Role = "string"
	// RoleTest: used by callers for occurrences in test code.
	RoleTest Role = "test"
	// RoleUnclassified: no parser, a parser failure, a syntax error around
	// the occurrence, or a token the rules do not know.
	RoleUnclassified Role = "unclassified"
)

// Roles lists every Role in a fixed order (the order of counts in answers).
func Roles() []Role {
	return []Role{RoleDefinition, RoleDeclaration, RoleCall, RoleReference, RoleImport,
		RoleTypeUse, RoleField, RoleComment, RoleString, RoleTest, RoleUnclassified}
}

// ErrNoRoleRules: the language has a parser but no role rules (its
// occurrences stay unclassified).
var ErrNoRoleRules = &Error{"no role rules for this language"}

// Occurrence is one whole-word occurrence of a name in a source.
type Occurrence struct {
	// Start and End are the byte range of the name in src.
	Start, End int
	// Line and Col are 1-based; Col counts bytes.
	Line, Col int
	// Role is the syntax role.
	Role Role
	// Detail says which rule gave the role: the syntax node and field
	// ("call_expression.function"), or why it is unclassified.
	Detail string
	// InTest is set when the occurrence lies in test code the source
	// itself marks (Rust #[test] functions and #[cfg(test)] modules).
	InTest bool
}

// IsWordByte reports whether r continues an identifier: a letter, a digit,
// an underscore or a combining mark (rg's \w).
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r)
}

// FindWord returns the byte offsets of every occurrence of name in src
// that is not part of a longer word (no word character right before or
// after it, as rg -w). An empty name has none.
func FindWord(src []byte, name string) []int {
	if name == "" {
		return nil
	}
	var out []int
	nb := []byte(name)
	for off := 0; off+len(nb) <= len(src); {
		i := bytes.Index(src[off:], nb)
		if i < 0 {
			break
		}
		s := off + i
		e := s + len(nb)
		if wordBoundary(src, s, e) {
			out = append(out, s)
		}
		off = s + 1
	}
	return out
}

// wordBoundary reports whether src[s:e] has no word character on either
// side (a name starting or ending in a non-word character needs none).
func wordBoundary(src []byte, s, e int) bool {
	if s > 0 {
		first, _ := utf8.DecodeRune(src[s:])
		prev, _ := utf8.DecodeLastRune(src[:s])
		if isWordRune(first) && isWordRune(prev) {
			return false
		}
	}
	if e < len(src) {
		last, _ := utf8.DecodeLastRune(src[:e])
		next, _ := utf8.DecodeRune(src[e:])
		if isWordRune(last) && isWordRune(next) {
			return false
		}
	}
	return true
}

// Occurrences finds every whole-word occurrence of name in src (FindWord)
// and classifies each by its syntax role. Nothing found is dropped: when
// src cannot be parsed (no parser, over MaxSource, a parser failure) the
// occurrences come back unclassified with the error that says why.
// Binding is not resolved: an occurrence is a same-spelling token, not
// proven to be the same symbol.
func Occurrences(lang Language, src []byte, name string) ([]Occurrence, error) {
	offs := FindWord(src, name)
	if len(offs) == 0 {
		return nil, nil
	}
	lt := textpos.NewLines(src)
	occs := make([]Occurrence, len(offs))
	for i, s := range offs {
		line := lt.Line(s)
		occs[i] = Occurrence{Start: s, End: s + len(name), Line: line, Col: s - lt.Start(line) + 1, Role: RoleUnclassified}
	}
	var err error
	switch {
	case !Supported(lang):
		err = ErrNoParser
	case len(src) > MaxSource:
		err = ErrTooLarge
	default:
		err = classify(lang, src, occs)
	}
	if err != nil {
		for i := range occs {
			occs[i].Role, occs[i].Detail, occs[i].InTest = RoleUnclassified, err.Error(), false
		}
	}
	return occs, err
}
