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

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one session over the given streams: newline-delimited
// JSON-RPC messages in, one reply per line out. It returns nil at the end
// of in, and an error when a line exceeds maxMessageBytes (after telling
// the client so) or out fails.
func ServeStdio(in io.ReadCloser, out io.Writer, cwd string) error {
	return newServer(cwd).serveStdio(context.Background(), in, out)
}

func (s *server) serveStdio(ctx context.Context, in io.ReadCloser, out io.Writer) error {
	w := &lineWriter{w: out}
	f := &framer{in: in, r: bufio.NewReaderSize(in, 64<<10), out: w}
	ss, err := s.mcp.Connect(ctx, &mcp.IOTransport{Reader: f, Writer: w, MaxLineLength: maxMessageBytes + 1}, nil)
	if err != nil {
		return err
	}
	f.setSession(ss)
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
// newline) between the SDK and the framer, and remembers the first error.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.w.Write(p)
	if err != nil {
		w.err = err
	}
	return n, err
}

// Close implements io.Closer; the caller owns out.
func (w *lineWriter) Close() error { return nil }

func (w *lineWriter) failed() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// errMessageTooLarge ends a stdio session whose line passes the cap.
var errMessageTooLarge = fmt.Errorf("mcp: a message is longer than %d bytes (no newline within the limit): session ended", maxMessageBytes)

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
	session *mcp.ServerSession
	tooLong bool
}

func (f *framer) setSession(ss *mcp.ServerSession) {
	f.mu.Lock()
	f.session = ss
	f.mu.Unlock()
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
		if reason := f.batchRefusal(msg); reason != "" {
			f.reply(nullID, jsonrpc.CodeInvalidRequest, reason)
			return nil
		}
		return append(msg, '\n')
	}
	if _, err := jsonrpc.DecodeMessage(msg); err != nil {
		f.reply(idOf(msg), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
		return nil
	}
	return append(msg, '\n')
}

// batchRefusal says why a batch is not passed on, "" when it is.
func (f *framer) batchRefusal(msg []byte) string {
	var batch []json.RawMessage
	if err := json.Unmarshal(msg, &batch); err != nil {
		return "invalid request: " + err.Error()
	}
	f.mu.Lock()
	ss := f.session
	f.mu.Unlock()
	version := ""
	if ss != nil {
		if p := ss.InitializeParams(); p != nil {
			version = p.ProtocolVersion
		}
	}
	switch {
	case version != "2024-11-05" && version != "2025-03-26":
		return "invalid request: JSON-RPC batches are not part of this session's MCP protocol version; send one message a line"
	case len(batch) == 0:
		return "invalid request: empty batch"
	case len(batch) > maxBatch:
		return fmt.Sprintf("invalid request: a batch holds at most %d messages (this one %d)", maxBatch, len(batch))
	}
	for _, m := range batch {
		if _, err := jsonrpc.DecodeMessage(m); err != nil {
			return "invalid request in the batch: " + err.Error()
		}
	}
	return ""
}

// nullID is the id of a reply to a message whose id is unknown.
var nullID = json.RawMessage("null")

// idOf returns the id of a malformed message when it is a string or a
// number, else null.
func idOf(msg []byte) json.RawMessage {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(msg, &m) == nil && len(m.ID) > 0 && (m.ID[0] == '"' || m.ID[0] == '-' || m.ID[0] >= '0' && m.ID[0] <= '9') {
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
