package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// endless reads as n bytes of 'a' without a newline, counting what was
// read.
type endless struct {
	n, read int64
}

func (e *endless) Read(p []byte) (int, error) {
	if e.read >= e.n {
		return 0, io.EOF
	}
	k := min(int64(len(p)), e.n-e.read)
	for i := range p[:k] {
		p[i] = 'a'
	}
	e.read += k
	return int(k), nil
}

func (e *endless) Close() error { return nil }

// TestStdioMessageBound: a 100 MB line without a newline ends the session
// with an error once maxMessageBytes are read; the rest is never read (nor
// buffered), and the client is told why.
func TestStdioMessageBound(t *testing.T) {
	in := &endless{n: 100 << 20}
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- ServeStdio(in, &out, t.TempDir()) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("ServeStdio hangs on a 100 MB line")
	}
	if !errors.Is(err, errMessageTooLarge) {
		t.Fatalf("ServeStdio = %v, want %v", err, errMessageTooLarge)
	}
	if in.read > maxMessageBytes+128<<10 {
		t.Fatalf("read %d bytes of the line, cap %d", in.read, maxMessageBytes)
	}
	checkReply(t, bytes.TrimSpace(out.Bytes()), want{id: "null", code: -32600})
}

// TestPingWhileSearching: with 8 searches that do not end (until the
// test lets them), ping over stdio is still answered, at most maxSearches searches run at a time, and the
// calls past maxSearches+maxQueuedSearches are refused as busy.
func TestPingWhileSearching(t *testing.T) {
	s := newServer(testTree(t))
	release := make(chan struct{})
	var running, peak atomic.Int64
	s.call = func(ctx context.Context, data []byte, env agent.Env) *agent.Answer {
		n := running.Add(1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		<-release
		running.Add(-1)
		return agent.HandleJSON(ctx, data, env)
	}
	cs := connectStdio(t, s)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolName, Arguments: map[string]any{"pattern": "needle"}})
		}()
	}
	for running.Load() < maxSearches {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatalf("ping while 8 searches run: %v", err)
	}
	// Fill the queue: the next call is refused at once.
	for i := 8; i < maxSearches+maxQueuedSearches; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolName, Arguments: map[string]any{"pattern": "needle"}})
		}()
	}
	for s.waiting.Load() < maxSearches+maxQueuedSearches && ctx.Err() == nil {
		time.Sleep(time.Millisecond)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolName, Arguments: map[string]any{"pattern": "needle"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, codeBusy) || res.StructuredContent == nil {
		t.Fatalf("call past the queue: %+v %v", res, err)
	}
	close(release)
	wg.Wait()
	if p := peak.Load(); p > maxSearches {
		t.Fatalf("%d searches ran at once, bound %d", p, maxSearches)
	}
}

// connect opens an SDK client session to s over in-memory transports.
func connect(t *testing.T, s *server, opts ...*mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.mcp.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	var o *mcp.ClientOptions
	if len(opts) > 0 {
		o = opts[0]
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, o).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// connectStdio opens an SDK client session to s over stdio (two pipes
// and the framer).
func connectStdio(t *testing.T, s *server) *mcp.ClientSession {
	t.Helper()
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.serveStdio(context.Background(), toServerR, fromServerW)
		fromServerW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: fromServerR, Writer: toServerW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); <-done })
	return cs
}

// search calls the tool in cs and returns the details.
func search(t *testing.T, cs *mcp.ClientSession, args map[string]any) details {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: ToolName, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	var d details
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &d)
	return d
}

// TestSnapshotBudget: the snapshots of all sessions together stay within
// the budget; what goes first is the oldest snapshot of a session with no
// call in flight, and the newest snapshot of the calling session stays.
func TestSnapshotBudget(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 40; i++ {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%02d.txt", i)), bytes.Repeat([]byte("needle "+strings.Repeat("x", 1000)+"\n"), 50), 0o644)
	}
	s := newServer(root)
	a, b := connect(t, s), connect(t, s)
	args := map[string]any{"pattern": "needle", "mode": "matches", "limit": 1}
	first := search(t, a, args)
	one := s.totalSnapshotBytes()
	if first.Cursor == "" || one < 2000*1000 {
		t.Fatalf("first search: cursor %q, %d bytes kept", first.Cursor, one)
	}
	s.budget = 3*one + one/2 // room for three snapshots
	var cursors []string
	for i := 0; i < 3; i++ {
		cursors = append(cursors, search(t, b, args).Cursor)
		if n := s.totalSnapshotBytes(); n > s.budget {
			t.Fatalf("after search %d of B: %d bytes kept, budget %d", i+1, n, s.budget)
		}
	}
	// Four snapshots did not fit: A's (idle, and the oldest) went first.
	if d := search(t, a, map[string]any{"cursor": first.Cursor}); d.Error == nil || d.Error.Code != "E_CURSOR_EXPIRED" {
		t.Fatalf("A's cursor after B filled the budget: %+v", d)
	}
	for i, c := range cursors {
		if d := search(t, b, map[string]any{"cursor": c}); d.Error != nil {
			t.Fatalf("B's cursor %d: %+v", i, d.Error)
		}
	}
	// Now B's oldest goes for a new search of A.
	fresh := search(t, a, args)
	if n := s.totalSnapshotBytes(); n > s.budget {
		t.Fatalf("%d bytes kept, budget %d", n, s.budget)
	}
	if d := search(t, a, map[string]any{"cursor": fresh.Cursor}); d.Error != nil {
		t.Fatalf("the caller's new snapshot was evicted: %+v", d.Error)
	}
}

// totalSnapshotBytes is the snapshot memory of all sessions.
func (s *server) totalSnapshotBytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := int64(0)
	for _, st := range s.sessions {
		n += st.store.MemoryBytes()
	}
	return n
}

// TestProgressAndCancel: a search with a progressToken sends progress
// notifications; cancelling it stops the walk (the search ends with
// E_CANCELLED well before the last file).
func TestProgressAndCancel(t *testing.T) {
	const nFiles = 8 * agent.ProgressEvery
	root := t.TempDir()
	for i := 0; i < nFiles; i++ {
		dir := filepath.Join(root, fmt.Sprintf("d%d", i%16))
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d.txt", i)), []byte("needle\n"), 0o644)
	}
	s := newServer(root)
	answers := make(chan *agent.Answer, 2)
	s.call = func(ctx context.Context, data []byte, env agent.Env) *agent.Answer {
		a := agent.HandleJSON(ctx, data, env)
		answers <- a
		return a
	}
	var mu sync.Mutex
	var progress []float64
	cancelOnFirst := func() {}
	cs := connect(t, s, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
		mu.Lock()
		progress = append(progress, req.Params.Progress)
		cancel := cancelOnFirst
		mu.Unlock()
		cancel()
	}})

	// With a token, the whole search reports progress, increasing.
	params := &mcp.CallToolParams{Name: ToolName, Arguments: map[string]any{"pattern": "needle", "mode": "summary"}}
	params.SetProgressToken("p1")
	res, err := cs.CallTool(context.Background(), params)
	if err != nil || res.IsError {
		t.Fatalf("search: %+v %v", res, err)
	}
	<-answers
	mu.Lock()
	got := append([]float64(nil), progress...)
	progress = nil
	mu.Unlock()
	if len(got) < 2 {
		t.Fatalf("progress notifications %v for %d files", got, nFiles)
	}
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			t.Fatalf("progress does not increase: %v", got)
		}
	}

	// Cancelled at its first progress notification, the walk stops.
	ctx, cancel := context.WithCancel(context.Background())
	mu.Lock()
	cancelOnFirst = cancel
	mu.Unlock()
	params.SetProgressToken("p2")
	if _, err := cs.CallTool(ctx, params); err == nil {
		t.Fatal("a cancelled call returned no error")
	}
	select {
	case a := <-answers:
		if a.Details.Error == nil || a.Details.Error.Code != agent.CodeCancelled {
			t.Fatalf("cancelled search answered %.200s", a.Text)
		}
		var n int
		fmt.Sscanf(a.Details.Error.Message, "the search was cancelled after %d files", &n)
		if n == 0 || n >= nFiles {
			t.Fatalf("cancelled after %d of %d files: %s", n, nFiles, a.Details.Error.Message)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the cancelled search did not end")
	}
}

// TestHTTPProgress: over streamable HTTP the progress notifications of a
// call reach the SDK client too (on the call's own event stream).
func TestHTTPProgress(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 3*agent.ProgressEvery; i++ {
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%04d.txt", i)), []byte("needle\n"), 0o644)
	}
	srv := httptest.NewServer(Handler(root, Options{}))
	defer srv.Close()
	var got atomic.Int64
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { got.Add(1) },
	})
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: ToolName, Arguments: map[string]any{"pattern": "needle", "mode": "summary"}}
	params.SetProgressToken(1)
	if res, err := cs.CallTool(context.Background(), params); err != nil || res.IsError {
		t.Fatalf("search: %+v %v", res, err)
	}
	if got.Load() == 0 {
		t.Fatal("no progress notification over HTTP")
	}
}
