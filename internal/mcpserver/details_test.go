package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStructuredContentBounded pages hostile trees to their end over stdio:
// every tool result's structuredContent is within agent.MaxDetailsBytes
// and its text within 16 KiB, and the walk shows each match line once.
func TestStructuredContentBounded(t *testing.T) {
	shapes := []struct {
		name  string
		write func(root string)
		args  map[string]any
	}{
		{"many ranges per line", func(root string) {
			os.WriteFile(filepath.Join(root, "a.txt"), []byte(strings.Repeat(strings.Repeat("x ", 25)+"\n", 100)), 0o644)
		}, map[string]any{"pattern": "x", "mode": "matches", "limit": 100}},
		{"long lines of escaped characters, with context", func(root string) {
			line := strings.Repeat("<&>", 2000) + " x " + strings.Repeat("\x01", 4000) + "\n"
			os.WriteFile(filepath.Join(root, "a.txt"), []byte(strings.Repeat(line+"<<<<<<<<<<\n", 60)), 0o644)
		}, map[string]any{"pattern": "x", "mode": "matches", "limit": 100, "context": 3}},
		{"many files with long names", func(root string) {
			for i := 0; i < 200; i++ {
				os.WriteFile(filepath.Join(root, fmt.Sprintf("%s%03d.txt", strings.Repeat("<", 200), i)), []byte("x x x x\n"), 0o644)
			}
		}, map[string]any{"pattern": "x", "mode": "matches", "limit": 100}},
	}
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			root := t.TempDir()
			sh.write(root)
			cs := connectStdio(t, newServer(root))
			args := sh.args
			seen := map[int]int{}
			total := -1
			for pages := 0; ; pages++ {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolName, Arguments: args})
				if err != nil {
					t.Fatal(err)
				}
				text := ""
				for _, c := range res.Content {
					if tc, ok := c.(*mcp.TextContent); ok {
						text += tc.Text
					}
				}
				raw, _ := json.Marshal(res.StructuredContent)
				if len(raw) > agent.MaxDetailsBytes || len(text) > 16<<10 {
					t.Fatalf("page %d: structuredContent %d bytes (bound %d), text %d bytes", pages, len(raw), agent.MaxDetailsBytes, len(text))
				}
				var d struct {
					details
					Totals struct {
						Retained int `json:"retained"`
					} `json:"totals"`
				}
				json.Unmarshal(raw, &d)
				if res.IsError || d.Error != nil {
					t.Fatalf("page %d failed: %s", pages, text)
				}
				total = d.Totals.Retained
				for _, m := range d.Matches {
					seen[m.Match]++
				}
				if d.Cursor == "" || pages > 1000 {
					break
				}
				args = map[string]any{"cursor": d.Cursor}
			}
			for n := 1; n <= total; n++ {
				if seen[n] != 1 {
					t.Fatalf("match #%d shown %d times", n, seen[n])
				}
			}
			if total <= 0 || len(seen) != total {
				t.Fatalf("walk showed %d of %d lines", len(seen), total)
			}
		})
	}
}
