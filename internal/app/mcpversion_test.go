package app

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestMCPReportsBinaryVersion: the MCP server's initialize answer names
// the binary's version, not a constant of its own.
func TestMCPReportsBinaryVersion(t *testing.T) {
	old := Version
	t.Cleanup(func() { Version = old })
	for _, v := range []string{"v9.8.7-test", "0.0.0-20261201-abcdef"} {
		Version = v
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"
		r := runEvgrep(t, t.TempDir(), []string{"--mcp"}, init)
		line, _, _ := strings.Cut(r.stdout, "\n")
		var msg struct {
			Result struct {
				ServerInfo struct{ Name, Version string } `json:"serverInfo"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("answer %q: %v", r.stdout, err)
		}
		if msg.Result.ServerInfo.Name != "evgrep" || msg.Result.ServerInfo.Version != v {
			t.Fatalf("serverInfo %+v, want evgrep %s", msg.Result.ServerInfo, v)
		}
	}
}
