// Package mcpserver serves evgrep's agent tool over the Model Context
// Protocol with the official Go SDK: over stdio (evgrep --mcp) or over
// streamable HTTP bound to loopback by default (evgrep --mcp-http ADDR).
// Every MCP session has its own in-memory snapshots and cursors.
package mcpserver

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/evgrep/evgrep/snapshot"
)

// ToolName is the name of the search tool.
const ToolName = "search"

// Version is reported to clients.
const Version = "0.1.0"

const toolDescription = `Search a source tree with ripgrep's regex syntax and get bounded, exact evidence.
The answer starts with a status line (exact totals of matching lines, occurrences and files; complete or partial),
then either a count-ranked file summary with real sample lines, or numbered match lines
"path:line:columns {match #N}  text" (columns are 1-based UTF-16, "b" = bytes for non-UTF-8 lines).
Page with the returned cursor (it never re-runs the search). mode: auto (default), summary, matches.
Use paths/glob/exclude to narrow; context (0-20) adds verified source lines around each match.
mode inspect shows the whole enclosing declaration (function, method, class...) of a line:
{path,line}, {cursor,matchIndex}, {cursor,matchIndices:[1-5]} or {targets:[{path,line}...]} (1-5);
long source continues with the returned cursor. mode outline lists the declarations of files under path/paths.`

// NewServer returns an MCP server with the search tool; its snapshots live
// in memory for the server's session.
func NewServer(cwd string) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "evgrep", Version: Version}, nil)
	env := agent.Env{Store: snapshot.NewMemoryStore(), Cwd: cwd}
	mcp.AddTool(s, &mcp.Tool{Name: ToolName, Description: toolDescription},
		func(ctx context.Context, req *mcp.CallToolRequest, in agent.Request) (*mcp.CallToolResult, agent.Details, error) {
			ans := agent.Handle(&in, env)
			return &mcp.CallToolResult{
				Content: []mcp.Content{&mcp.TextContent{Text: ans.Text}},
				IsError: ans.Failed,
			}, ans.Details, nil
		})
	return s
}

// ServeStdio serves one session over the given streams until the client
// disconnects.
func ServeStdio(in io.ReadCloser, out io.Writer, cwd string) error {
	t := &mcp.IOTransport{Reader: in, Writer: nopCloser{out}}
	return NewServer(cwd).Run(context.Background(), t)
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// ServeHTTP serves streamable HTTP on addr; an address without a host
// (":8080" or "8080") binds to 127.0.0.1 only.
func ServeHTTP(addr, cwd string, log io.Writer) error {
	addr = LoopbackDefault(addr)
	h := Handler(cwd)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "evgrep MCP server on http://%s/\n", ln.Addr())
	return http.Serve(ln, h)
}

// Handler returns the streamable HTTP handler; each new MCP session gets a
// server, and so snapshots, of its own.
func Handler(cwd string) http.Handler {
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return NewServer(cwd) }, nil)
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
