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

// ContractRequests are agent requests of every mode and form over the
// Contract repository: search forms (auto, summary, matches with context,
// a budget, overlapping paths, a retried empty one, a commit's files),
// terms, impact, imports, tests, rank, outline, inspect and structural.
var ContractRequests = []string{
	`{"pattern":"Target"}`,
	`{"pattern":"Target","mode":"summary"}`,
	`{"pattern":"Target","mode":"matches","limit":5}`,
	`{"pattern":"Target","mode":"matches","context":2,"limit":3}`,
	`{"pattern":"Target","budget":"critical"}`,
	`{"pattern":"Target","paths":["lib"]}`,
	`{"pattern":"nowhere-to-be-found","paths":["app"]}`,
	`{"pattern":"Target","rev":"HEAD","mode":"matches","limit":5}`,
	`{"pattern":"Target","rev":"HEAD"}`,
	`{"terms":["Target","helper1","main"]}`,
	`{"terms":["Target","zzz"],"match":"none"}`,
	`{"mode":"impact","symbol":"Target"}`,
	`{"mode":"impact","path":"lib/lib.go","line":4}`,
	`{"mode":"imports","path":"app/main.go"}`,
	`{"mode":"tests","path":"lib/lib.go"}`,
	`{"mode":"rank","query":"target function"}`,
	`{"mode":"outline"}`,
	`{"mode":"outline","path":"lib/lib.go"}`,
	`{"mode":"inspect","path":"lib/many.go","line":40}`,
	`{"mode":"inspect","targets":[{"path":"lib/lib.go","line":4},{"path":"py/tool.py","line":2}]}`,
	`{"mode":"structural","pattern":"Target($A)","lang":"go"}`,
	`{"mode":"structural","pattern":"Target($A)","lang":"go","limit":2}`,
	`{"pattern":"Target","paths":["lib","lib"]}`,
}
