package gittest

import (
	"fmt"
	"strings"
	"testing"
)

// Contract is the repository of the agent contract's tables: Go code in a
// module with a test file and an importer, enough matches of Target to
// page (150 lines of lib/many.go), and a Python file, committed once.
func Contract(t testing.TB) *Repo {
	r := New(t)
	var many strings.Builder
	for i := 0; i < 150; i++ {
		fmt.Fprintf(&many, "func helper%d() { Target(%d) }\n", i, i)
	}
	r.Write(map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"lib/lib.go":      "package lib\n\n// Target is the function every test finds.\nfunc Target(n int) int {\n\treturn n + 1\n}\n",
		"lib/lib_test.go": "package lib\n\nimport \"testing\"\n\nfunc TestTarget(t *testing.T) {\n\tif Target(1) != 2 {\n\t\tt.Fatal(\"Target\")\n\t}\n}\n",
		"lib/many.go":     "package lib\n\n" + many.String(),
		"app/main.go":     "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() {\n\tprintln(lib.Target(3))\n}\n",
		"py/tool.py":      "def target(n):\n    return n + 1\n\nprint(target(2))\n",
		"docs/notes.txt":  "Target is documented here.\n",
	})
	r.Commit("first")
	return r
}
