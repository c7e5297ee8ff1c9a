package rank

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// goDecls returns the top-level declarations of Go source with the
// standard library's parser, as package syntax would give them (comments
// attached above, whole lines), about ten times faster than the
// tree-sitter grammar on large trees. ok is false on a syntax error: the
// caller then asks package syntax.
func goDecls(src []byte) (decls []syntax.Decl, ok bool) {
	defer func() {
		// go/parser is not expected to panic; if it does, tree-sitter
		// answers instead.
		if recover() != nil {
			decls, ok = nil, false
		}
	}()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	tf := fset.File(f.Pos())
	if tf == nil {
		return nil, false
	}
	// Lines as in the source: //line directives are not followed.
	line := func(p token.Pos) int { return tf.PositionFor(p, false).Line }
	lineStart := func(p token.Pos) int { return tf.Offset(tf.LineStart(line(p))) }
	lineEnd := func(p token.Pos) int {
		l := line(p)
		if l >= tf.LineCount() {
			return len(src)
		}
		return tf.Offset(tf.LineStart(l + 1))
	}
	for _, d := range f.Decls {
		var dc syntax.Decl
		start := d.Pos()
		switch d := d.(type) {
		case *ast.FuncDecl:
			dc.Kind, dc.Name = "function", d.Name.Name
			if d.Recv != nil {
				dc.Kind = "method"
			}
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			dc.Kind = d.Tok.String()
			var names []string
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
					if d.Lparen == token.NoPos {
						switch s.Type.(type) {
						case *ast.StructType:
							dc.Kind = "struct"
						case *ast.InterfaceType:
							dc.Kind = "interface"
						}
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				}
			}
			dc.Name = strings.Join(names, ", ")
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		default:
			continue
		}
		dc.StartByte, dc.EndByte = lineStart(start), lineEnd(d.End())
		dc.StartLine, dc.EndLine = line(start), line(d.End())
		if dc.EndByte > len(src) || dc.StartByte >= dc.EndByte {
			return nil, false
		}
		decls = append(decls, dc)
	}
	return decls, true
}
