package mcpserver

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/evgrep/evgrep/internal/agent/agenttest"
)

// sdkAnswerer answers each request as a tools/call of the search tool
// through the official SDK's client: the text content and the structured
// content make the answer.
func sdkAnswerer(t *testing.T, cs *mcp.ClientSession) agenttest.Answerer {
	return func(req string) *agent.Answer {
		t.Helper()
		var args map[string]any
		if err := json.Unmarshal([]byte(req), &args); err != nil {
			t.Fatalf("%s: %v", req, err)
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolName, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", req, err)
		}
		a := &agent.Answer{Failed: res.IsError}
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				a.Text += tc.Text
			}
		}
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &a.Details); err != nil {
			t.Fatalf("%s: structured content: %v", req, err)
		}
		if res.IsError {
			t.Fatalf("%s: %s", req, a.Text)
		}
		return a
	}
}

// TestMCPAgentLoop replays issue 11's acceptance loop, and the paging
// case, through the SDK client over stdio (the --agent form replays the
// same loop in internal/agent).
func TestMCPAgentLoop(t *testing.T) {
	root := t.TempDir()
	first, last := agenttest.LoopTree(t, root)
	agenttest.Loop(t, root, first, last, sdkAnswerer(t, connectStdio(t, newServer(root))))

	paging := t.TempDir()
	agenttest.PagingTree(t, paging)
	agenttest.Paging(t, sdkAnswerer(t, connectStdio(t, newServer(paging))))
}
