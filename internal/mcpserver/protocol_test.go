package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/evgrep/evgrep/internal/agent"
)

// reply is a decoded JSON-RPC reply.
type reply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
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
					ListChanged bool `json:"listChanged"`
				} `json:"tools"`
			} `json:"capabilities"`
			ServerInfo struct {
				Name, Version string
			} `json:"serverInfo"`
		}
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		if r.ProtocolVersion != v || r.Capabilities.Tools == nil || r.Capabilities.Tools.ListChanged ||
			r.ServerInfo.Name != "evgrep" || r.ServerInfo.Version != Version {
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

func initLine(version string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
}

const (
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	// sentinel is sent last: its reply shows the session outlived the
	// lines before it.
	sentinel   = `{"jsonrpc":"2.0","id":999,"method":"ping"}`
	sentinelID = "999"
)

// runStdio serves the lines over stdio and returns the reply lines by id
// ("null" for replies without one; the last wins) and ServeStdio's error.
func runStdio(t *testing.T, root string, lines ...string) (map[string][]byte, error) {
	t.Helper()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- ServeStdio(io.NopCloser(strings.NewReader(strings.Join(lines, "\n"))), &out, root) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("ServeStdio hangs")
	}
	byID := map[string][]byte{}
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if l == "" {
			continue
		}
		if strings.ContainsRune(l, '\r') {
			t.Fatalf("reply holds a line break: %q", l)
		}
		if l[0] == '[' {
			var batch []json.RawMessage
			if err := json.Unmarshal([]byte(l), &batch); err != nil {
				t.Fatalf("batch reply %s: %v", l, err)
			}
			for _, m := range batch {
				byID[string(decodeReply(t, m).ID)] = m
			}
			continue
		}
		byID[string(decodeReply(t, []byte(l)).ID)] = []byte(l)
	}
	return byID, err
}

// TestProtocol sends raw lines to a stdio session after initialize and
// checks the replies; the session answers a ping after each.
func TestProtocol(t *testing.T) {
	root := testTree(t)
	cases := []struct {
		name    string
		version string // of initialize; "" = 2025-06-18
		in      string
		want    *want // nil: no reply at all
	}{
		{name: "parse error", in: `{"jsonrpc":"2.0","id":1,"method":`, want: &want{id: "null", code: -32700}},
		{name: "not an object", in: `42`, want: &want{id: "null", code: -32600}},
		{name: "null id", in: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, want: &want{id: "null", code: -32600}},
		{name: "object id", in: `{"jsonrpc":"2.0","id":{},"method":"ping"}`, want: &want{id: "null", code: -32600}},
		{name: "unknown method", in: `{"jsonrpc":"2.0","id":"a","method":"foo/bar"}`, want: &want{id: `"a"`, code: -32601}},
		{name: "ping", in: `{"jsonrpc":"2.0","id":-2,"method":"ping"}`, want: &want{id: "-2", result: isEmptyObject}},
		{name: "cancelled notification", in: `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`},
		{name: "a response from the client", in: `{"jsonrpc":"2.0","id":9,"result":{}}`},
		{name: "batch in 2025-06-18", in: "[" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "]", want: &want{id: "null", code: -32600}},
		{name: "empty batch", version: "2025-03-26", in: `[]`, want: &want{id: "null", code: -32600}},
		{name: "batch past the bound in 2025-03-26", version: "2025-03-26", in: "[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":2,"method":"ping"},`, maxBatch+1), ",") + "]", want: &want{id: "null", code: -32600}},
		{name: "batch in 2025-03-26", version: "2025-03-26", in: "[" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "]", want: &want{id: "2", result: isEmptyObject}},
		{name: "tools/call unknown field", in: toolCall(`{"pattern":"needle","bogus":1}`), want: &want{id: "7", result: agentError(agent.CodeInvalidRequest)}},
		{name: "tools/call wrong type", in: toolCall(`{"pattern":"needle","limit":"ten"}`), want: &want{id: "7", result: agentError(agent.CodeInvalidRequest)}},
		{name: "tools/call arguments not an object", in: toolCall(`5`), want: &want{id: "7", result: agentError(agent.CodeInvalidRequest)}},
		{name: "tools/call without arguments", in: `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search"}}`, want: &want{id: "7", result: agentError(agent.CodeInvalidRequest)}},
		{name: "tools/call bad pattern", in: toolCall(`{"pattern":"("}`), want: &want{id: "7", result: agentError(agent.CodePattern)}},
		{name: "tools/call search", in: toolCall(`{"pattern":"needle 3","paths":"f3.txt"}`), want: &want{id: "7", result: func(t *testing.T, raw []byte) {
			var r toolResult
			json.Unmarshal(raw, &r)
			if r.IsError || r.StructuredContent.Totals.Lines != 3 || !strings.HasPrefix(r.Content[0].Text, "evgrep: 3 matching lines") {
				t.Fatalf("search result %s", raw)
			}
		}}},
		{name: "tools/call unknown tool", in: `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"grep","arguments":{}}}`, want: &want{id: "8", code: -32602}},
		{name: "tools/list", in: `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, want: &want{id: "2", result: func(t *testing.T, raw []byte) {
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
			v := tc.version
			if v == "" {
				v = "2025-06-18"
			}
			got, err := runStdio(t, root, initLine(v), initializedLine, tc.in, sentinel)
			if err != nil {
				t.Fatalf("ServeStdio: %v", err)
			}
			checkReply(t, got["1"], want{id: "1", result: versionIs(v)})
			if got[sentinelID] == nil {
				t.Fatalf("the session did not answer the ping after the line: %q", got)
			}
			delete(got, "1")
			delete(got, sentinelID)
			if tc.want == nil {
				if len(got) != 0 {
					t.Fatalf("want no reply, got %q", got)
				}
				return
			}
			if len(got) != 1 || got[tc.want.id] == nil {
				t.Fatalf("want one reply with id %s, got %q", tc.want.id, got)
			}
			checkReply(t, got[tc.want.id], *tc.want)
		})
	}
}

// TestInitializeVersions: the server answers the client's version when it
// has it, else its newest with initialize.
func TestInitializeVersions(t *testing.T) {
	for _, c := range []struct{ asked, answered string }{
		{"2024-11-05", "2024-11-05"}, {"2025-03-26", "2025-03-26"}, {"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"}, {"1999-01-01", sessionVersion},
	} {
		got, err := runStdio(t, t.TempDir(), initLine(c.asked))
		if err != nil {
			t.Fatal(err)
		}
		checkReply(t, got["1"], want{id: "1", result: versionIs(c.answered)})
	}
}

// TestPanicIsInternalError: a panic in the tool becomes a -32603 reply and
// the session goes on.
func TestPanicIsInternalError(t *testing.T) {
	s := newServer(t.TempDir())
	s.call = func(context.Context, []byte, agent.Env) *agent.Answer { panic("boom") }
	var out bytes.Buffer
	in := strings.Join([]string{initLine("2025-06-18"), initializedLine, toolCall(`{"pattern":"x"}`), sentinel}, "\n")
	if err := s.serveStdio(t.Context(), io.NopCloser(strings.NewReader(in)), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"id":7,"error":{"code":-32603,"message":"internal error: boom"`) || !strings.Contains(out.String(), `"id":999,"result":{}`) {
		t.Fatalf("replies:\n%s", out.String())
	}
}

// TestStdio runs ServeStdio on a scripted input: blank lines are skipped,
// notifications get nothing, a last line without a newline is answered,
// each reply is one line, and the end of input returns nil.
func TestStdio(t *testing.T) {
	root := testTree(t)
	big := strings.Repeat("x", 200<<10) // an argument line past bufio's 64 KiB buffer
	got, err := runStdio(t, root,
		initLine("2025-06-18"), initializedLine, ``, `   `,
		toolCall(`{"pattern":"`+big+`","literal":true}`),
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		`not json`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	if err != nil {
		t.Fatalf("ServeStdio: %v", err)
	}
	if len(got) != 5 {
		t.Fatalf("%d reply ids, want 5: %q", len(got), got)
	}
	checkReply(t, got["7"], want{id: "7", result: func(t *testing.T, raw []byte) {
		var r toolResult
		json.Unmarshal(raw, &r)
		if r.IsError || r.StructuredContent.Totals.Lines != 0 || !strings.HasPrefix(r.Content[0].Text, "evgrep: 0 matching lines") {
			t.Fatalf("200 KB literal: %.300s", raw)
		}
	}})
	checkReply(t, got["2"], want{id: "2", result: isEmptyObject})
	checkReply(t, got["null"], want{id: "null", code: -32700})
	checkReply(t, got["3"], want{id: "3"})
}

type failWriter struct{ n int }

func (w *failWriter) Write(p []byte) (int, error) {
	w.n++
	return 0, errors.New("closed")
}

// TestStdioWriteError: a failed write ends the session with that error.
func TestStdioWriteError(t *testing.T) {
	in := initLine("2025-06-18") + "\n" + strings.Repeat(`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n", 100)
	w := &failWriter{}
	err := ServeStdio(io.NopCloser(strings.NewReader(in)), w, t.TempDir())
	if err == nil || w.n != 1 {
		t.Fatalf("ServeStdio = %v after %d writes, want the write error after 1", err, w.n)
	}
	_ = fmt.Sprint()
}

// TestStdioEndCancels: at the end of stdin a call that does not end is
// waited for at most the drain time, then cancelled (its walk sees
// Cancelled), and ServeStdio returns.
func TestStdioEndCancels(t *testing.T) {
	s := newServer(t.TempDir())
	s.drain = 100 * time.Millisecond
	cancelled := make(chan struct{})
	s.call = func(ctx context.Context, _ []byte, env agent.Env) *agent.Answer {
		for ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		close(cancelled)
		return &agent.Answer{Text: "cancelled", Failed: true}
	}
	in := strings.Join([]string{initLine("2025-06-18"), initializedLine, toolCall(`{"pattern":"x"}`)}, "\n")
	done := make(chan error, 1)
	go func() { done <- s.serveStdio(t.Context(), io.NopCloser(strings.NewReader(in)), io.Discard) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ServeStdio: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ServeStdio waits forever for a call that does not end")
	}
	select {
	case <-cancelled:
	case <-time.After(20 * time.Second):
		t.Fatal("the call was not cancelled")
	}
}
