package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/agent"
)

// reply is a decoded JSON-RPC reply.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// toolResult is a decoded tools/call result.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent details `json:"structuredContent"`
	IsError           bool    `json:"isError"`
}

// want describes one expected reply: its id (raw JSON), and either an
// error code or a check of the result.
type want struct {
	id     string
	code   int                            // JSON-RPC error code; 0 = a result
	result func(t *testing.T, raw []byte) // checks the result (may be nil)
}

func decodeReply(t *testing.T, b []byte) reply {
	t.Helper()
	var r reply
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("reply %s: %v", b, err)
	}
	if r.JSONRPC != "2.0" || (r.Error == nil) == (r.Result == nil) {
		t.Fatalf("reply %s: not a JSON-RPC 2.0 result or error", b)
	}
	return r
}

func checkReply(t *testing.T, b []byte, w want) {
	t.Helper()
	r := decodeReply(t, b)
	if string(r.ID) != w.id {
		t.Fatalf("reply %s: id %s, want %s", b, r.ID, w.id)
	}
	if w.code != 0 {
		if r.Error == nil || r.Error.Code != w.code || r.Error.Message == "" {
			t.Fatalf("reply %s: want error %d", b, w.code)
		}
		return
	}
	if r.Error != nil {
		t.Fatalf("reply %s: want a result", b)
	}
	if w.result != nil {
		w.result(t, r.Result)
	}
}

func toolCall(args string) string {
	return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":` + args + `}}`
}

// agentError checks a tools/call result that failed with code.
func agentError(code string) func(t *testing.T, raw []byte) {
	return func(t *testing.T, raw []byte) {
		t.Helper()
		var r toolResult
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		if !r.IsError || r.StructuredContent.Error == nil || r.StructuredContent.Error.Code != code ||
			len(r.Content) != 1 || r.Content[0].Type != "text" || !strings.Contains(r.Content[0].Text, code) {
			t.Fatalf("result %s: want isError with %s", raw, code)
		}
	}
}

func versionIs(v string) func(t *testing.T, raw []byte) {
	return func(t *testing.T, raw []byte) {
		t.Helper()
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
			Capabilities    struct {
				Tools *struct {
					ListChanged *bool `json:"listChanged"`
				} `json:"tools"`
			} `json:"capabilities"`
			ServerInfo struct {
				Name, Version string
			} `json:"serverInfo"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		if r.ProtocolVersion != v || r.Capabilities.Tools == nil || r.Capabilities.Tools.ListChanged == nil ||
			*r.Capabilities.Tools.ListChanged || r.ServerInfo.Name != "evgrep" || r.ServerInfo.Version != Version {
			t.Fatalf("initialize result %s: want version %s, tools capability, serverInfo", raw, v)
		}
	}
}

func isEmptyObject(t *testing.T, raw []byte) {
	t.Helper()
	if string(raw) != "{}" {
		t.Fatalf("result %s, want {}", raw)
	}
}

// TestProtocol sends raw messages to one session and checks the replies.
func TestProtocol(t *testing.T) {
	root := testTree(t)
	cases := []struct {
		name string
		in   string
		want *want // nil: no reply at all
	}{
		{"parse error", `{"jsonrpc":"2.0","id":1,"method":`, &want{id: "null", code: -32700}},
		{"not an object", `42`, &want{id: "null", code: -32600}},
		{"wrong jsonrpc version", `{"jsonrpc":"1.0","id":3,"method":"ping"}`, &want{id: "3", code: -32600}},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, &want{id: "null", code: -32600}},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, &want{id: "null", code: -32600}},
		{"no method", `{"jsonrpc":"2.0","id":4}`, &want{id: "4", code: -32600}},
		{"unknown method", `{"jsonrpc":"2.0","id":"a","method":"resources/list"}`, &want{id: `"a"`, code: -32601}},
		{"server/discover falls back to initialize", `{"jsonrpc":"2.0","id":5,"method":"server/discover"}`, &want{id: "5", code: -32601}},
		{"ping", `{"jsonrpc":"2.0","id":-2,"method":"ping"}`, &want{id: "-2", result: isEmptyObject}},
		{"initialized notification", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil},
		{"cancelled notification", `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`, nil},
		{"unknown notification", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"search"}}`, nil},
		{"a response from the client", `{"jsonrpc":"2.0","id":9,"result":{}}`, nil},
		{"batch of notifications", `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`, nil},
		{"empty batch", `[]`, &want{id: "null", code: -32600}},
		{"initialize, supported version", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
			&want{id: "1", result: versionIs("2025-03-26")}},
		{"initialize, oldest version", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2024-11-05"}}`,
			&want{id: "1", result: versionIs("2024-11-05")}},
		{"initialize, unsupported version", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}`,
			&want{id: "1", result: versionIs(protocolVersions[0])}},
		{"initialize, bad params", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":[1]}`, &want{id: "1", code: -32602}},
		{"tools/call unknown field", toolCall(`{"pattern":"needle","bogus":1}`), &want{id: "7", result: agentError(agent.CodeInvalidRequest)}},
		{"tools/call wrong type", toolCall(`{"pattern":"needle","limit":"ten"}`), &want{id: "7", result: agentError(agent.CodeInvalidRequest)}},
		{"tools/call arguments not an object", toolCall(`5`), &want{id: "7", result: agentError(agent.CodeInvalidRequest)}},
		{"tools/call without arguments", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search"}}`, &want{id: "7", result: agentError(agent.CodeInvalidRequest)}},
		{"tools/call bad pattern", toolCall(`{"pattern":"("}`), &want{id: "7", result: agentError(agent.CodePattern)}},
		{"tools/call search", toolCall(`{"pattern":"needle 3","paths":"f3.txt"}`), &want{id: "7", result: func(t *testing.T, raw []byte) {
			var r toolResult
			json.Unmarshal(raw, &r)
			if r.IsError || r.StructuredContent.Totals.Lines != 3 || !strings.HasPrefix(r.Content[0].Text, "evgrep: 3 matching lines") {
				t.Fatalf("search result %s", raw)
			}
		}}},
		{"tools/call unknown tool", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"grep","arguments":{}}}`, &want{id: "8", code: -32602}},
		{"tools/call params not an object", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":"search"}`, &want{id: "8", code: -32602}},
		{"tools/list", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, &want{id: "2", result: func(t *testing.T, raw []byte) {
			var r struct {
				Tools []struct {
					Name        string         `json:"name"`
					InputSchema map[string]any `json:"inputSchema"`
				} `json:"tools"`
			}
			json.Unmarshal(raw, &r)
			if len(r.Tools) != 1 || r.Tools[0].Name != ToolName || r.Tools[0].InputSchema["type"] != "object" {
				t.Fatalf("tools/list result %s", raw)
			}
		}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := newSession(root).process([]byte(tc.in))
			if bytes.ContainsAny(got, "\r\n") {
				t.Fatalf("reply holds a line break: %q", got)
			}
			if tc.want == nil {
				if got != nil {
					t.Fatalf("want no reply, got %s", got)
				}
				return
			}
			if got == nil {
				t.Fatal("no reply")
			}
			checkReply(t, got, *tc.want)
		})
	}
}

// TestBatch: a batch gets an array of the replies to its requests, in
// order, without replies to its notifications.
func TestBatch(t *testing.T) {
	in := `[{"jsonrpc":"2.0","id":1,"method":"ping"},
		{"jsonrpc":"2.0","method":"notifications/initialized"},
		{"jsonrpc":"2.0","id":2,"method":"nope"},
		17,
		` + toolCall(`{"pattern":"needle"}`) + `]`
	got := newSession(testTree(t)).process([]byte(in))
	var replies []json.RawMessage
	if err := json.Unmarshal(got, &replies); err != nil {
		t.Fatalf("batch reply %s: %v", got, err)
	}
	wants := []want{{id: "1", result: isEmptyObject}, {id: "2", code: -32601}, {id: "null", code: -32600},
		{id: "7", result: func(t *testing.T, raw []byte) {
			var r toolResult
			json.Unmarshal(raw, &r)
			if r.IsError || r.StructuredContent.Totals.Lines != 15 {
				t.Fatalf("search in a batch: %s", raw)
			}
		}}}
	if len(replies) != len(wants) {
		t.Fatalf("batch: %d replies, want %d: %s", len(replies), len(wants), got)
	}
	for i, w := range wants {
		checkReply(t, replies[i], w)
	}
}

// TestPanicIsInternalError: a panic in the tool becomes a -32603 reply and
// the session goes on.
func TestPanicIsInternalError(t *testing.T) {
	s := newSession(t.TempDir())
	s.call = func([]byte, agent.Env) *agent.Answer { panic("boom") }
	got := s.process([]byte(toolCall(`{"pattern":"x"}`)))
	checkReply(t, got, want{id: "7", code: -32603})
	if !strings.Contains(string(got), "boom") {
		t.Fatalf("reply does not name the panic: %s", got)
	}
	checkReply(t, s.process([]byte(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)), want{id: "8", result: isEmptyObject})
}

// TestStdio runs ServeStdio on a scripted input: blank lines are skipped,
// notifications get nothing, a last line without a newline is answered,
// each reply is one line, and the end of input returns nil.
func TestStdio(t *testing.T) {
	root := testTree(t)
	big := strings.Repeat("x", 200<<10) // an argument line past bufio.Scanner's 64 KiB
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		``,
		`   `,
		toolCall(`{"pattern":"` + big + `","literal":true}`),
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		`not json`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
	}, "\n")
	var out bytes.Buffer
	if err := ServeStdio(io.NopCloser(strings.NewReader(in)), &out, root); err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	byID := map[string][]byte{}
	for _, l := range lines {
		r := decodeReply(t, []byte(l))
		byID[string(r.ID)] = []byte(l)
	}
	if len(lines) != 5 || len(byID) != 5 {
		t.Fatalf("%d reply lines (%d ids), want 5: %.500s", len(lines), len(byID), out.String())
	}
	checkReply(t, byID["1"], want{id: "1", result: versionIs("2025-06-18")})
	checkReply(t, byID["7"], want{id: "7", result: func(t *testing.T, raw []byte) {
		var r toolResult
		json.Unmarshal(raw, &r)
		if r.IsError || r.StructuredContent.Totals.Lines != 0 || !strings.HasPrefix(r.Content[0].Text, "evgrep: 0 matching lines") {
			t.Fatalf("200 KB literal: %.300s", raw)
		}
	}})
	checkReply(t, byID["2"], want{id: "2", result: isEmptyObject})
	checkReply(t, byID["null"], want{id: "null", code: -32700})
	checkReply(t, byID["3"], want{id: "3"})
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("closed")
}

// TestStdioWriteError: a failed write ends the session with that error.
func TestStdioWriteError(t *testing.T) {
	in := strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", 100)
	w := &failWriter{}
	if err := ServeStdio(io.NopCloser(strings.NewReader(in)), w, t.TempDir()); err == nil || w.n != 1 {
		t.Fatalf("ServeStdio = %v after %d writes, want the write error after 1", err, w.n)
	}
}
