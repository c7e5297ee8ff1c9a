package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one session over the given streams: newline-delimited
// JSON-RPC messages in, one reply per line out. At the end of in it waits
// for the answers to the requests read (at most stdioDrain, then cancels
// the rest) and returns nil; it returns an error when a line exceeds
// maxMessageBytes (after telling the client so) or out fails.
func ServeStdio(in io.ReadCloser, out io.Writer, cwd string) error {
	return newServer(cwd).serveStdio(context.Background(), in, out)
}

func (s *server) serveStdio(ctx context.Context, in io.ReadCloser, out io.Writer) error {
	f := &framer{in: in, r: bufio.NewReaderSize(in, 64<<10), open: map[string]bool{}, wait: s.drain}
	w := &lineWriter{w: out, sent: f.answered}
	f.out = w
	f.cond = sync.NewCond(&f.mu)
	ss, err := s.mcp.Connect(ctx, &mcp.IOTransport{Reader: f, Writer: w, MaxLineLength: maxMessageBytes + 1}, nil)
	if err != nil {
		return err
	}
	err = ss.Wait()
	if werr := w.failed(); werr != nil {
		return werr
	}
	if ferr := f.fatal(); ferr != nil {
		return ferr
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		return nil
	}
	return err
}

// lineWriter serialises whole writes to out (each is one message and its
// newline) between the SDK and the framer, bounds the errors among them
// (boundReply), remembers the first error, and tells sent the ids of the
// responses written (nil after a failure).
type lineWriter struct {
	mu   sync.Mutex
	w    io.Writer
	err  error
	sent func(ids []string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	q := boundReply(p)
	if _, err := w.w.Write(q); err != nil {
		w.err = err
		w.sent(nil)
		return 0, err
	}
	w.sent(responseIDs(q))
	return len(p), nil
}

// responseIDs returns the ids of the responses in one written message (or
// batch).
func responseIDs(p []byte) []string {
	type msg struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	var ms []msg
	if b := bytes.TrimSpace(p); len(b) > 0 && b[0] == '[' {
		json.Unmarshal(b, &ms)
	} else {
		var m msg
		if json.Unmarshal(b, &m) == nil {
			ms = append(ms, m)
		}
	}
	var ids []string
	for _, m := range ms {
		if m.Method == nil && len(m.ID) > 0 {
			ids = append(ids, string(m.ID))
		}
	}
	return ids
}

// Close implements io.Closer; the caller owns out.
func (w *lineWriter) Close() error { return nil }

func (w *lineWriter) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// errMessageTooLarge ends a stdio session whose line passes the cap.
var errMessageTooLarge = fmt.Errorf("evgrep: an MCP message is longer than %d bytes (no newline within the limit): session ended", maxMessageBytes)

// framer is the reader the SDK reads stdin through. It reads one line at a
// time, never holding more than maxMessageBytes of it, and answers itself
// what would otherwise end the SDK's session: a line that is not JSON
// (-32700), not a JSON-RPC message (-32600), or a batch, which only the
// protocol versions 2024-11-05 and 2025-03-26 have and then with at most
// maxBatch messages (-32600 otherwise). Blank lines are skipped. The lines
// it passes on reach the SDK unchanged.
type framer struct {
	in  io.Closer
	r   *bufio.Reader
	out io.Writer

	pending []byte // the rest of the line being passed on
	err     error  // the read error to return once pending is drained

	mu      sync.Mutex
	cond    *sync.Cond // on mu: open changed, or out failed
	tooLong bool
	// version is what the client's initialize asked for; the server
	// answers it when it has it, and batches need one that it has.
	version string
	// open are the ids of the requests passed on and not answered yet: at
	// the end of input the framer waits for their answers before the SDK
	// sees the end (which would cancel them).
	open   map[string]bool
	failed bool
	wait   time.Duration // how long drain waits
	gaveUp bool          // drain waited that long
}

// answered notes responses written (ids nil: out failed).
func (f *framer) answered(ids []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if ids == nil {
		f.failed = true
	}
	for _, id := range ids {
		delete(f.open, id)
	}
	f.cond.Broadcast()
}

// passOn notes the requests of a line passed on to the SDK.
func (f *framer) passOn(msgs ...jsonrpc.Message) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range msgs {
		if r, ok := m.(*jsonrpc.Request); ok && r.IsCall() {
			id, _ := json.Marshal(r.ID.Raw())
			f.open[string(id)] = true
		}
	}
}

// drain waits until every request passed on is answered, out failed, or
// f.wait has passed.
func (f *framer) drain() {
	timer := time.AfterFunc(f.wait, func() {
		f.mu.Lock()
		f.gaveUp = true
		f.cond.Broadcast()
		f.mu.Unlock()
	})
	defer timer.Stop()
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.open) > 0 && !f.failed && !f.gaveUp {
		f.cond.Wait()
	}
}

// fatal returns errMessageTooLarge if that ended the session.
func (f *framer) fatal() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.tooLong {
		return errMessageTooLarge
	}
	return nil
}

// Read implements io.Reader (the SDK reads from one goroutine).
func (f *framer) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			f.drain()
			return 0, f.err
		}
		line, err := f.readLine()
		if err != nil {
			f.err = err
		}
		f.pending = f.filter(line)
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// Close implements io.Closer.
func (f *framer) Close() error { return f.in.Close() }

// readLine returns the next line with its newline (none at the end of
// input); past maxMessageBytes it stops reading and fails.
func (f *framer) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := f.r.ReadSlice('\n')
		if len(line)+len(chunk) > maxMessageBytes {
			f.mu.Lock()
			f.tooLong = true
			f.mu.Unlock()
			f.reply(nullID, jsonrpc.CodeInvalidRequest, errMessageTooLarge.Error())
			return nil, errMessageTooLarge
		}
		line = append(line, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}

// filter returns the line to pass on to the SDK (newline-terminated), or
// nil when the line was blank or answered here.
func (f *framer) filter(line []byte) []byte {
	msg := bytes.TrimSpace(line)
	if len(msg) == 0 {
		return nil
	}
	if !json.Valid(msg) {
		f.reply(nullID, jsonrpc.CodeParseError, "parse error: the line is not valid JSON")
		return nil
	}
	if msg[0] == '[' {
		msgs, reason := f.batch(msg)
		if reason != "" {
			f.reply(nullID, jsonrpc.CodeInvalidRequest, reason)
			return nil
		}
		f.passOn(msgs...)
		return append(msg, '\n')
	}
	m, err := jsonrpc.DecodeMessage(msg)
	if err != nil {
		f.reply(idOf(msg), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	json.Unmarshal(msg, &probe)
	if string(probe.ID) == "null" {
		f.reply(nullID, jsonrpc.CodeInvalidRequest, "invalid request: an id is a string or a number, never null")
		return nil
	}
	if len(probe.ID) > maxIDBytes {
		f.reply(nullID, jsonrpc.CodeInvalidRequest, errIDTooLong)
		return nil
	}
	if r, ok := m.(*jsonrpc.Request); ok && r.Method == "initialize" {
		f.mu.Lock()
		f.version = probe.Params.ProtocolVersion
		f.mu.Unlock()
	}
	f.passOn(m)
	return append(msg, '\n')
}

// batch returns the messages of a batch to pass on, or why it is refused.
func (f *framer) batch(msg []byte) ([]jsonrpc.Message, string) {
	var batch []json.RawMessage
	if err := json.Unmarshal(msg, &batch); err != nil {
		return nil, "invalid request: " + err.Error()
	}
	f.mu.Lock()
	version := f.version
	f.mu.Unlock()
	if reason := refuseBatch(len(batch), version); reason != "" {
		return nil, reason
	}
	if longID(batch...) {
		return nil, errIDTooLong
	}
	msgs := make([]jsonrpc.Message, 0, len(batch))
	for _, m := range batch {
		dm, err := jsonrpc.DecodeMessage(m)
		if err != nil {
			return nil, "invalid request in the batch: " + err.Error()
		}
		msgs = append(msgs, dm)
	}
	return msgs, ""
}

// refuseBatch says why a batch of n messages is refused in a session of
// the given protocol version, "" when it is served: only 2024-11-05 and
// 2025-03-26 have batches, and a batch holds 1 to maxBatch messages.
func refuseBatch(n int, version string) string {
	switch {
	case version != "2024-11-05" && version != "2025-03-26":
		return "invalid request: JSON-RPC batches are not part of MCP " + version + " (none after 2025-03-26); send one message at a time"
	case n == 0:
		return "invalid request: empty batch"
	case n > maxBatch:
		return fmt.Sprintf("invalid request: a batch holds at most %d messages (this one %d)", maxBatch, n)
	}
	return ""
}

// errIDTooLong is the reason a message with an id over maxIDBytes is
// refused: its reply would repeat it.
var errIDTooLong = fmt.Sprintf("invalid request: an id is at most %d bytes of JSON", maxIDBytes)

// longID reports whether one of msgs (JSON-RPC messages) has an id of
// more than maxIDBytes.
func longID(msgs ...json.RawMessage) bool {
	for _, m := range msgs {
		if len(m) <= maxIDBytes {
			continue
		}
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(m, &probe) == nil && len(probe.ID) > maxIDBytes {
			return true
		}
	}
	return false
}

// nullID is the id of a reply to a message whose id is unknown.
var nullID = json.RawMessage("null")

// idOf returns the id of a malformed message when it is a string or a
// number, else null.
func idOf(msg []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &m) == nil && len(m.ID) > 0 && len(m.ID) <= maxIDBytes && (m.ID[0] == '"' || m.ID[0] == '-' || m.ID[0] >= '0' && m.ID[0] <= '9') {
		return m.ID
	}
	return nullID
}

// errorReply is a JSON-RPC error response.
func errorReply(id json.RawMessage, code int, msg string) []byte {
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcError        `json:"error"`
	}{"2.0", id, rpcError{code, msg}})
	return b
}

// reply writes a JSON-RPC error response on its own line.
func (f *framer) reply(id json.RawMessage, code int, msg string) {
	f.out.Write(append(errorReply(id, code, msg), '\n'))
}
