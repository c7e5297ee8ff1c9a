package mcpserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// hostileCases are requests whose one field is 3 MB: the SDK's own errors
// once quoted it whole (and every reply repeats the id).
func hostileCases() []struct{ name, id, line string } {
	big := strings.Repeat("a", 3<<20)
	return []struct{ name, id, line string }{
		{"tool name", "11", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"` + big + `","arguments":{}}}`},
		{"method", "12", `{"jsonrpc":"2.0","id":12,"method":"` + big + `"}`},
		{"prompt name", "13", `{"jsonrpc":"2.0","id":13,"method":"prompts/get","params":{"name":"` + big + `"}}`},
		{"resource URI", "14", `{"jsonrpc":"2.0","id":14,"method":"resources/read","params":{"uri":"` + big + `"}}`},
		{"params not an object", "15", `{"jsonrpc":"2.0","id":15,"method":"tools/call","params":"` + big + `"}`},
		{"params an array", "16", `{"jsonrpc":"2.0","id":16,"method":"tools/list","params":["` + big + `"]}`},
		// A reply repeats its request's id: a long one is refused.
		{"request id", "null", `{"jsonrpc":"2.0","id":"` + big + `","method":"ping"}`},
		{"request id in a batch", "null", `[{"jsonrpc":"2.0","id":"` + big + `","method":"ping"}]`},
	}
}

// TestHostileFieldsBoundedStdio: over stdio every reply to such a request
// is an error of at most maxReplyBytes, with the request's id, and the
// session goes on.
func TestHostileFieldsBoundedStdio(t *testing.T) {
	root := testTree(t)
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			got, err := runStdio(t, root, initLine("2025-06-18"), initializedLine, tc.line, sentinel)
			if err != nil {
				t.Fatalf("ServeStdio: %v", err)
			}
			if got[sentinelID] == nil {
				t.Fatal("the session did not answer the ping after the line")
			}
			for id, b := range got {
				if len(b) > maxReplyBytes {
					t.Errorf("reply %s: %d bytes, want at most %d: %.200s", id, len(b), maxReplyBytes, b)
				}
			}
			r, ok := got[tc.id]
			if !ok {
				t.Fatalf("no reply with id %s", tc.id)
			}
			if decodeReply(t, r).Error == nil {
				t.Errorf("reply %.300s: not an error", r)
			}
		})
	}
}

// TestHostileFieldsBoundedHTTP: the same over streamable HTTP, whatever
// form the answer takes (JSON, an SSE event, an HTTP error text).
func TestHostileFieldsBoundedHTTP(t *testing.T) {
	srv, _ := testServer(t, Options{})
	sid := initialize(t, srv.URL, "2025-06-18")
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			r, err := http.NewRequest("POST", srv.URL, strings.NewReader(tc.line))
			if err != nil {
				t.Fatal(err)
			}
			r.Header.Set("Content-Type", "application/json")
			r.Header.Set("Accept", "application/json, text/event-stream")
			r.Header.Set(sessionHeader, sid)
			r.Header.Set(protocolHeader, "2025-06-18")
			resp, err := http.DefaultClient.Do(r)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if len(body) > maxReplyBytes || len(body) == 0 {
				t.Errorf("status %d, %d bytes, want 1 to %d: %.200s", resp.StatusCode, len(body), maxReplyBytes, body)
			}
			if resp.StatusCode == 200 {
				ms := messages(t, resp.Header, string(body))
				if len(ms) == 0 || decodeReply(t, []byte(ms[len(ms)-1])).Error == nil {
					t.Errorf("answer %.300s: not an error", body)
				}
			} else if !bytes.Contains(body, []byte("a")) && resp.StatusCode >= 500 {
				t.Errorf("status %d: %.300s", resp.StatusCode, body)
			}
		})
	}
	// The session still answers.
	if code, _, body := post(t, srv.URL, "POST", pingBody, sessionHeader, sid, protocolHeader, "2025-06-18"); code != 200 {
		t.Fatalf("ping after: %d %s", code, body)
	}
}

// TestBoundReplyForms: a long error is cut in each form a reply takes,
// keeping its id, code and the other messages of a batch; short replies
// and results pass unchanged.
func TestBoundReplyForms(t *testing.T) {
	big := strings.Repeat("é\"", 1<<20)
	errMsg := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32602,"message":"unknown tool ` + strings.ReplaceAll(big, `"`, `\"`) + `","data":{"uri":"x"}}}`
	}
	result := `{"jsonrpc":"2.0","id":3,"result":{"text":"` + strings.Repeat("r", 20<<10) + `"}}`
	for _, c := range []struct {
		name, in string
		ids      []string
	}{
		{"message", errMsg(`"a"`) + "\n", []string{`"a"`}},
		{"batch", "[" + errMsg("1") + "," + `{"jsonrpc":"2.0","id":2,"result":{}}` + "," + errMsg("4") + "]", []string{"1", "2", "4"}},
		{"event", "event: message\nid: 5\ndata: " + errMsg("5") + "\n\n", []string{"5"}},
	} {
		out := boundReply([]byte(c.in))
		if len(out) > maxReplyBytes {
			t.Errorf("%s: %d bytes", c.name, len(out))
		}
		body := out
		if c.name == "event" {
			if !bytes.HasPrefix(out, []byte("event: message\nid: 5\ndata: ")) || !bytes.HasSuffix(out, []byte("\n\n")) {
				t.Fatalf("event: %.200q", out)
			}
			body = bytes.TrimSuffix(bytes.TrimPrefix(out, []byte("event: message\nid: 5\ndata: ")), []byte("\n\n"))
		}
		var ms []reply
		if c.name == "batch" {
			var raws []json.RawMessage
			if err := json.Unmarshal(body, &raws); err != nil {
				t.Fatalf("batch: %v", err)
			}
			for _, r := range raws {
				ms = append(ms, decodeReply(t, r))
			}
		} else {
			ms = append(ms, decodeReply(t, bytes.TrimSuffix(body, []byte("\n"))))
		}
		for i, m := range ms {
			if string(m.ID) != c.ids[i] {
				t.Errorf("%s: id %s, want %s", c.name, m.ID, c.ids[i])
			}
			if m.Error != nil && (m.Error.Code != -32602 || !strings.HasPrefix(m.Error.Message, "unknown tool é\"") || !strings.HasSuffix(m.Error.Message, "… (cut)") || m.Error.Data != nil) {
				t.Errorf("%s: error %+v", c.name, m.Error)
			}
		}
	}
	for _, in := range []string{result, errMsg("1")[:100]} {
		if out := boundReply([]byte(in)); string(out) != in {
			t.Errorf("%.50s… changed", in)
		}
	}
}
