package mcpserver

import (
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const (
	initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	pingBody = `{"jsonrpc":"2.0","id":2,"method":"ping"}`
)

// fakeClock is the handler's clock in these tests (the handler is called
// directly, so there is no concurrency).
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func testHandler(t *testing.T) (*httpHandler, *fakeClock) {
	clk := &fakeClock{t: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	h := newHTTPHandler(testTree(t))
	h.now = clk.now
	return h, clk
}

// do sends one request straight to h; headers holds name, value pairs.
func do(h http.Handler, method, body string, headers ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, "/", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// initialize opens a session and returns its id.
func initialize(t *testing.T, h http.Handler) string {
	t.Helper()
	w := do(h, "POST", initBody)
	id := w.Header().Get(sessionHeader)
	if w.Code != 200 || len(id) != 32 {
		t.Fatalf("initialize: %d, session %q: %s", w.Code, id, w.Body)
	}
	if _, err := hex.DecodeString(id); err != nil {
		t.Fatalf("session id %q is not hex", id)
	}
	return id
}

func isJSONReply(id string, check func(t *testing.T, raw []byte)) func(t *testing.T, w *httptest.ResponseRecorder) {
	return func(t *testing.T, w *httptest.ResponseRecorder) {
		t.Helper()
		if ct := w.Header().Get("Content-Type"); ct != "application/json" {
			t.Fatalf("Content-Type %q", ct)
		}
		checkReply(t, w.Body.Bytes(), want{id: id, result: check})
	}
}

// TestHTTP: status codes and bodies of the streamable HTTP transport.
// Each case runs on a new handler with one initialized session (sid).
func TestHTTP(t *testing.T) {
	cases := []struct {
		name   string
		before func(t *testing.T, h *httpHandler, clk *fakeClock, sid string)
		method string
		body   string
		// headers are name, value pairs; "SID" as a value is the session id.
		headers []string
		status  int
		check   func(t *testing.T, w *httptest.ResponseRecorder)
	}{
		{name: "initialize opens a session", method: "POST", body: initBody, status: 200,
			check: func(t *testing.T, w *httptest.ResponseRecorder) {
				if len(w.Header().Get(sessionHeader)) != 32 {
					t.Fatalf("no session id: %v", w.Header())
				}
				isJSONReply("1", versionIs("2025-06-18"))(t, w)
			}},
		{name: "request in the session", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID"}, status: 200,
			check: isJSONReply("2", isEmptyObject)},
		{name: "batch", method: "POST", body: "[" + pingBody + "," + toolCall(`{"pattern":"needle"}`) + "]", headers: []string{sessionHeader, "SID"}, status: 200,
			check: func(t *testing.T, w *httptest.ResponseRecorder) {
				var rs []json.RawMessage
				if err := json.Unmarshal(w.Body.Bytes(), &rs); err != nil || len(rs) != 2 {
					t.Fatalf("batch reply %s: %v", w.Body, err)
				}
				checkReply(t, rs[0], want{id: "2", result: isEmptyObject})
				checkReply(t, rs[1], want{id: "7"})
			}},
		{name: "missing session", method: "POST", body: pingBody, status: 400},
		{name: "unknown session", method: "POST", body: pingBody, headers: []string{sessionHeader, "0123456789abcdef0123456789abcdef"}, status: 404},
		{name: "DELETE then reuse",
			before: func(t *testing.T, h *httpHandler, _ *fakeClock, sid string) {
				if w := do(h, "DELETE", "", sessionHeader, sid); w.Code != 200 {
					t.Fatalf("DELETE: %d", w.Code)
				}
			},
			method: "POST", body: pingBody, headers: []string{sessionHeader, "SID"}, status: 404},
		{name: "DELETE unknown session", method: "DELETE", headers: []string{sessionHeader, "ff"}, status: 404},
		{name: "DELETE without session", method: "DELETE", status: 400},
		{name: "idle session expires", before: func(_ *testing.T, _ *httpHandler, clk *fakeClock, _ string) {
			clk.t = clk.t.Add(sessionIdle + time.Second)
		},
			method: "POST", body: pingBody, headers: []string{sessionHeader, "SID"}, status: 404},
		{name: "session used within the idle time", before: func(_ *testing.T, _ *httpHandler, clk *fakeClock, _ string) {
			clk.t = clk.t.Add(sessionIdle - time.Second)
		},
			method: "POST", body: pingBody, headers: []string{sessionHeader, "SID"}, status: 200},
		{name: "GET", method: "GET", headers: []string{sessionHeader, "SID", "Accept", "text/event-stream"}, status: 405,
			check: func(t *testing.T, w *httptest.ResponseRecorder) {
				if w.Header().Get("Allow") == "" {
					t.Fatal("405 without Allow")
				}
			}},
		{name: "PUT", method: "PUT", body: pingBody, headers: []string{sessionHeader, "SID"}, status: 405},
		{name: "foreign Origin", method: "POST", body: initBody, headers: []string{"Origin", "http://evil.example"}, status: 403},
		{name: "DNS-rebound Origin", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Origin", "http://localhost.evil.example:8080"}, status: 403},
		{name: "null Origin", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Origin", "null"}, status: 403},
		{name: "localhost Origin", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Origin", "http://localhost:3000"}, status: 200},
		{name: "[::1] Origin", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Origin", "http://[::1]:3000"}, status: 200},
		{name: "notification only", method: "POST", body: `{"jsonrpc":"2.0","method":"notifications/initialized"}`, headers: []string{sessionHeader, "SID"}, status: 202,
			check: func(t *testing.T, w *httptest.ResponseRecorder) {
				if w.Body.Len() != 0 {
					t.Fatalf("202 with a body: %s", w.Body)
				}
			}},
		{name: "SSE for an event-stream-only client", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Accept", "text/event-stream"}, status: 200,
			check: func(t *testing.T, w *httptest.ResponseRecorder) {
				body := w.Body.String()
				if ct := w.Header().Get("Content-Type"); ct != "text/event-stream" ||
					!strings.HasPrefix(body, "event: message\ndata: ") || !strings.HasSuffix(body, "\n\n") || strings.Count(body, "\n") != 3 {
					t.Fatalf("SSE reply %q (%s)", body, ct)
				}
				checkReply(t, []byte(strings.TrimSuffix(strings.TrimPrefix(body, "event: message\ndata: "), "\n\n")), want{id: "2", result: isEmptyObject})
			}},
		{name: "JSON when both are accepted", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Accept", "text/event-stream;q=1, application/json;q=0.9"}, status: 200,
			check: isJSONReply("2", isEmptyObject)},
		{name: "supported protocol version header", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", protocolHeader, "2025-06-18"}, status: 200},
		{name: "unsupported protocol version header", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", protocolHeader, "2026-07-28"}, status: 400},
		{name: "body too large", method: "POST", body: `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("a", maxBodyBytes) + `"}}`,
			headers: []string{sessionHeader, "SID"}, status: 413},
		{name: "invalid JSON", method: "POST", body: `{"jsonrpc":`, headers: []string{sessionHeader, "SID"}, status: 400,
			check: func(t *testing.T, w *httptest.ResponseRecorder) {
				checkReply(t, w.Body.Bytes(), want{id: "null", code: -32700})
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, clk := testHandler(t)
			sid := initialize(t, h)
			if tc.before != nil {
				tc.before(t, h, clk, sid)
			}
			headers := append([]string(nil), tc.headers...)
			for i := range headers {
				if headers[i] == "SID" {
					headers[i] = sid
				}
			}
			w := do(h, tc.method, tc.body, headers...)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d: %.300s", w.Code, tc.status, w.Body)
			}
			if tc.check != nil {
				tc.check(t, w)
			}
		})
	}
}

// TestHTTPSessionLimit: a new session past the bound evicts the least
// recently used one, not one in use.
func TestHTTPSessionLimit(t *testing.T) {
	h, clk := testHandler(t)
	ids := make([]string, maxSessions)
	for i := range ids {
		clk.t = clk.t.Add(time.Second)
		ids[i] = initialize(t, h)
	}
	clk.t = clk.t.Add(time.Second)
	if w := do(h, "POST", pingBody, sessionHeader, ids[0]); w.Code != 200 { // ids[1] is now the least recently used
		t.Fatalf("oldest session: %d", w.Code)
	}
	clk.t = clk.t.Add(time.Second)
	initialize(t, h)
	if len(h.sessions) != maxSessions {
		t.Fatalf("%d live sessions, want %d", len(h.sessions), maxSessions)
	}
	if w := do(h, "POST", pingBody, sessionHeader, ids[1]); w.Code != 404 {
		t.Fatalf("least recently used session: %d, want 404", w.Code)
	}
	for _, id := range append([]string{ids[0]}, ids[2:]...) {
		if w := do(h, "POST", pingBody, sessionHeader, id); w.Code != 200 {
			t.Fatalf("session %s: %d, want 200", id, w.Code)
		}
	}
}

// TestHTTPSessionsAreSeparate: each session has its own snapshots, so one
// session's cursor is unknown in another.
func TestHTTPSessionsAreSeparate(t *testing.T) {
	h, _ := testHandler(t)
	a, b := initialize(t, h), initialize(t, h)
	if a == b {
		t.Fatal("two sessions share an id")
	}
	callIn := func(sid, args string) toolResult {
		t.Helper()
		w := do(h, "POST", toolCall(args), sessionHeader, sid)
		r := decodeReply(t, w.Body.Bytes())
		var res toolResult
		if err := json.Unmarshal(r.Result, &res); err != nil {
			t.Fatalf("%s: %v", w.Body, err)
		}
		return res
	}
	first := callIn(a, `{"pattern":"needle","mode":"matches","limit":2}`)
	cursor := first.StructuredContent.Cursor
	if cursor == "" {
		t.Fatalf("no cursor: %+v", first)
	}
	if r := callIn(b, `{"cursor":"`+cursor+`"}`); !r.IsError || r.StructuredContent.Error == nil || r.StructuredContent.Error.Code != "E_CURSOR_NOT_FOUND" {
		t.Fatalf("cursor of session A in session B: %+v", r)
	}
	if r := callIn(a, `{"cursor":"`+cursor+`"}`); r.IsError || len(r.StructuredContent.Matches) == 0 || r.StructuredContent.Matches[0].Match != 3 {
		t.Fatalf("cursor in its own session: %+v", r)
	}
}
