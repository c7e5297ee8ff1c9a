package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/evgrep/evgrep/internal/gittest"
	"github.com/evgrep/evgrep/internal/mcpserver"
)

// frontEnd answers one raw agent request: the text, the details as JSON
// and whether it failed.
type frontEnd struct {
	name string
	call func(t *testing.T, req []byte) (text string, details []byte, failed bool)
}

// agentFrontEnds are the two doors of the agent contract over one tree:
// `evgrep --agent REQ --agent-format json` (a new process each call, in
// effect: Main with a state folder of its own) and an MCP client of the
// streamable HTTP server (one session).
func agentFrontEnds(t *testing.T, root string) []frontEnd {
	t.Setenv("EVGREP_STATE_DIR", t.TempDir())
	cli := frontEnd{"--agent", func(t *testing.T, req []byte) (string, []byte, bool) {
		r, stderr := runEvgrepErr(t, root, []string{"--agent", string(req), "--agent-format", "json"}, "")
		var a struct {
			Text    string          `json:"text"`
			Details json.RawMessage `json:"details"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &a); err != nil {
			t.Fatalf("--agent %s: %v\n%s%s", req, err, r.stdout, stderr)
		}
		return a.Text, a.Details, r.code == exitError
	}}
	srv := httptest.NewServer(mcpserver.Handler(root, mcpserver.Options{}))
	t.Cleanup(srv.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "contract", Version: "1"}, nil).Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	mcpDoor := frontEnd{"mcp", func(t *testing.T, req []byte) (string, []byte, bool) {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: mcpserver.ToolName, Arguments: json.RawMessage(req)})
		if err != nil {
			t.Fatalf("mcp %s: %v", req, err)
		}
		text := ""
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		d, _ := json.Marshal(res.StructuredContent)
		return text, d, res.IsError
	}}
	return []frontEnd{cli, mcpDoor}
}

// contractDetails is what the table reads of an answer's details.
type contractDetails struct {
	Status string `json:"status"`
	Mode   string `json:"mode"`
	Cursor string `json:"cursor"`
	Next   []struct {
		Request json.RawMessage `json:"request"`
		Why     string          `json:"why"`
	} `json:"next"`
	Totals   json.RawMessage   `json:"totals"`
	Matches  []json.RawMessage `json:"matches"`
	Files    []json.RawMessage `json:"files"`
	Targets  []json.RawMessage `json:"targets"`
	Outlines []json.RawMessage `json:"outlines"`
	Impact   *struct {
		Items []json.RawMessage `json:"items"`
	} `json:"impact"`
	Navigation *struct {
		Items []json.RawMessage `json:"items"`
	} `json:"navigation"`
}

func (d *contractDetails) results() bool {
	return len(d.Matches) > 0 || len(d.Files) > 0 || len(d.Targets) > 0 || len(d.Outlines) > 0 ||
		d.Impact != nil && len(d.Impact.Items) > 0 || d.Navigation != nil && len(d.Navigation.Items) > 0
}

// TestAgentContractAcrossFrontEnds: one table of the agent contract, run
// through --agent and through MCP alike. For every request of every mode,
// and for the answers its suggested next calls lead to (two levels):
// text and details within 16 KiB each, a status, details.cursor among the
// next calls, a next call after every answer with results, every
// suggested call executes, key names are exact, and both front ends give
// the same status, mode and totals for the same request.
func TestAgentContractAcrossFrontEnds(t *testing.T) {
	root := gittest.Contract(t).Dir
	doors := agentFrontEnds(t, root)
	first := map[string]contractDetails{}
	for _, door := range doors {
		for _, req := range gittest.ContractRequests {
			t.Run(door.name+" "+req, func(t *testing.T) {
				d := checkAnswer(t, door, []byte(req), 2)
				if prev, ok := first[req]; ok {
					if prev.Status != d.Status || prev.Mode != d.Mode || !sameJSON(prev.Totals, d.Totals) {
						t.Errorf("%s: --agent and mcp differ: %s %s %s / %s %s %s", req, prev.Status, prev.Mode, prev.Totals, d.Status, d.Mode, d.Totals)
					}
				} else {
					first[req] = d
				}
			})
		}
		// Keys are exact and given once, at every door.
		for _, bad := range []string{`{"pattern":"x","PATTERN":"y"}`, `{"pattern":"x","pattern":"y"}`} {
			if _, _, failed := door.call(t, []byte(bad)); !failed {
				t.Errorf("%s accepts %s", door.name, bad)
			}
		}
	}
}

// sameJSON reports whether two JSON documents hold the same value (the
// SDK writes the keys of structured content in its own order).
func sameJSON(a, b json.RawMessage) bool {
	var x, y any
	json.Unmarshal(a, &x)
	json.Unmarshal(b, &y)
	return reflect.DeepEqual(x, y)
}

// checkAnswer asks req through door, checks the contract of the answer
// and of the answers of its next calls, depth levels deep.
func checkAnswer(t *testing.T, door frontEnd, req []byte, depth int) contractDetails {
	t.Helper()
	text, raw, failed := door.call(t, req)
	if failed {
		t.Fatalf("%s %s failed:\n%s", door.name, req, text)
	}
	var d contractDetails
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%s %s: details: %v", door.name, req, err)
	}
	if len(text) > 16<<10 || len(raw) > 16<<10 {
		t.Errorf("%s %s: text %d, details %d bytes", door.name, req, len(text), len(raw))
	}
	if d.Status == "" {
		t.Errorf("%s %s: no status", door.name, req)
	}
	found := d.Cursor == ""
	for _, n := range d.Next {
		found = found || strings.Contains(string(n.Request), fmt.Sprintf("%q", d.Cursor))
	}
	if !found {
		t.Errorf("%s %s: cursor %s in no next call", door.name, req, d.Cursor)
	}
	if d.results() && len(d.Next) == 0 {
		t.Errorf("%s %s: results and no next call:\n%s", door.name, req, text)
	}
	if depth > 0 {
		for _, n := range d.Next {
			checkAnswer(t, door, n.Request, depth-1)
		}
	}
	return d
}
