//go:build cgo

package syntax

import sitter "github.com/smacker/go-tree-sitter"

// moreGrammar is a later language's grammar before its declaration rules
// exist: it parses (ParseTree, Grammar) and finds no declarations yet.
func moreGrammar(get func() *sitter.Language) *grammar {
	return &grammar{get: get, classify: noDecl, wraps: never}
}

func noDecl(*builder, *sitter.Node, string, int) (found, bool) { return found{}, false }
