package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/evgrep/evgrep/internal/agent"
)

const pingBody = `{"jsonrpc":"2.0","id":2,"method":"ping"}`

// testServer serves a new handler (with opts) on a loopback port.
func testServer(t *testing.T, opts Options) (*httptest.Server, *httpHandler) {
	t.Helper()
	h := newHTTPHandler(newServer(testTree(t)), opts)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, h
}

// post sends one request; headers holds name, value pairs ("Host" sets
// the Host header). It returns the status, the headers and the body.
func post(t *testing.T, url, method, body string, headers ...string) (int, http.Header, string) {
	t.Helper()
	r, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		if headers[i] == "Host" {
			r.Host = headers[i+1]
			continue
		}
		r.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// messages returns the JSON-RPC messages of a body: JSON, or the data of
// SSE events.
func messages(t *testing.T, header http.Header, body string) []string {
	t.Helper()
	if !strings.HasPrefix(header.Get("Content-Type"), "text/event-stream") {
		return []string{body}
	}
	var out []string
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

// initialize opens a session of the given protocol version and returns its
// id.
func initialize(t *testing.T, url, version string) string {
	t.Helper()
	code, h, body := post(t, url, "POST", initLine(version))
	id := h.Get(sessionHeader)
	if code != 200 || id == "" {
		t.Fatalf("initialize: %d, session %q: %s", code, id, body)
	}
	checkReply(t, []byte(messages(t, h, body)[0]), want{id: "1", result: versionIs(version)})
	if code, _, body := post(t, url, "POST", initializedLine, sessionHeader, id, protocolHeader, version); code != 202 {
		t.Fatalf("initialized: %d %s", code, body)
	}
	return id
}

// TestHTTP: status codes and bodies of the streamable HTTP transport and
// the checks in front of it. Each case runs on a new server with one
// initialized session (SID) of protocol 2025-06-18; in headers, "SID" is
// replaced by its id and "HOSTPORT" by the server's host:port.
func TestHTTP(t *testing.T) {
	tooMany := "[" + strings.TrimSuffix(strings.Repeat(pingBody+",", maxBatch+1), ",") + "]"
	cases := []struct {
		name    string
		opts    Options
		method  string
		body    string
		headers []string
		status  int
		check   func(t *testing.T, h http.Header, body string)
	}{
		{name: "request in the session", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID"}, status: 200,
			check: func(t *testing.T, h http.Header, body string) {
				checkReply(t, []byte(messages(t, h, body)[0]), want{id: "2", result: isEmptyObject})
			}},
		{name: "unknown session", method: "POST", body: pingBody, headers: []string{sessionHeader, "0123456789abcdef0123456789abcdef"}, status: 404},
		{name: "DELETE", method: "DELETE", headers: []string{sessionHeader, "SID"}, status: 204},
		{name: "DELETE unknown session", method: "DELETE", headers: []string{sessionHeader, "ff"}, status: 404},
		{name: "PUT", method: "PUT", body: pingBody, headers: []string{sessionHeader, "SID"}, status: 405},
		{name: "unsupported protocol version header", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", protocolHeader, "2000-01-01"}, status: 400},
		{name: "body too large", method: "POST", body: `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"` + strings.Repeat("a", maxMessageBytes) + `"}}`,
			headers: []string{sessionHeader, "SID"}, status: 413},

		// DNS rebinding: the Host must be this server's address.
		{name: "Host 127.0.0.1", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Host", "HOSTPORT"}, status: 200},
		{name: "Host localhost", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Host", "localhost:PORT"}, status: 200},
		{name: "Host of a foreign name", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Host", "evil.example:PORT"}, status: 403},
		{name: "Host localhost.evil", method: "POST", body: initLine("2025-06-18"), headers: []string{"Host", "localhost.evil.example:PORT"}, status: 403},
		{name: "Host of another port", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Host", "127.0.0.1:1"}, status: 403},
		{name: "Host of another address", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Host", "192.0.2.1:PORT"}, status: 403},

		// Origins: refused unless listed, exactly.
		{name: "foreign Origin", method: "POST", body: initLine("2025-06-18"), headers: []string{"Origin", "http://evil.example"}, status: 403},
		{name: "localhost Origin not listed", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Origin", "http://localhost:3000"}, status: 403},
		{name: "null Origin", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Origin", "null"}, status: 403},
		{name: "listed Origin", opts: Options{AllowOrigins: []string{"http://localhost:3000"}}, method: "POST", body: pingBody,
			headers: []string{sessionHeader, "SID", "Origin", "http://localhost:3000"}, status: 200,
			check: func(t *testing.T, h http.Header, _ string) {
				if h.Get("Access-Control-Allow-Origin") != "http://localhost:3000" || !strings.Contains(h.Get("Access-Control-Expose-Headers"), sessionHeader) {
					t.Fatalf("CORS headers: %v", h)
				}
			}},
		{name: "listed Origin, other port", opts: Options{AllowOrigins: []string{"http://localhost:3000"}}, method: "POST", body: pingBody,
			headers: []string{sessionHeader, "SID", "Origin", "http://localhost:3001"}, status: 403},
		{name: "preflight of a listed Origin", opts: Options{AllowOrigins: []string{"https://app.example"}}, method: "OPTIONS",
			headers: []string{"Origin", "https://app.example", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type,mcp-session-id"}, status: 204,
			check: func(t *testing.T, h http.Header, _ string) {
				if h.Get("Access-Control-Allow-Origin") != "https://app.example" || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "POST") ||
					!strings.Contains(h.Get("Access-Control-Allow-Headers"), sessionHeader) {
					t.Fatalf("preflight headers: %v", h)
				}
			}},
		{name: "preflight of another Origin", opts: Options{AllowOrigins: []string{"https://app.example"}}, method: "OPTIONS",
			headers: []string{"Origin", "https://evil.example", "Access-Control-Request-Method", "POST"}, status: 403},

		// Content types.
		{name: "text/plain", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Content-Type", "text/plain"}, status: 415},
		{name: "form", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Content-Type", "application/x-www-form-urlencoded"}, status: 415},
		{name: "no content type", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Content-Type", ""}, status: 415},
		{name: "json with charset", method: "POST", body: pingBody, headers: []string{sessionHeader, "SID", "Content-Type", "application/json; charset=utf-8"}, status: 200},

		// Batches: none in 2025-06-18; bounded in 2025-03-26.
		{name: "batch in 2025-06-18", method: "POST", body: "[" + pingBody + "]", headers: []string{sessionHeader, "SID", protocolHeader, "2025-06-18"}, status: 400,
			check: func(t *testing.T, _ http.Header, body string) {
				checkReply(t, []byte(body), want{id: "null", code: -32600})
			}},
		{name: "batch past the bound", method: "POST", body: tooMany, headers: []string{protocolHeader, "2025-03-26"}, status: 400,
			check: func(t *testing.T, _ http.Header, body string) {
				checkReply(t, []byte(body), want{id: "null", code: -32600})
				if !strings.Contains(body, fmt.Sprintf("at most %d", maxBatch)) {
					t.Fatalf("error does not state the bound: %s", body)
				}
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := testServer(t, tc.opts)
			sid := initialize(t, srv.URL, "2025-06-18")
			hostport := strings.TrimPrefix(srv.URL, "http://")
			_, port, _ := net.SplitHostPort(hostport)
			headers := append([]string(nil), tc.headers...)
			for i := range headers {
				headers[i] = strings.NewReplacer("SID", sid, "HOSTPORT", hostport, "PORT", port).Replace(headers[i])
			}
			code, h, body := post(t, srv.URL, tc.method, tc.body, headers...)
			if code != tc.status {
				t.Fatalf("status %d, want %d: %.300s", code, tc.status, body)
			}
			if tc.check != nil {
				tc.check(t, h, body)
			}
		})
	}
}

// TestHTTPBatch2025_03_26: a bounded batch is answered in a 2025-03-26
// session, as one array.
func TestHTTPBatch2025_03_26(t *testing.T) {
	srv, _ := testServer(t, Options{})
	sid := initialize(t, srv.URL, "2025-03-26")
	code, h, body := post(t, srv.URL, "POST", "["+pingBody+","+toolCall(`{"pattern":"needle"}`)+"]", sessionHeader, sid, protocolHeader, "2025-03-26")
	if code != 200 {
		t.Fatalf("status %d: %s", code, body)
	}
	var rs []json.RawMessage
	for _, m := range messages(t, h, body) {
		var part []json.RawMessage
		if err := json.Unmarshal([]byte(m), &part); err != nil {
			part = []json.RawMessage{json.RawMessage(m)}
		}
		rs = append(rs, part...)
	}
	if len(rs) != 2 {
		t.Fatalf("batch reply %s", body)
	}
	// The replies of a batch may come in any order (JSON-RPC 2.0).
	if string(decodeReply(t, rs[0]).ID) == "7" {
		rs[0], rs[1] = rs[1], rs[0]
	}
	checkReply(t, rs[0], want{id: "2", result: isEmptyObject})
	checkReply(t, rs[1], want{id: "7"})
}

// TestHTTPSessionsAreSeparate: each session has its own snapshots, so one
// session's cursor is unknown in another.
func TestHTTPSessionsAreSeparate(t *testing.T) {
	srv, _ := testServer(t, Options{})
	a, b := initialize(t, srv.URL, "2025-06-18"), initialize(t, srv.URL, "2025-06-18")
	if a == b {
		t.Fatal("two sessions share an id")
	}
	callIn := func(sid, args string) toolResult {
		t.Helper()
		_, h, body := post(t, srv.URL, "POST", toolCall(args), sessionHeader, sid, protocolHeader, "2025-06-18")
		ms := messages(t, h, body)
		r := decodeReply(t, []byte(ms[len(ms)-1]))
		var res toolResult
		if err := json.Unmarshal(r.Result, &res); err != nil {
			t.Fatalf("%s: %v", body, err)
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

// TestHTTPSessionFlood: past maxSessions a new session evicts the least
// recently used idle one; a session with a request in flight, or used
// within sessionBusyWindow, is never evicted, and when all are so the new
// session is refused with 503.
func TestHTTPSessionFlood(t *testing.T) {
	srv, h := testServer(t, Options{})
	clk := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	h.mu.Lock()
	h.now = func() time.Time { return clk }
	h.mu.Unlock()
	at := func(d time.Duration) {
		h.mu.Lock()
		clk = clk.Add(d)
		h.mu.Unlock()
	}
	ids := make([]string, maxSessions)
	for i := range ids {
		ids[i] = initialize(t, srv.URL, "2025-06-18")
		at(100 * time.Millisecond)
	}
	// All were used within the busy window: a flood is refused.
	if code, hd, body := post(t, srv.URL, "POST", initLine("2025-06-18")); code != 503 || hd.Get("Retry-After") == "" {
		t.Fatalf("session past the bound while all are busy: %d %s", code, body)
	}
	// ids[0] has a request in flight (a tool call that blocks).
	release := make(chan struct{})
	started := make(chan struct{})
	inner := h.srv.call
	h.srv.call = func(ctx context.Context, data []byte, env agent.Env) *agent.Answer {
		close(started)
		<-release
		return inner(ctx, data, env)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		post(t, srv.URL, "POST", toolCall(`{"pattern":"needle"}`), sessionHeader, ids[0], protocolHeader, "2025-06-18")
	}()
	<-started
	at(sessionBusyWindow + time.Minute)
	// ids[1] is now the least recently used idle session: it goes.
	if code, _, body := post(t, srv.URL, "POST", initLine("2025-06-18")); code != 200 {
		t.Fatalf("new session with idle ones: %d %s", code, body)
	}
	waitClosed(t, h, ids[1])
	if code, _, _ := post(t, srv.URL, "POST", pingBody, sessionHeader, ids[1], protocolHeader, "2025-06-18"); code != 404 {
		t.Fatalf("evicted session: %d, want 404", code)
	}
	// Flood: every idle session goes, the busy one stays.
	for i := 0; i < maxSessions; i++ {
		post(t, srv.URL, "POST", initLine("2025-06-18"))
	}
	close(release)
	<-done
	if code, _, body := post(t, srv.URL, "POST", pingBody, sessionHeader, ids[0], protocolHeader, "2025-06-18"); code != 200 {
		t.Fatalf("the session in use was evicted by the flood: %d %s", code, body)
	}
}

// waitClosed waits until the SDK has closed session id.
func waitClosed(t *testing.T, h *httpHandler, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		open := false
		for ss := range h.srv.mcp.Sessions() {
			open = open || ss.ID() == id
		}
		if !open {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("session %s is not closed", id)
}

// TestHTTPTimeouts: a client that stops sending its body, or leaves a
// keep-alive connection idle, has its connection closed (the test's own
// timeout only detects a hang); an answer that takes longer than the read
// timeout is still delivered.
func TestHTTPTimeouts(t *testing.T) {
	const timeout = 300 * time.Millisecond
	h := newHTTPHandler(newServer(testTree(t)), Options{})
	slow := h.srv.call
	h.srv.call = func(ctx context.Context, data []byte, env agent.Env) *agent.Answer {
		if strings.Contains(string(data), "slow") {
			time.Sleep(3 * timeout)
		}
		return slow(ctx, data, env)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Config = newHTTPServer(h, timeout, timeout)
	srv.Start()
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")

	closed := func(t *testing.T, c net.Conn) {
		t.Helper()
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, err := io.Copy(io.Discard, c)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatal("the server kept the connection open")
		}
	}
	t.Run("body", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\"", addr)
		closed(t, c)
	})
	t.Run("idle keep-alive", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		body := initLine("2025-06-18")
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s", addr, len(body), body)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("initialize: %v %v", resp, err)
		}
		closed(t, c)
	})
	t.Run("long answer", func(t *testing.T) {
		sid := initialize(t, srv.URL, "2025-06-18")
		code, hd, body := post(t, srv.URL, "POST", toolCall(`{"pattern":"slow|needle"}`), sessionHeader, sid, protocolHeader, "2025-06-18")
		ms := messages(t, hd, body)
		if code != 200 || len(ms) == 0 {
			t.Fatalf("slow call: %d %q", code, body)
		}
		checkReply(t, []byte(ms[len(ms)-1]), want{id: "7"})
	})
}

// TestListenWarning: binding a non-loopback address warns on stderr.
func TestListenWarning(t *testing.T) {
	for _, c := range []struct {
		addr string
		warn bool
	}{{"127.0.0.1:0", false}, {":0", false}, {"0.0.0.0:0", true}} {
		var log strings.Builder
		ln, err := listen(c.addr, "/src", &log)
		if err != nil {
			t.Fatal(err)
		}
		ln.Close()
		if got := strings.Contains(log.String(), "warning"); got != c.warn {
			t.Errorf("%s: %q", c.addr, log.String())
		}
	}
}

// TestHTTPIdleSession: a session unused for the idle time is closed (404
// after), its snapshots with it; one in use is kept.
func TestHTTPIdleSession(t *testing.T) {
	s := newServer(testTree(t))
	s.idle = 200 * time.Millisecond
	h := newHTTPHandler(s, Options{})
	srv := httptest.NewServer(h)
	defer srv.Close()
	sid := initialize(t, srv.URL, "2025-06-18")
	post(t, srv.URL, "POST", toolCall(`{"pattern":"needle"}`), sessionHeader, sid, protocolHeader, "2025-06-18")
	waitClosed(t, h, sid)
	if code, _, _ := post(t, srv.URL, "POST", pingBody, sessionHeader, sid, protocolHeader, "2025-06-18"); code != 404 {
		t.Fatalf("idle session: %d, want 404", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		s.mu.Lock()
		n := len(s.sessions)
		s.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("the closed session's snapshots are still kept")
}
