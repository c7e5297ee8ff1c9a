//go:build cgo

package agent

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/scope"
	"github.com/evgrep/evgrep/internal/testref"
)

// TestImpactGoRootReadRune: the impact of bufio.Reader.ReadRune over
// GOROOT/src is checked against go/ast and go/types. The packages whose
// Go files mention ReadRune (outside cmd and vendor) are type-checked from
// source with their test files; every call to a method named ReadRune
// that go/types resolves (bufio's own among them) must be an item with
// role call (test/call in a test file), every method declaration named
// ReadRune a definition, every interface method a declaration.
func TestImpactGoRootReadRune(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks several std packages from source")
	}
	src := filepath.Join(testref.GoRoot(t), "src")
	res, err := RunImpact(ImpactSpec{Root: src, Symbol: "bufio.Reader.ReadRune", Hidden: true, Walk: scope.Agent(true, nil, nil)})
	if err != nil {
		t.Fatal(err)
	}
	if res.OverBudget > 0 {
		t.Fatalf("%d files over the parse budget", res.OverBudget)
	}
	type key struct {
		path      string
		line, col int
	}
	got := map[key]string{} // role as the answer shows it (test/<role> in test code)
	dirs := map[string]bool{}
	for _, it := range res.Snap.Items() {
		col, _ := splitItemText(it.Text)
		role := it.Group
		if role == "test" {
			role = "test/" + syntaxRole(it.Label)
		}
		got[key{it.Path, it.Line, col}] = role
		if strings.HasSuffix(it.Path, ".go") && !strings.HasPrefix(it.Path, "cmd/") && !strings.Contains(it.Path, "vendor/") &&
			!strings.Contains(it.Path, "testdata/") {
			dirs[filepath.Dir(it.Path)] = true
		}
	}
	want := map[key]string{}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	bufioCalls := 0
	var pkgs []string
	for d := range dirs {
		pkgs = append(pkgs, d)
	}
	sort.Strings(pkgs)
	for _, dir := range pkgs {
		groups, err := goFiles(fset, filepath.Join(src, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, files := range groups {
			info := &types.Info{Selections: map[*ast.SelectorExpr]*types.Selection{}, Uses: map[*ast.Ident]types.Object{}}
			conf := types.Config{Importer: imp, Error: func(error) {}}
			conf.Check(files[0].Name.Name, fset, files, info)
			for _, f := range files {
				rel, _ := filepath.Rel(src, fset.File(f.Pos()).Name())
				rel = filepath.ToSlash(rel)
				test := strings.HasSuffix(rel, "_test.go")
				role := func(r string) string {
					if test {
						return "test/" + r
					}
					return r
				}
				at := func(p token.Pos) key {
					pos := fset.Position(p)
					return key{rel, pos.Line, pos.Column}
				}
				ast.Inspect(f, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.CallExpr:
						sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
						if !ok || sel.Sel.Name != "ReadRune" {
							break
						}
						s := info.Selections[sel]
						if s == nil {
							break // not resolved by go/types (a type error nearby)
						}
						if fn, ok := s.Obj().(*types.Func); ok && fn.FullName() == "(*bufio.Reader).ReadRune" {
							bufioCalls++
						}
						want[at(sel.Sel.Pos())] = role("call")
					case *ast.FuncDecl:
						if n.Name.Name == "ReadRune" && n.Recv != nil {
							want[at(n.Name.Pos())] = role("definition")
						}
					case *ast.InterfaceType:
						for _, m := range n.Methods.List {
							for _, name := range m.Names {
								if name.Name == "ReadRune" {
									want[at(name.Pos())] = role("declaration")
								}
							}
						}
					}
					return true
				})
			}
		}
	}
	if bufioCalls == 0 {
		t.Fatal("go/types found no call of (*bufio.Reader).ReadRune: the check checks nothing")
	}
	defFound := false
	for k, r := range want {
		if k.path == "bufio/bufio.go" && r == "definition" {
			defFound = true
		}
		if got[k] != r {
			t.Errorf("%s:%d:%d: go/types says %s, impact says %q", k.path, k.line, k.col, r, got[k])
		}
	}
	if !defFound {
		t.Error("go/ast found no definition of ReadRune in bufio/bufio.go")
	}
	// Every item the impact calls a call in these packages is one go/types
	// resolved, or one in a file go/build excludes for this platform.
	for k, r := range got {
		if (r == "call" || r == "test/call") && dirs[filepath.Dir(k.path)] && want[k] == "" {
			t.Logf("call not seen by go/types (a file excluded by build constraints?): %s:%d:%d", k.path, k.line, k.col)
		}
	}
	t.Logf("%d occurrences, %d checked against go/types (%d calls of (*bufio.Reader).ReadRune)", len(got), len(want), bufioCalls)
}

// goFiles parses the Go files of dir that go/build selects for this
// platform, grouped by package clause (the package with its internal
// test files, and the external test package).
func goFiles(fset *token.FileSet, dir string) (map[string][]*ast.File, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	ctx := build.Default
	out := map[string][]*ast.File{}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		if ok, err := ctx.MatchFile(dir, e.Name()); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", e.Name(), err)
		}
		out[f.Name.Name] = append(out[f.Name.Name], f)
	}
	return out, nil
}
