package agent

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentReadsThroughThePipeline: the agent neither walks nor opens files
// itself; the search goes through internal/pipeline (with the collector as
// its Sink and Opener), and inspect and outline read through
// pipeline.OpenChecked. The test fails on a call that bypasses the seam.
func TestAgentReadsThroughThePipeline(t *testing.T) {
	banned := map[string]bool{
		"walker.Walk": true, "os.Open": true, "os.OpenFile": true, "os.ReadFile": true,
		"os.Create": true, "syscall.Open": true, "unix.Open": true, "unix.Openat2": true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && banned[x.Name+"."+sel.Sel.Name] {
				t.Errorf("%s: %s.%s: the agent must read through internal/pipeline", fset.Position(sel.Pos()), x.Name, sel.Sel.Name)
			}
			return true
		})
	}
}
