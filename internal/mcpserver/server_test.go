package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func testTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for i := 0; i < 5; i++ {
		var b strings.Builder
		for j := 0; j < 3; j++ {
			fmt.Fprintf(&b, "needle %d %d\nother\n", i, j)
		}
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.txt", i)), []byte(b.String()), 0o644)
	}
	return root
}

type details struct {
	Status  string `json:"status"`
	Cursor  string `json:"cursor"`
	Matches []struct {
		Match int `json:"match"`
	} `json:"matches"`
	Totals struct {
		Lines int `json:"lines"`
	} `json:"totals"`
	Error *struct {
		Code string `json:"code"`
	} `json:"error"`
}

func call(t *testing.T, cs *mcp.ClientSession, args map[string]any) (string, details) {
	t.Helper()
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
	var d details
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &d)
	return text, d
}

// exercise lists the tools, searches and pages to the end with cursors.
func exercise(t *testing.T, cs *mcp.ClientSession) {
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != ToolName {
		t.Fatalf("tools: %+v %v", tools, err)
	}
	text, d := call(t, cs, map[string]any{"pattern": "needle", "mode": "matches", "limit": 4})
	if !strings.HasPrefix(text, "evgrep: 15 matching lines") || d.Totals.Lines != 15 || d.Cursor == "" {
		t.Fatalf("first page: %q %+v", text, d)
	}
	seen := len(d.Matches)
	for d.Cursor != "" {
		_, d = call(t, cs, map[string]any{"cursor": d.Cursor})
		if d.Error != nil {
			t.Fatalf("cursor failed: %+v", d.Error)
		}
		seen += len(d.Matches)
	}
	if seen != 15 {
		t.Fatalf("paged %d lines, want 15", seen)
	}
	// Inspect answers through the same tool (a .txt file: a fallback window).
	text, d = call(t, cs, map[string]any{"mode": "inspect", "path": "f0.txt", "line": 2})
	if d.Error != nil || !strings.Contains(text, "2| other") {
		t.Fatalf("inspect: %q %+v", text, d.Error)
	}
	// A forged cursor is an error result with its code.
	_, d = call(t, cs, map[string]any{"cursor": "0123456789abcdef0123456789abcdef"})
	if d.Error == nil || d.Error.Code != "E_CURSOR_NOT_FOUND" {
		t.Fatalf("forged cursor: %+v", d)
	}
}

func TestMCPInMemory(t *testing.T) {
	root := testTree(t)
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := NewServer(root).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	exercise(t, cs)
}

func TestMCPStreamableHTTP(t *testing.T) {
	root := testTree(t)
	srv := httptest.NewServer(Handler(root))
	defer srv.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	exercise(t, cs)
}

func TestLoopbackDefault(t *testing.T) {
	cases := map[string]string{":8080": "127.0.0.1:8080", "8080": "127.0.0.1:8080", "0.0.0.0:9": "0.0.0.0:9", "[::1]:7": "[::1]:7"}
	for in, want := range cases {
		if got := LoopbackDefault(in); got != want {
			t.Errorf("LoopbackDefault(%q) = %q, want %q", in, got, want)
		}
	}
}
