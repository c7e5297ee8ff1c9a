package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Protocol versions the SDK client and server agree on: the newest over
// stdio, the newest with sessions over streamable HTTP (the newest has
// none, and this server keeps snapshots per session).
const (
	newestVersion  = "2026-07-28"
	sessionVersion = "2025-11-25"
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

// checker validates tool arguments and results against the schemas the
// server lists (with the SDK's JSON Schema package, as a client would).
type checker struct {
	in, out *jsonschema.Resolved
}

func resolve(t *testing.T, v any) *jsonschema.Resolved {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("schema %s: %v", b, err)
	}
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("schema %s: %v", b, err)
	}
	return r
}

// roundTrip gives v as a client decodes it from JSON.
func roundTrip(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func call(t *testing.T, cs *mcp.ClientSession, ck *checker, args map[string]any) (string, details) {
	t.Helper()
	if err := ck.in.Validate(roundTrip(t, args)); err != nil {
		t.Fatalf("arguments %v do not match the input schema: %v", args, err)
	}
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
	if res.StructuredContent == nil {
		t.Fatalf("no structured content for %v", args)
	}
	if err := ck.out.Validate(roundTrip(t, res.StructuredContent)); err != nil {
		t.Fatalf("structured content for %v does not match the output schema: %v", args, err)
	}
	var d details
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &d)
	if res.IsError != (d.Error != nil) {
		t.Fatalf("isError %v but details error %+v", res.IsError, d.Error)
	}
	return text, d
}

// exercise lists the tools, searches and pages to the end with cursors,
// inspects, outlines and checks a forged cursor's error.
func exercise(t *testing.T, cs *mcp.ClientSession, version string) {
	if v := cs.InitializeResult().ProtocolVersion; v != version {
		t.Fatalf("negotiated %q, want %q", v, version)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) != 1 || tools.Tools[0].Name != ToolName {
		t.Fatalf("tools: %+v %v", tools, err)
	}
	tool := tools.Tools[0]
	if tool.Description != toolDescription || tool.OutputSchema == nil {
		t.Fatalf("tool: %+v", tool)
	}
	ck := &checker{in: resolve(t, tool.InputSchema), out: resolve(t, tool.OutputSchema)}
	text, d := call(t, cs, ck, map[string]any{"pattern": "needle", "mode": "matches", "limit": 4})
	if !strings.HasPrefix(text, "evgrep: 15 matching lines") || d.Totals.Lines != 15 || d.Cursor == "" {
		t.Fatalf("first page: %q %+v", text, d)
	}
	seen := len(d.Matches)
	for d.Cursor != "" {
		_, d = call(t, cs, ck, map[string]any{"cursor": d.Cursor})
		if d.Error != nil {
			t.Fatalf("cursor failed: %+v", d.Error)
		}
		seen += len(d.Matches)
	}
	if seen != 15 {
		t.Fatalf("paged %d lines, want 15", seen)
	}
	// paths as one string (agent.StringList) passes the schema and the agent.
	if _, d = call(t, cs, ck, map[string]any{"pattern": "needle", "paths": "f1.txt", "context": 1}); d.Totals.Lines != 3 {
		t.Fatalf("paths as a string: %+v", d)
	}
	// Inspect answers through the same tool (a .txt file: a fallback window).
	text, d = call(t, cs, ck, map[string]any{"mode": "inspect", "path": "f0.txt", "line": 2})
	if d.Error != nil || !strings.Contains(text, "2| other") {
		t.Fatalf("inspect: %q %+v", text, d.Error)
	}
	if text, d = call(t, cs, ck, map[string]any{"mode": "outline"}); d.Error != nil || !strings.Contains(text, "f0.txt") {
		t.Fatalf("outline: %q %+v", text, d.Error)
	}
	// A forged cursor is an error result with its code.
	_, d = call(t, cs, ck, map[string]any{"cursor": "0123456789abcdef0123456789abcdef"})
	if d.Error == nil || d.Error.Code != "E_CURSOR_NOT_FOUND" {
		t.Fatalf("forged cursor: %+v", d)
	}
}

// TestMCPStdio drives ServeStdio with the SDK client over two pipes; the
// server returns nil once the client closes its end.
func TestMCPStdio(t *testing.T) {
	root := testTree(t)
	ctx := context.Background()
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := ServeStdio(toServerR, fromServerW, root)
		fromServerW.Close()
		done <- err
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: fromServerR, Writer: toServerW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, cs, newestVersion)
	cs.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ServeStdio did not return after the client closed")
	}
}

func TestMCPStreamableHTTP(t *testing.T) {
	root := testTree(t)
	srv := httptest.NewServer(Handler(root, Options{}))
	defer srv.Close()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	exercise(t, cs, sessionVersion)
	if err := cs.Close(); err != nil {
		t.Fatalf("close (DELETE of the session): %v", err)
	}
}

func TestLoopbackDefault(t *testing.T) {
	cases := map[string]string{":8080": "127.0.0.1:8080", "8080": "127.0.0.1:8080", "0.0.0.0:9": "0.0.0.0:9", "[::1]:7": "[::1]:7"}
	for in, want := range cases {
		if got := LoopbackDefault(in); got != want {
			t.Errorf("LoopbackDefault(%q) = %q, want %q", in, got, want)
		}
	}
}
