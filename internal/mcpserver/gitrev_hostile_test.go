package mcpserver

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/evgrep/evgrep/internal/gittest"
)

// mcpGitEnv carries the root of the child's server.
const mcpGitEnv = "EVGREP_MCP_GIT_HOSTILE"

const (
	// mcpChildTimeout ends a child that hangs.
	mcpChildTimeout = 60 * time.Second
	// mcpChildPeakRSS is the most resident memory the child may reach: a
	// zlib bomb's 256 MiB are never inflated.
	mcpChildPeakRSS = 160 << 20
)

// TestMCPGitHostileHelper is the child of TestMCPGitHostile: one stdio
// server over the hostile repository, one client session that searches
// the commit (rev), then the lines changed since it, then the working
// tree; it prints each answer's first line and the server's end.
func TestMCPGitHostileHelper(t *testing.T) {
	root := os.Getenv(mcpGitEnv)
	if root == "" {
		t.Skip("the child of TestMCPGitHostile")
	}
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := ServeStdio(toServerR, fromServerW, root)
		fromServerW.Close()
		done <- err
	}()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: fromServerR, Writer: toServerW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []map[string]any{
		{"pattern": "needle", "rev": "HEAD", "mode": "matches"},
		{"pattern": "needle", "changedSince": "HEAD", "mode": "matches"},
		{"pattern": "needle", "mode": "matches"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: ToolName, Arguments: args})
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		text := ""
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text += tc.Text
			}
		}
		first, _, _ := strings.Cut(text, "\n")
		fmt.Printf("ANSWER error=%v %s\n", res.IsError, first)
	}
	cs.Close()
	fmt.Printf("SERVER %v\n", <-done)
}

// TestMCPGitHostile: a session's searches of a hostile repository
// (gittest.Hostile) are answered, and the server goes on to answer the
// next search and ends normally, within mcpChildPeakRSS: a delta loop or
// a zlib bomb in a repository never ends the process that serves every
// session.
func TestMCPGitHostile(t *testing.T) {
	if os.Getenv(mcpGitEnv) != "" {
		t.Skip("inside the child")
	}
	for _, c := range gittest.Hostile() {
		r := gittest.BuildHostile(t, c)
		ch := gittest.RunChild(t, "TestMCPGitHostileHelper", mcpChildTimeout, mcpGitEnv+"="+r.Dir)
		if ch.TimedOut {
			t.Errorf("%s: the server still runs after %v", c.Name, mcpChildTimeout)
			continue
		}
		err, rss, out := ch.Err, ch.PeakRSS, ch.Output
		answers := strings.Count(out, "ANSWER error=false evgrep:")
		if err != nil || answers != 3 || !strings.Contains(out, "SERVER <nil>") {
			t.Errorf("%s: %d of 3 answers, then %v (peak RSS %d MiB):\n%.1500s", c.Name, answers, err, rss>>20, out)
		}
		if rss > gittest.ChildPeakBound(mcpChildPeakRSS*rssScale) {
			t.Errorf("%s: peak RSS %d MiB, want at most %d", c.Name, rss>>20, mcpChildPeakRSS>>20)
		}
	}
}
