//go:build cgo

package syntax

import (
	"context"
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"
)

// Grammar returns the tree-sitter language of lang, for callers that walk
// or query syntax trees themselves (structural search). The grammar is
// constructed on first use, never at program start. The second result is
// false for an unknown language. Only a cgo build has this function; code
// that calls it carries the same `cgo` build constraint.
func Grammar(lang Language) (*sitter.Language, bool) {
	g := grammars()[lang]
	if g == nil {
		return nil, false
	}
	g.init()
	return g.lang, true
}

// LanguageByName is Grammar of Lookup(name): the tree-sitter language for
// an ast-grep language name or alias ("go", "ts", "csharp", "yml", …).
func LanguageByName(name string) (*sitter.Language, bool) {
	l, ok := Lookup(name)
	if !ok {
		return nil, false
	}
	return Grammar(l)
}

// ParseTree parses src with lang's grammar, under the package's bounds
// (MaxSource, ParseTimeout), and returns the whole syntax tree; the caller
// owns it and must Close it. The tree is not cached (Outline and
// Enclosing keep only the declarations). Errors: ErrNoParser for an
// unknown language, ErrTooLarge, or a parser failure.
func ParseTree(lang Language, src []byte) (*sitter.Tree, error) {
	g := grammars()[lang]
	if g == nil {
		return nil, fmt.Errorf("%w for language %q", ErrNoParser, string(lang))
	}
	if len(src) > MaxSource {
		return nil, fmt.Errorf("%w: %d bytes, over the %d MiB cap", ErrTooLarge, len(src), MaxSource>>20)
	}
	return g.parseTree(src)
}

// parseTree runs the parser over src within ParseTimeout.
func (g *grammar) parseTree(src []byte) (*sitter.Tree, error) {
	g.init()
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(g.lang)
	ctx, cancel := context.WithTimeout(context.Background(), ParseTimeout)
	defer cancel()
	tree, err := p.ParseCtx(ctx, nil, src)
	if ctx.Err() != nil {
		if tree != nil {
			tree.Close()
		}
		return nil, fmt.Errorf("%w: parsing took longer than %v", ErrTooLarge, ParseTimeout)
	}
	if err != nil || tree == nil {
		return nil, &Error{"parser failure"}
	}
	return tree, nil
}
