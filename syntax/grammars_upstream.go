//go:build cgo

package syntax

import (
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	tslua "github.com/tree-sitter-grammars/tree-sitter-lua/bindings/go"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
)

// The grammars whose copies in smacker/go-tree-sitter are older than the
// ones ast-grep 0.51.1 parses with: they come from the grammar projects'
// own Go modules, which export only the C language table, and run on the
// same runtime as the others. The versions are the newest of language ABI
// 14 (the runtime's newest): tree-sitter-rust 0.23.3 and tree-sitter-c
// 0.23.6 have the same grammar.js as 0.24.0 and 0.24.1 (ABI 15), so they
// build the same trees; tree-sitter-cpp 0.23.4; and tree-sitter-grammars'
// Lua 0.2.0, the grammar ast-grep reads Lua with (smacker's is another
// grammar, with other node kinds).
var (
	upstreamC    = sync.OnceValue(func() *sitter.Language { return sitter.NewLanguage(tsc.Language()) })
	upstreamCpp  = sync.OnceValue(func() *sitter.Language { return sitter.NewLanguage(tscpp.Language()) })
	upstreamRust = sync.OnceValue(func() *sitter.Language { return sitter.NewLanguage(tsrust.Language()) })
	upstreamLua  = sync.OnceValue(func() *sitter.Language { return sitter.NewLanguage(tslua.Language()) })
)
