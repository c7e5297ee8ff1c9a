// Package syntax finds declarations in source code with tree-sitter: the
// language of a file, the smallest declaration that encloses a line, and a
// file's outline (top-level items and their direct members).
//
// Callers pass the source bytes; the package never reads files, knows
// nothing of flags or printing, and never re-prints source from the tree:
// every Decl carries a byte range, and callers show src[StartByte:EndByte].
//
// Parsers are C code linked through cgo. A build with CGO_ENABLED=0 still
// compiles: there, Enclosing and Outline return ErrNoParser and Supported
// reports false, so callers fall back to a plain window and can say why.
//
// Languages carry ast-grep's names (Names; Lookup also takes its aliases).
// Callers that walk syntax trees themselves (structural search) get a
// language's tree-sitter grammar from Grammar or LanguageByName and a whole
// tree from ParseTree; those three exist in cgo builds only. No grammar
// costs anything at program start: each is built on its first use.
//
// Results are cached by language and content hash (xxhash), so repeated
// questions about the same source parse it once; the cache is bounded in
// entries and retained declarations and is safe for concurrent use.
package syntax

import (
	"fmt"
	"time"
)

// Limits, one place for all of them.
const (
	// MaxSource is the largest source, in bytes, that is parsed. Larger
	// sources get ErrTooLarge.
	MaxSource = 5 << 20
	// ParseTimeout bounds one parse; a source that takes longer gets
	// ErrTooLarge.
	ParseTimeout = 20 * time.Second
	// MaxSignature is the longest Decl.Signature, in bytes.
	MaxSignature = 200
	// cacheEntries bounds the number of parsed sources kept.
	cacheEntries = 64
	// cacheDecls bounds the declarations kept over all cached sources.
	cacheDecls = 200_000
	// headBytes is how much of a file's beginning Detect looks at.
	headBytes = 4096
	// arenaKeepBytes is how much of its memory a parse arena (arena.c)
	// keeps for the next parse; the chunks a larger tree needed beyond it
	// go back to the system at the reset.
	arenaKeepBytes = 1 << 20
	// parseBudget bounds the bytes of large sources (parseLargeBytes or
	// more) being parsed at once, over all the process's parses. A tree
	// takes about 40 times its source (GOROOT's largest file, 1.9 MB of
	// Go, a tree of some 80 MB), so two large files parsed side by side
	// held both trees, and a search's peak memory was the sum of the
	// largest that met. A source larger than the budget is parsed while
	// no other large one is; smaller sources (nearly all: a source file
	// is rarely over 100 KB) never wait.
	parseBudget     = 2 << 20
	parseLargeBytes = 256 << 10
)

// Language names a grammar. The values are the lower-case names below,
// which are also ast-grep's language names (see Names and Lookup).
type Language string

// The languages with a grammar in this package.
const (
	Go         Language = "go"
	Python     Language = "python"
	Rust       Language = "rust"
	JavaScript Language = "javascript"
	TypeScript Language = "typescript"
	TSX        Language = "tsx"
	Java       Language = "java"
	C          Language = "c"
	Cpp        Language = "cpp"
	Ruby       Language = "ruby"
	Bash       Language = "bash"
	CSharp     Language = "csharp"
	CSS        Language = "css"
	HTML       Language = "html"
	Kotlin     Language = "kotlin"
	Lua        Language = "lua"
	PHP        Language = "php"
	Scala      Language = "scala"
	Swift      Language = "swift"
	YAML       Language = "yaml"
)

// Languages lists every Language the package knows, in a fixed order: the
// first ten as they always were, then the later ones alphabetically.
func Languages() []Language {
	return []Language{Go, Python, Rust, JavaScript, TypeScript, TSX, Java, C, Cpp, Ruby,
		Bash, CSharp, CSS, HTML, Kotlin, Lua, PHP, Scala, Swift, YAML}
}

// Known reports whether lang is one of Languages (whether or not a parser
// is compiled in; see Supported).
func (lang Language) Known() bool {
	for _, l := range Languages() {
		if l == lang {
			return true
		}
	}
	return false
}

// Decl is one declaration. Line and byte ranges cover whole lines, from the
// first line of the comments, decorators or attributes attached directly
// above the declaration to its last line, so src[StartByte:EndByte] is
// exactly lines StartLine..EndLine (the last line's newline included when
// there is one).
type Decl struct {
	// Kind is one of "function", "method", "class", "struct", "union",
	// "interface", "trait", "impl", "enum", "record", "type", "const",
	// "var", "module", "namespace", "macro", and for the later languages
	// "property" (C#, Kotlin, PHP, Scala, Swift), "object" (Kotlin and
	// Scala objects), "extension" (Swift, Scala), "rule" and "at-rule"
	// (CSS), "element", "script" and "style" (HTML), "key" (YAML).
	Kind string
	// Name is the declared name ("" when anonymous). A Go const/var group
	// lists its names separated by ", "; a Rust trait impl is "Trait for
	// Type"; an `export default` without a name is "default".
	Name string
	// StartLine and EndLine are 1-based and inclusive.
	StartLine, EndLine int
	// StartByte and EndByte are the same extent as a byte range of src.
	StartByte, EndByte int
	// Signature is the declaration's head up to its body (without
	// decorators, attributes and comments), whitespace collapsed to single
	// spaces, at most MaxSignature bytes.
	Signature string
	// Header is set on a declaration nested in a class-like container
	// (class, struct, interface, trait, impl, enum, module, namespace): the
	// container's header only — its lines from the keyword to the opening
	// of its body (a Rust method's `impl` line, a Python method's `class`
	// line). Header.Children is nil and Header.Header is nil.
	Header *Decl
	// Exported reports whether the declaration belongs to the file's
	// public surface by its language's rules: Go capitalised names; Python
	// names without a leading underscore, or those listed in __all__ when
	// the module sets it; JavaScript and TypeScript `export` (also through
	// an export list), class members not private or protected; Rust `pub`
	// (members of traits and trait impls, and #[macro_export] macros);
	// Java `public` (interface members always); C and C++ declarations
	// that are not static (members by their access specifier); Ruby
	// methods not made private or protected. For Bash, C#, CSS, HTML,
	// Kotlin, Lua, PHP, Scala, Swift and YAML the rules are summed up above
	// each grammar in langs_more.go (C#: public; Swift: public or open;
	// Kotlin: not private, protected or internal; Scala and PHP: not
	// private or protected; Lua: globals and the returned table's functions; Bash:
	// functions without a leading underscore, exported variables; HTML:
	// elements with an id; CSS and YAML: everything). A member counts
	// only as part of an exported container (see Outline's callers).
	Exported bool
	// Children are the direct members of a container, in source order.
	// Outline fills them for top-level items only; Enclosing leaves them nil.
	Children []Decl
}

// Error is the type of the package's errors. Its text is a short reason
// that fits "shown as a plain window because <reason>". Compare with
// errors.Is against the Err values; some are wrapped with detail.
type Error struct{ reason string }

func (e *Error) Error() string { return e.reason }

// The package's errors.
var (
	// ErrNoParser: no parser for the language (an unknown language, or a
	// build without cgo).
	ErrNoParser = &Error{"no parser"}
	// ErrNoDecl: the line lies in no declaration (imports, top-level
	// statements, blank lines between declarations), or is out of range.
	ErrNoDecl = &Error{"no enclosing declaration"}
	// ErrSyntax: the source has a syntax error in or around the line, so
	// the declaration's extent cannot be trusted.
	ErrSyntax = &Error{"syntax error"}
	// ErrTooLarge: the source exceeds MaxSource, or its parse exceeded
	// ParseTimeout.
	ErrTooLarge = &Error{"source too large"}
)

// Enclosing returns the smallest declaration that contains the 1-based line
// (a line of its attached comments counts), with Header set when it is a
// member of a container. Errors: ErrNoParser, ErrTooLarge, ErrSyntax when
// the declaration (or, without one, the line) is covered by a syntax error,
// ErrNoDecl otherwise.
func Enclosing(lang Language, src []byte, line int) (Decl, error) {
	ix, err := load(lang, src)
	if err != nil {
		return Decl{}, err
	}
	return ix.enclosing(line)
}

// Outline returns the top-level declarations of src in source order, each
// with its direct members as Children. A source with syntax errors still
// gets an outline of what parsed. Errors: ErrNoParser, ErrTooLarge.
func Outline(lang Language, src []byte) ([]Decl, error) {
	ix, err := load(lang, src)
	if err != nil {
		return nil, err
	}
	return ix.outline(), nil
}

// OutlineNested is Outline with every level of nesting: a member's own
// members (a Ruby module's class's methods, a C++ namespace's classes'
// methods) are its Children, where Outline keeps two levels only. Errors
// as Outline's.
func OutlineNested(lang Language, src []byte) ([]Decl, error) {
	ix, err := load(lang, src)
	if err != nil {
		return nil, err
	}
	return ix.nested(), nil
}

// HasErrors reports whether src has syntax errors anywhere (an outline of
// such a source may miss or misplace items). Errors: ErrNoParser,
// ErrTooLarge.
func HasErrors(lang Language, src []byte) (bool, error) {
	ix, err := load(lang, src)
	if err != nil {
		return false, err
	}
	return len(ix.errs) > 0, nil
}

// load returns the index of src, from the cache or by parsing.
func load(lang Language, src []byte) (*index, error) {
	if err := parseable(lang, src); err != nil {
		return nil, err
	}
	return defaultCache.get(lang, src, parse)
}

// parseable is the error of a source that is not parsed: a language
// without a parser (ErrNoParser), or a source over MaxSource
// (ErrTooLarge).
func parseable(lang Language, src []byte) error {
	if !Supported(lang) {
		if lang.Known() {
			return ErrNoParser
		}
		return fmt.Errorf("%w for language %q", ErrNoParser, string(lang))
	}
	if len(src) > MaxSource {
		return fmt.Errorf("%w: %d bytes, over the %d MiB cap", ErrTooLarge, len(src), MaxSource>>20)
	}
	return nil
}
