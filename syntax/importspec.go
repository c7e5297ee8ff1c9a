package syntax

// Import is one import of a source (see Imports).
type Import struct {
	// Kind is "import", "from" (Python from-import), "export-from" (a
	// JavaScript re-export), "require" (require() or import() of a
	// string; Ruby require), "require_relative", "load", "mod" (a Rust
	// mod without a body), "use", "include" or "include-system".
	Kind string
	// Spec is what is imported, as written: a Go import path, a Python
	// module (".pkg.mod" for relative ones), a JavaScript specifier, a
	// Rust path ("crate::a::B") or module name, a Java name, a header, a
	// Ruby feature.
	Spec string
	// Names are a Python from-import's names and a Rust use list's items.
	Names []string
	// Line is the 1-based line of the statement; Start and End its bytes.
	Line       int
	Start, End int
}
