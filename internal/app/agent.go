package app

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/evgrep/evgrep/internal/startpages"
	"io"
	"os"
	"strings"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/evgrep/evgrep/internal/mcpserver"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
)

// agent answers one --agent request (the JSON argument, or stdin for "-").
func (r *run) agent() int {
	data := []byte(r.cfg.AgentRequest)
	if r.cfg.AgentRequest == "-" {
		var err error
		if data, err = io.ReadAll(io.LimitReader(r.stdin, maxAgentRequest+1)); err != nil {
			fmt.Fprintln(r.stderr, "evgrep:", err)
			return exitError
		}
		if len(data) > maxAgentRequest {
			// The rest is never read: a request is refused as MCP refuses
			// a message past the same cap.
			fmt.Fprintf(r.stderr, "evgrep: --agent -: the request on stdin is longer than %d bytes\n", maxAgentRequest)
			return exitError
		}
	}
	cwd, _ := os.Getwd()
	// The walk's pages of the executable are given back before the answer
	// is built, as start-up's were (internal/startpages).
	env := agent.Env{Store: snapshot.NewStore(agent.StateDir()), Cwd: cwd, Walked: startpages.Drop}
	ans := agent.HandleJSON(context.Background(), data, env)
	// Snapshot writes begun for the answer's cursors end before the
	// process does (snapshot.Store.Prestore).
	env.Store.Flush()
	if r.cfg.AgentFormat == "json" {
		b, _ := json.Marshal(ans)
		r.out.Write(b)
		r.out.WriteByte('\n')
	} else {
		io.WriteString(r.out, ans.Text)
	}
	if ans.Failed {
		return exitError
	}
	return exitMatch
}

// mcp serves the agent tool over MCP (stdio, or streamable HTTP).
func (r *run) mcp() int {
	cwd, _ := os.Getwd()
	// Clients are told the binary's version (stamped, or the module's).
	mcpserver.Version = version()
	var err error
	if r.cfg.MCPHTTP != "" {
		err = mcpserver.ServeHTTP(r.cfg.MCPHTTP, cwd, mcpserver.Options{AllowOrigins: r.cfg.MCPAllowOrigins}, r.stderr)
	} else {
		err = mcpserver.ServeStdio(r.stdin, r.rawOut, cwd)
	}
	if err != nil {
		fmt.Fprintln(r.stderr, "evgrep:", err)
		return exitError
	}
	return exitMatch
}

// outline implements --outline PATH...: the declarations of every file the
// walk yields (rg's rules), as text or, with --json, one JSON object per file.
func (r *run) outline(wopts walker.Options) int {
	cwd, _ := os.Getwd()
	list, err := agent.ListFiles(cwd, r.cfg.Paths, wopts)
	if err != nil {
		fmt.Fprintln(r.stderr, "evgrep:", err)
		return exitError
	}
	var files []string
	for _, p := range list {
		files = append(files, strings.TrimPrefix(p, "./"))
	}
	outlines := agent.OutlineFiles(cwd, files, r.cfg.Pipeline.Input)
	if r.cfg.JSON {
		for _, o := range agent.JSONOutlines(outlines) {
			r.out.Write(jsonLine(nil, o))
		}
	} else {
		var b strings.Builder
		agent.WriteOutlineText(&b, outlines, 0)
		io.WriteString(r.out, b.String())
	}
	if r.errored.Load() {
		return exitError
	}
	if len(outlines) == 0 {
		return exitNoMatch
	}
	return exitMatch
}
