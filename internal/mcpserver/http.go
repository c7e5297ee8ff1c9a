package mcpserver

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// HTTP header names of the streamable HTTP transport.
const (
	sessionHeader  = "Mcp-Session-Id"
	protocolHeader = "Mcp-Protocol-Version"
)

// Handler returns the streamable HTTP handler (MCP's "Streamable HTTP"
// transport, without server-initiated streams): each POST carries a
// JSON-RPC message or batch and gets its reply as JSON (or as one SSE event
// for a client that accepts only text/event-stream). initialize opens a
// session, named by the Mcp-Session-Id header, with snapshots of its own;
// DELETE ends it. Requests from a browser page of another host (Origin)
// are refused.
func Handler(cwd string) http.Handler {
	return newHTTPHandler(cwd)
}

type httpHandler struct {
	cwd string
	now func() time.Time // time.Now; tests move it

	mu       sync.Mutex
	sessions map[string]*httpSession
}

type httpSession struct {
	*session
	lastUsed time.Time // guarded by httpHandler.mu
}

func newHTTPHandler(cwd string) *httpHandler {
	return &httpHandler{cwd: cwd, now: time.Now, sessions: map[string]*httpSession{}}
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !allowedOrigin(r.Header.Get("Origin")) {
		http.Error(w, "forbidden: cross-origin request", http.StatusForbidden)
		return
	}
	if v := r.Header.Get(protocolHeader); v != "" && !supportedVersion(v) {
		http.Error(w, "bad request: unsupported "+protocolHeader+" "+v+" (supported: "+strings.Join(protocolVersions, ", ")+")", http.StatusBadRequest)
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodDelete:
		id := r.Header.Get(sessionHeader)
		if id == "" {
			http.Error(w, "bad request: missing "+sessionHeader, http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		_, ok := h.lookup(id)
		delete(h.sessions, id)
		h.mu.Unlock()
		if !ok {
			http.Error(w, "session not found", http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusOK)
	default:
		// GET would open a server-initiated SSE stream: this server has
		// nothing to send unasked, which the transport allows to say so.
		w.Header().Set("Allow", "POST, DELETE")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

func (h *httpHandler) post(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBodyBytes))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
		return
	}
	if !json.Valid(body) {
		writeJSON(w, http.StatusBadRequest, errorReply(nil, codeParseError, "parse error: the body is not valid JSON"))
		return
	}
	var s *session
	newID := ""
	if isInitialize(body) {
		s = newSession(h.cwd)
		newID = newSessionID()
	} else {
		id := r.Header.Get(sessionHeader)
		if id == "" {
			http.Error(w, "bad request: missing "+sessionHeader+" (initialize first)", http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		hs, ok := h.lookup(id)
		h.mu.Unlock()
		if !ok {
			http.Error(w, "session not found (expired or ended): initialize again", http.StatusNotFound)
			return
		}
		s = hs.session
	}
	reply := s.process(body)
	if newID != "" && s.protocolVersion() != "" {
		h.add(newID, s)
		w.Header().Set(sessionHeader, newID)
	}
	if reply == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if wantsSSE(r.Header.Values("Accept")) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		var b bytes.Buffer
		b.WriteString("event: message\ndata: ")
		b.Write(reply)
		b.WriteString("\n\n")
		w.Write(b.Bytes())
		return
	}
	writeJSON(w, http.StatusOK, reply)
}

func writeJSON(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// lookup returns the live session id and marks it used; an expired one is
// removed. h.mu must be held.
func (h *httpHandler) lookup(id string) (*httpSession, bool) {
	hs, ok := h.sessions[id]
	if !ok {
		return nil, false
	}
	now := h.now()
	if now.Sub(hs.lastUsed) > sessionIdle {
		delete(h.sessions, id)
		return nil, false
	}
	hs.lastUsed = now
	return hs, true
}

// add registers a new session, first dropping expired ones and, when
// still full, the least recently used.
func (h *httpHandler) add(id string, s *session) {
	h.mu.Lock()
	defer h.mu.Unlock()
	now := h.now()
	for k, hs := range h.sessions {
		if now.Sub(hs.lastUsed) > sessionIdle {
			delete(h.sessions, k)
		}
	}
	for len(h.sessions) >= maxSessions {
		oldest := ""
		for k, hs := range h.sessions {
			if oldest == "" || hs.lastUsed.Before(h.sessions[oldest].lastUsed) {
				oldest = k
			}
		}
		delete(h.sessions, oldest)
	}
	h.sessions[id] = &httpSession{session: s, lastUsed: now}
}

// newSessionID returns 128 random bits in hex.
func newSessionID() string {
	var b [16]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

// isInitialize reports whether body is an initialize request (MCP forbids
// initialize inside a batch).
func isInitialize(body []byte) bool {
	var m struct {
		Method string `json:"method"`
	}
	b := bytes.TrimSpace(body)
	return len(b) > 0 && b[0] == '{' && json.Unmarshal(b, &m) == nil && m.Method == "initialize"
}

// wantsSSE reports whether the client accepts text/event-stream but not
// application/json; a client that names neither (or nothing) gets JSON.
func wantsSSE(accept []string) bool {
	sse, js := false, false
	for _, v := range accept {
		for _, part := range strings.Split(v, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			switch mt {
			case "text/event-stream":
				sse = true
			case "application/json", "application/*", "*/*":
				js = true
			}
		}
	}
	return sse && !js
}

// allowedOrigin accepts requests without an Origin (not from a browser)
// and those from pages on this machine: localhost, 127.0.0.1 or [::1].
// That stops DNS rebinding: a foreign page whose name resolves to
// 127.0.0.1 still sends its own origin.
func allowedOrigin(origin string) bool {
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	switch u.Hostname() {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	return false
}
