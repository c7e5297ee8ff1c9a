package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/evgrep/evgrep/snapshot"
)

// JSON-RPC 2.0 error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603
)

// Protocol versions this server speaks, newest first. The newest is the one
// the SDK client of the tests falls back to after its server/discover probe
// (a newer, stateless protocol this server does not implement: it answers
// method-not-found, which the client takes as "use initialize").
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// supportedVersion reports whether v is one of protocolVersions.
func supportedVersion(v string) bool {
	for _, s := range protocolVersions {
		if s == v {
			return true
		}
	}
	return false
}

// negotiate answers the client's version when supported, else the newest.
func negotiate(client string) string {
	if supportedVersion(client) {
		return client
	}
	return protocolVersions[0]
}

// session is one MCP session: its own agent environment (snapshots and
// cursors in memory) and the protocol version it negotiated. It is safe for
// concurrent use.
type session struct {
	env agent.Env
	// call answers a tool call (agent.HandleJSON; tests replace it).
	call func(data []byte, env agent.Env) *agent.Answer

	mu      sync.Mutex
	version string // negotiated by initialize, "" before
}

func newSession(cwd string) *session {
	return &session{
		env:  agent.Env{Store: snapshot.NewMemoryStore(), Cwd: cwd},
		call: agent.HandleJSON,
	}
}

// protocolVersion returns the negotiated version, "" before initialize.
func (s *session) protocolVersion() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.version
}

// wireMessage is any JSON-RPC message as decoded; presence of the id is
// told apart from a null id by hasID.
type wireMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

var nullID = json.RawMessage("null")

func errorReply(id json.RawMessage, code int, format string, a ...any) []byte {
	if id == nil {
		id = nullID
	}
	b, _ := json.Marshal(response{JSONRPC: "2.0", ID: id, Error: &rpcError{Code: code, Message: fmt.Sprintf(format, a...)}})
	return b
}

// process answers one transport message: a JSON-RPC message or a batch
// (array) of them. It returns the reply (one message or an array), or nil
// when nothing is to be sent (notifications and responses only). The reply
// never holds a newline: it is one line on stdio.
func (s *session) process(data []byte) []byte {
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		return errorReply(nil, codeParseError, "parse error: the message is not valid JSON")
	}
	if len(data) == 0 || data[0] != '[' {
		return s.one(data)
	}
	var batch []json.RawMessage
	if err := json.Unmarshal(data, &batch); err != nil {
		return errorReply(nil, codeParseError, "parse error: %v", err)
	}
	if len(batch) == 0 {
		// JSON-RPC 2.0: an empty batch is one Invalid Request error.
		return errorReply(nil, codeInvalidRequest, "invalid request: empty batch")
	}
	var replies []json.RawMessage
	for _, m := range batch {
		if r := s.one(m); r != nil {
			replies = append(replies, r)
		}
	}
	if len(replies) == 0 {
		return nil
	}
	b, _ := json.Marshal(replies)
	return b
}

// one answers one JSON-RPC message (valid JSON); nil means no reply.
func (s *session) one(data []byte) (reply []byte) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return errorReply(nil, codeInvalidRequest, "invalid request: a JSON-RPC message is an object")
	}
	var m wireMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return errorReply(nil, codeInvalidRequest, "invalid request: %v", err)
	}
	hasID := m.ID != nil
	if hasID && !validID(m.ID) {
		return errorReply(nil, codeInvalidRequest, "invalid request: id must be a string or a number")
	}
	if m.JSONRPC != "2.0" {
		return errorReply(m.ID, codeInvalidRequest, `invalid request: jsonrpc must be "2.0"`)
	}
	if m.Method == nil {
		if hasID && (m.Result != nil || m.Error != nil) {
			return nil // a response to the client's own requests: this server sends none
		}
		return errorReply(m.ID, codeInvalidRequest, "invalid request: no method")
	}
	if !hasID {
		// A notification (notifications/initialized, notifications/cancelled,
		// ...): never answered. Requests are answered in one call, so there is
		// nothing a cancellation could stop.
		return nil
	}
	defer func() {
		if p := recover(); p != nil {
			reply = errorReply(m.ID, codeInternalError, "internal error: %v", p)
		}
	}()
	result, rerr := s.dispatch(*m.Method, m.Params)
	if rerr != nil {
		return errorReply(m.ID, rerr.Code, "%s", rerr.Message)
	}
	b, err := json.Marshal(response{JSONRPC: "2.0", ID: m.ID, Result: result})
	if err != nil {
		return errorReply(m.ID, codeInternalError, "internal error: %v", err)
	}
	return b
}

// validID accepts a JSON string or number (MCP forbids null ids).
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	c := id[0]
	return c == '"' || c == '-' || (c >= '0' && c <= '9')
}

// dispatch runs one request.
func (s *session) dispatch(method string, params json.RawMessage) (any, *rpcError) {
	switch method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		v := negotiate(p.ProtocolVersion)
		s.mu.Lock()
		s.version = v
		s.mu.Unlock()
		return initializeResult{
			ProtocolVersion: v,
			Capabilities:    capabilities{Tools: toolsCapability{ListChanged: false}},
			ServerInfo:      implementation{Name: "evgrep", Version: Version},
		}, nil
	case "ping":
		return struct{}{}, nil
	case "tools/list":
		return toolList(), nil
	case "tools/call":
		var p struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := decodeParams(params, &p); err != nil {
			return nil, err
		}
		if p.Name != ToolName {
			return nil, &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("unknown tool %q (this server has %q)", p.Name, ToolName)}
		}
		args := p.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = []byte("{}")
		}
		ans := s.call(args, s.env)
		return callToolResult{
			Content:           []textContent{{Type: "text", Text: ans.Text}},
			StructuredContent: ans.Details,
			IsError:           ans.Failed,
		}, nil
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: fmt.Sprintf("method not found: %s", method)}
}

// decodeParams decodes absent or null params as the zero value and an
// object into v; anything else is invalid params.
func decodeParams(params json.RawMessage, v any) *rpcError {
	if len(params) == 0 || string(params) == "null" {
		return nil
	}
	if params[0] != '{' {
		return &rpcError{Code: codeInvalidParams, Message: "invalid params: expected an object"}
	}
	if err := json.Unmarshal(params, v); err != nil {
		return &rpcError{Code: codeInvalidParams, Message: fmt.Sprintf("invalid params: %v", err)}
	}
	return nil
}

type initializeResult struct {
	ProtocolVersion string         `json:"protocolVersion"`
	Capabilities    capabilities   `json:"capabilities"`
	ServerInfo      implementation `json:"serverInfo"`
}

type capabilities struct {
	Tools toolsCapability `json:"tools"`
}

type toolsCapability struct {
	ListChanged bool `json:"listChanged"`
}

type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type callToolResult struct {
	Content           []textContent `json:"content"`
	StructuredContent agent.Details `json:"structuredContent"`
	IsError           bool          `json:"isError"`
}
