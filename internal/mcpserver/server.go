// Package mcpserver serves evgrep's agent tool over the Model Context
// Protocol with the official Go SDK (github.com/modelcontextprotocol/go-sdk):
// over stdio (evgrep --mcp) or over streamable HTTP bound to loopback by
// default (evgrep --mcp-http ADDR). The one tool, "search", is
// agent.Handle. Every MCP session has its own in-memory snapshots and
// cursors; the bounds that hold over all sessions (searches at once,
// snapshot memory, live HTTP sessions, message sizes, timeouts) are in
// limits.go.
//
// The SDK does the protocol (initialize and version negotiation, ping,
// tools/list, tools/call, cancellation, progress, sessions). This package
// adds what a server facing untrusted input needs around it: the stdio
// framing (bounded lines, a JSON-RPC error instead of a dropped session
// for a malformed line or a batch) in stdio.go, and the HTTP checks (Host,
// Origin, Content-Type, batches, session admission, timeouts) in http.go.
package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/evgrep/evgrep/internal/progress"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolName is the name of the search tool.
const ToolName = "search"

// Version is reported to clients as the server's version: the binary
// sets it to its own (internal/app.Version) before serving.
var Version = "0.1.0"

// server is the MCP server of one process: the SDK server with the search
// tool, and the state of its sessions.
type server struct {
	mcp *mcp.Server
	cwd string
	now func() time.Time
	// call answers a tool call (agent.HandleJSON; tests replace it).
	call func(ctx context.Context, data []byte, env agent.Env) *agent.Answer
	// budget is the snapshot memory of all sessions (snapshotBudget).
	budget int64
	// drain is how long the end of stdin waits for answers (stdioDrain).
	drain time.Duration
	// idle is how long an HTTP session lives unused (sessionIdle).
	idle time.Duration

	slots   chan struct{} // maxSearches
	waiting atomic.Int64  // calls running or waiting for a slot

	mu       sync.Mutex
	sessions map[*mcp.ServerSession]*session
}

// session is the state of one MCP session.
type session struct {
	store *snapshot.Store
	// inFlight and lastUsed are guarded by server.mu.
	inFlight int
	lastUsed time.Time
}

func newServer(cwd string) *server {
	s := &server{
		cwd:      cwd,
		now:      time.Now,
		call:     agent.HandleJSON,
		budget:   snapshotBudget,
		drain:    stdioDrain,
		idle:     sessionIdle,
		slots:    make(chan struct{}, maxSearches),
		sessions: map[*mcp.ServerSession]*session{},
	}
	s.mcp = mcp.NewServer(&mcp.Implementation{Name: "evgrep", Version: Version}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: false}},
	})
	s.mcp.AddTool(searchTool(), s.handle)
	return s
}

// session returns the state of ss, made on first use and dropped when ss
// ends.
func (s *server) session(ss *mcp.ServerSession) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.sessions[ss]
	if st == nil {
		st = &session{store: snapshot.NewMemoryStore(), lastUsed: s.now()}
		s.sessions[ss] = st
		go func() {
			ss.Wait()
			s.mu.Lock()
			delete(s.sessions, ss)
			s.mu.Unlock()
		}()
	}
	return st
}

// codeBusy is the error code of a call past maxSearches +
// maxQueuedSearches.
const codeBusy = "E_SERVER_BUSY"

// busy is the answer to such a call, in the agent's error form.
func busy() *mcp.CallToolResult {
	msg := fmt.Sprintf("%d searches are running and %d waiting: retry later", maxSearches, maxQueuedSearches)
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: "evgrep error " + codeBusy + ": " + msg + "\n"}},
		StructuredContent: agent.Details{Status: "error", Error: &agent.ErrorJSON{Code: codeBusy, Message: msg}},
		IsError:           true,
	}
}

// handle answers tools/call of the search tool. The walk stops when the
// request is cancelled, and reports progress when the client gave a
// progressToken.
func (s *server) handle(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
	st := s.session(req.Session)
	s.mu.Lock()
	st.inFlight++
	st.lastUsed = s.now()
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		st.inFlight--
		st.lastUsed = s.now()
		s.mu.Unlock()
	}()

	if s.waiting.Add(1) > maxQueuedSearches+maxSearches {
		s.waiting.Add(-1)
		return busy(), nil
	}
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		s.waiting.Add(-1)
		return nil, ctx.Err()
	}
	defer func() { <-s.slots; s.waiting.Add(-1) }()
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("internal error: %v", p)}
		}
	}()

	args := []byte(req.Params.Arguments)
	if len(args) == 0 || string(args) == "null" {
		args = []byte("{}")
	}
	env := agent.Env{Store: st.store, Cwd: s.cwd}
	actx := ctx
	if token := req.Params.GetProgressToken(); token != nil {
		actx = progress.WithReporter(ctx, notifier(ctx, req.Session, token))
	}
	ans := s.call(actx, args, env)
	s.enforceBudget(st)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: ans.Text}},
		StructuredContent: ans.Details,
		IsError:           ans.Failed,
	}, nil
}

// notifier returns a progress.Reporter that sends notifications/progress
// for token, each with a greater count than the last (the walk calls it
// from several goroutines).
func notifier(ctx context.Context, ss *mcp.ServerSession, token any) progress.Reporter {
	var mu sync.Mutex
	last := 0
	return func(files int) {
		mu.Lock()
		defer mu.Unlock()
		if files <= last {
			return
		}
		last = files
		ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
			ProgressToken: token,
			Progress:      float64(files),
			Message:       fmt.Sprintf("%d files searched", files),
		})
	}
}

// enforceBudget drops snapshots until all sessions together keep at most
// s.budget bytes: always the least recently used snapshot of a session
// other than cur that has no call in flight, and only when there is none
// those of busy sessions and of cur (cur's newest, just made, is last of
// all since it was used last).
func (s *server) enforceBudget(cur *session) {
	s.mu.Lock()
	all := make([]*session, 0, len(s.sessions)+1)
	idle := map[*session]bool{}
	seen := false
	for _, st := range s.sessions {
		all = append(all, st)
		idle[st] = st != cur && st.inFlight == 0
		seen = seen || st == cur
	}
	if !seen {
		all = append(all, cur) // ended while answering
	}
	s.mu.Unlock()

	total := int64(0)
	for _, st := range all {
		total += st.store.MemoryBytes()
	}
	for total > s.budget {
		var victim *session
		var vUsed time.Time
		for _, st := range all {
			used, ok := st.store.Oldest()
			if !ok {
				continue
			}
			if victim == nil || idle[st] && !idle[victim] || idle[st] == idle[victim] && used.Before(vUsed) {
				victim, vUsed = st, used
			}
		}
		if victim == nil {
			return
		}
		freed := victim.store.EvictOldest()
		if freed == 0 {
			return
		}
		total -= freed
	}
}
