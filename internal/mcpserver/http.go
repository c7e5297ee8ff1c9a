package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTP header names of the streamable HTTP transport.
const (
	sessionHeader  = "Mcp-Session-Id"
	protocolHeader = "Mcp-Protocol-Version"
)

// Options configure the streamable HTTP server.
type Options struct {
	// AllowOrigins are the browser origins ("scheme://host[:port]",
	// compared exactly) whose requests are served, with CORS preflights
	// answered. A request with any other Origin header is refused (403);
	// requests without one (not from a browser page) are served.
	AllowOrigins []string
}

// ServeHTTP serves streamable HTTP on addr; an address without a host
// (":8080" or "8080") binds to 127.0.0.1 only. Binding another address
// prints a warning on log.
func ServeHTTP(addr, cwd string, opts Options, log io.Writer) error {
	ln, err := listen(addr, cwd, log)
	if err != nil {
		return err
	}
	return newHTTPServer(Handler(cwd, opts), readTimeout, idleTimeout).Serve(ln)
}

// listen binds addr (LoopbackDefault) and says where on log, with a
// warning when the address is not a loopback one.
func listen(addr, cwd string, log io.Writer) (net.Listener, error) {
	ln, err := net.Listen("tcp", LoopbackDefault(addr))
	if err != nil {
		return nil, err
	}
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		fmt.Fprintf(log, "evgrep: warning: the MCP server on %s is reachable from other machines, and whoever connects can read the files under %s\n", ln.Addr(), cwd)
	}
	fmt.Fprintf(log, "evgrep MCP server on http://%s/\n", ln.Addr())
	return ln, nil
}

// newHTTPServer returns the http.Server of h with its timeouts: headers
// and bodies must arrive within read (the handler lifts the deadline once
// the body is read), and a keep-alive connection is closed after idle
// without a request.
func newHTTPServer(h http.Handler, read, idle time.Duration) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: min(read, readHeaderTimeout), ReadTimeout: read, IdleTimeout: idle}
}

// LoopbackDefault binds host-less addresses to the loopback interface.
func LoopbackDefault(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		// "8080"
		return net.JoinHostPort("127.0.0.1", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// Handler returns the streamable HTTP handler: the SDK's, behind the
// checks of httpHandler.
func Handler(cwd string, opts Options) http.Handler {
	return newHTTPHandler(newServer(cwd), opts)
}

// httpHandler checks each request before the SDK's handler sees it:
//   - Host must name the address the connection came to (an IP literal, or
//     localhost on loopback), with its port: a page of a foreign name that
//     resolves to this machine (DNS rebinding) is refused with 403;
//   - an Origin must be one of Options.AllowOrigins (403), whose CORS
//     preflights are answered here;
//   - a POST body must be application/json (415), at most maxMessageBytes
//     (413), read within readTimeout; a batch is refused with a JSON-RPC
//     error unless the protocol version has batches and it holds at most
//     maxBatch messages;
//   - a new session past maxSessions evicts the least recently used idle
//     one, or is refused with 503 when all are in use.
type httpHandler struct {
	srv     *server
	sdk     *mcp.StreamableHTTPHandler
	origins map[string]bool
	now     func() time.Time // time.Now; tests move it

	bodies  bodySlots
	mu      sync.Mutex
	live    map[string]*httpSession // by session id
	pending int                     // new sessions being made
}

// httpSession is what admission knows of a live session.
type httpSession struct {
	inFlight int
	lastUsed time.Time
}

func newHTTPHandler(srv *server, opts Options) *httpHandler {
	h := &httpHandler{
		srv:     srv,
		origins: map[string]bool{},
		now:     time.Now,
		live:    map[string]*httpSession{},
		bodies:  newBodySlots(),
	}
	for _, o := range opts.AllowOrigins {
		h.origins[o] = true
	}
	h.sdk = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv.mcp }, &mcp.StreamableHTTPOptions{
		SessionTimeout:      srv.idle,
		MaxRequestBodyBytes: maxMessageBytes,
	})
	return h
}

func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w = &boundedWriter{ResponseWriter: w}
	if !h.hostAllowed(r) {
		http.Error(w, fmt.Sprintf("forbidden: Host %q is not the address of this server", r.Host), http.StatusForbidden)
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		if !h.origins[origin] {
			http.Error(w, "forbidden: origin "+origin+" is not allowed (evgrep --mcp-allow-origin)", http.StatusForbidden)
			return
		}
		hd := w.Header()
		hd.Set("Access-Control-Allow-Origin", origin)
		hd.Add("Vary", "Origin")
		hd.Set("Access-Control-Expose-Headers", sessionHeader+", "+protocolHeader)
		if r.Method == http.MethodOptions {
			hd.Set("Access-Control-Allow-Methods", "GET, POST, DELETE")
			hd.Set("Access-Control-Allow-Headers", "Content-Type, Accept, Authorization, Last-Event-ID, "+sessionHeader+", "+protocolHeader)
			hd.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	rc := http.NewResponseController(w)
	if r.Method == http.MethodPost {
		if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
			http.Error(w, "unsupported media type: a request is application/json", http.StatusUnsupportedMediaType)
			return
		}
		release, ok := h.bodies.take(w, r)
		if !ok {
			return
		}
		defer release()
		body, err := readBody(w, r)
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				http.Error(w, fmt.Sprintf("request body larger than %d bytes", maxMessageBytes), http.StatusRequestEntityTooLarge)
				return
			}
			http.Error(w, "bad request: "+err.Error(), http.StatusBadRequest)
			return
		}
		reason := batchRefusal(body, r.Header.Get(protocolHeader))
		if reason == "" && len(body) > maxIDBytes && longIDIn(body) {
			reason = errIDTooLong
		}
		if reason != "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write(errorReply(nullID, jsonrpc.CodeInvalidRequest, reason))
			return
		}
		r.Body = &slotBody{r: bytes.NewReader(body), release: release}
	}
	// The request is read: a long answer (or an SSE stream) is not cut by
	// the read deadline.
	rc.SetReadDeadline(time.Time{})

	id := r.Header.Get(sessionHeader)
	if id == "" && r.Method == http.MethodPost {
		if !h.admit(w) {
			return
		}
		defer h.admitted(w)
	} else if id != "" {
		h.mu.Lock()
		hs := h.live[id]
		if hs != nil {
			hs.inFlight++
			hs.lastUsed = h.now()
		}
		h.mu.Unlock()
		if hs != nil {
			defer func() {
				h.mu.Lock()
				hs.inFlight--
				hs.lastUsed = h.now()
				h.mu.Unlock()
			}()
		}
	}
	h.sdk.ServeHTTP(w, r)
}

// admit reserves room for a new session: when maxSessions are live it
// closes the least recently used one that is idle (no request in flight,
// none within sessionBusyWindow), and answers 503 when there is none.
func (h *httpHandler) admit(w http.ResponseWriter) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pruneLocked()
	if len(h.live)+h.pending >= maxSessions {
		now := h.now()
		victim := ""
		for id, hs := range h.live {
			if hs.inFlight > 0 || now.Sub(hs.lastUsed) < sessionBusyWindow {
				continue
			}
			if victim == "" || hs.lastUsed.Before(h.live[victim].lastUsed) {
				victim = id
			}
		}
		if victim == "" {
			w.Header().Set("Retry-After", strconv.Itoa(int(sessionBusyWindow/time.Second)))
			http.Error(w, fmt.Sprintf("service unavailable: %d sessions are in use", maxSessions), http.StatusServiceUnavailable)
			return false
		}
		delete(h.live, victim)
		for ss := range h.srv.mcp.Sessions() {
			if ss.ID() == victim {
				go ss.Close()
			}
		}
	}
	h.pending++
	return true
}

// admitted records the session the SDK made for the request, if any.
func (h *httpHandler) admitted(w http.ResponseWriter) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pending--
	if id := w.Header().Get(sessionHeader); id != "" {
		h.live[id] = &httpSession{lastUsed: h.now()}
		h.pruneLocked()
	}
}

// pruneLocked forgets sessions the SDK has closed (idle timeout, DELETE,
// a failed initialize); h.mu must be held.
func (h *httpHandler) pruneLocked() {
	open := map[string]bool{}
	for ss := range h.srv.mcp.Sessions() {
		open[ss.ID()] = true
	}
	for id := range h.live {
		if !open[id] {
			delete(h.live, id)
		}
	}
}

// hostAllowed reports whether the Host header names the address the
// request came to: "localhost" or a loopback IP when that is loopback,
// else that IP, with the port of the connection (when known).
func (h *httpHandler) hostAllowed(r *http.Request) bool {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = strings.TrimSuffix(strings.TrimPrefix(r.Host, "["), "]"), "80"
	}
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	tcp, _ := local.(*net.TCPAddr)
	if tcp != nil && port != strconv.Itoa(tcp.Port) {
		return false
	}
	loopback := tcp == nil || tcp.IP.IsLoopback()
	if strings.EqualFold(host, "localhost") {
		return loopback
	}
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return false // a name: what DNS rebinding sends
	case tcp == nil:
		return true
	case loopback:
		return ip.IsLoopback()
	}
	return ip.Equal(tcp.IP)
}

// batchRefusal says why a POST body that is a batch is refused ("" when
// it is not a batch or is served): only the protocol versions 2024-11-05
// and 2025-03-26 have batches (an absent version header means 2025-03-26),
// and then with at most maxBatch messages.
func batchRefusal(body []byte, version string) string {
	b := bytes.TrimSpace(body)
	if len(b) == 0 || b[0] != '[' {
		return ""
	}
	if version == "" {
		version = "2025-03-26"
	}
	var batch []json.RawMessage
	if json.Unmarshal(b, &batch) != nil {
		return "" // not JSON: the SDK answers it
	}
	return refuseBatch(len(batch), version)
}
