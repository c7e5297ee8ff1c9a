//go:build cgo

package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPAnalyses: modes impact, imports and tests through the official
// SDK client, their arguments and structured content checked against the
// tool's schemas, the impact paged to its end with cursors.
func TestMCPAnalyses(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{"go.mod": "module m\n", "lib/lib.go": "package lib\n\nfunc Run() {}\n"}
	for i := 0; i < 40; i++ {
		files[fmt.Sprintf("c%02d/c.go", i)] = fmt.Sprintf("package c%d\n\nimport \"m/lib\"\n\nfunc f() { lib.Run() }\n", i)
	}
	files["lib/lib_test.go"] = "package lib\n\nfunc g() { Run() }\n"
	for p, c := range files {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connectStdio(t, newServer(root))
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	ck := &checker{in: resolve(t, tools.Tools[0].InputSchema), out: resolve(t, tools.Tools[0].OutputSchema)}
	type analysis struct {
		Cursor string `json:"cursor"`
		Impact *struct {
			Occurrences int            `json:"occurrences"`
			Roles       map[string]int `json:"roles"`
			Items       []struct {
				Index int `json:"index"`
			} `json:"items"`
		} `json:"impact"`
		Navigation *struct {
			Groups map[string]int `json:"groups"`
		} `json:"navigation"`
	}
	get := func(args map[string]any) (string, analysis) {
		text, _ := call(t, cs, ck, args)
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolName, Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("%v: %v %v", args, err, res)
		}
		var a analysis
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &a)
		return text, a
	}
	text, a := get(map[string]any{"mode": "impact", "path": "lib/lib.go", "line": 3})
	if a.Impact == nil || a.Impact.Occurrences != 42 || a.Impact.Roles["call"] != 40 || a.Impact.Roles["definition"] != 1 || a.Impact.Roles["test"] != 1 {
		t.Fatalf("impact: %s", text)
	}
	seen := map[int]bool{}
	for {
		for _, it := range a.Impact.Items {
			if seen[it.Index] {
				t.Fatalf("item %d repeated", it.Index)
			}
			seen[it.Index] = true
		}
		if a.Cursor == "" {
			break
		}
		_, a = get(map[string]any{"cursor": a.Cursor})
	}
	if len(seen) != 42 {
		t.Fatalf("paged %d of 42 items", len(seen))
	}
	if text, a = get(map[string]any{"mode": "imports", "path": "lib/lib.go"}); a.Navigation == nil || a.Navigation.Groups["imported-by"] != 40 {
		t.Fatalf("imports: %s", text)
	}
	if text, a = get(map[string]any{"mode": "tests", "path": "lib/lib.go"}); a.Navigation == nil || a.Navigation.Groups["name"] != 1 || a.Navigation.Groups["package"] != 0 ||
		!strings.Contains(text, "lib/lib_test.go") {
		t.Fatalf("tests: %s", text)
	}
}
