// Package mcpserver serves evgrep's agent tool over the Model Context
// Protocol: over stdio (evgrep --mcp) or over streamable HTTP bound to
// loopback by default (evgrep --mcp-http ADDR). Every MCP session has its
// own in-memory snapshots and cursors.
//
// The server is hand-written on the standard library (encoding/json,
// net/http): JSON-RPC 2.0 with batches, initialize with version
// negotiation, ping, tools/list and tools/call of the one tool "search",
// which is agent.HandleJSON. It replaced the official Go SDK because evgrep
// is one binary: the SDK and what it imports (JSON Schema, an alternative
// JSON encoder, gob, slog, oauth2, ...) ran their package initialisation on
// every plain `evgrep PATTERN` search and cost about 2 MB of its peak RSS.
// The SDK remains the reference client of the tests (test-only imports are
// not linked into the binary): they drive this server with it over stdio
// and streamable HTTP, beside raw protocol cases.
package mcpserver

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"
)

// ToolName is the name of the search tool.
const ToolName = "search"

// Version is reported to clients.
const Version = "0.1.0"

// Limits of the server.
const (
	// maxSessions bounds the live streamable HTTP sessions; a new one
	// evicts the least recently used when full.
	maxSessions = 64
	// sessionIdle is how long an unused HTTP session lives.
	sessionIdle = 10 * time.Minute
	// maxBodyBytes bounds one HTTP request body (413 beyond).
	maxBodyBytes = 4 << 20
	// maxStdioInFlight bounds the stdio requests answered at once (a long
	// search does not hold up a ping, and a flood does not fork a
	// goroutine per line).
	maxStdioInFlight = 4
	// readHeaderTimeout bounds how long an HTTP client may take to send
	// its request headers.
	readHeaderTimeout = 10 * time.Second
)

const toolDescription = `Search a source tree with ripgrep's regex syntax and get bounded, exact evidence.
The answer starts with a status line (exact totals of matching lines, occurrences and files; complete or partial),
then either a count-ranked file summary with real sample lines, or numbered match lines
"path:line:columns {match #N}  text" (columns are 1-based UTF-16, "b" = bytes for non-UTF-8 lines).
Page with the returned cursor (it never re-runs the search). mode: auto (default), summary, matches.
Use paths/glob/exclude to narrow; context (0-20) adds verified source lines around each match.
mode inspect shows the whole enclosing declaration (function, method, class...) of a line:
{path,line}, {cursor,matchIndex}, {cursor,matchIndices:[1-5]} or {targets:[{path,line}...]} (1-5);
long source continues with the returned cursor. mode outline lists the declarations of files under path/paths.`

// ServeStdio serves one session over the given streams: newline-delimited
// JSON-RPC messages (or batches) in, one reply per line out. It returns nil
// at the end of in, once every request read has been answered, or the
// first error writing out.
func ServeStdio(in io.ReadCloser, out io.Writer, cwd string) error {
	s := newSession(cwd)
	r := bufio.NewReaderSize(in, 64<<10)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex // serialises writes to out and guards werr
		werr     error
		inFlight = make(chan struct{}, maxStdioInFlight)
	)
	write := func(reply []byte) {
		mu.Lock()
		defer mu.Unlock()
		if werr == nil {
			_, werr = out.Write(append(reply, '\n'))
		}
	}
	failed := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return werr != nil
	}
	for !failed() {
		line, rerr := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			inFlight <- struct{}{}
			wg.Add(1)
			go func() {
				defer func() { <-inFlight; wg.Done() }()
				if reply := s.process(line); reply != nil {
					write(reply)
				}
			}()
		}
		if rerr != nil {
			break // io.EOF, or a read error: the client is gone either way
		}
	}
	wg.Wait()
	return werr
}

// ServeHTTP serves streamable HTTP on addr; an address without a host
// (":8080" or "8080") binds to 127.0.0.1 only.
func ServeHTTP(addr, cwd string, log io.Writer) error {
	addr = LoopbackDefault(addr)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "evgrep MCP server on http://%s/\n", ln.Addr())
	srv := &http.Server{Handler: Handler(cwd), ReadHeaderTimeout: readHeaderTimeout}
	return srv.Serve(ln)
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
