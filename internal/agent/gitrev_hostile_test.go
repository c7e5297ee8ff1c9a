package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/evgrep/evgrep/internal/gittest"
	"github.com/evgrep/evgrep/snapshot"
)

// agentGitEnv carries the folder of one run to the child.
const agentGitEnv = "EVGREP_AGENT_GIT_HOSTILE"

const (
	// agentChildHeadroom is the address space the child may add to its
	// own: inflating a bomb ends in an allocation failure.
	agentChildHeadroom = 256 << 20
	// agentChildPeakRSS is the most resident memory the child may reach.
	agentChildPeakRSS = 160 << 20
	// agentChildTimeout ends a child that hangs.
	agentChildTimeout = 60 * time.Second
)

// agentGitResult is what the child reports of one request.
type agentGitResult struct {
	Req      string
	Failed   bool
	Text     string
	Matches  []string
	Problems []string
}

// TestAgentGitHostileHelper is the child of TestAgentGitHostile: in one
// process, as an MCP server handles its sessions' requests, it asks for
// a search with rev, one with changedSince, then an ordinary search, and
// prints what each answered.
func TestAgentGitHostileHelper(t *testing.T) {
	dir := os.Getenv(agentGitEnv)
	if dir == "" {
		t.Skip("the child of TestAgentGitHostile")
	}
	gittest.LimitAddressSpace(t, agentChildHeadroom)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: dir}
	for _, req := range []string{
		`{"pattern":"needle","rev":"HEAD","mode":"matches"}`,
		`{"pattern":"needle","changedSince":"HEAD","mode":"matches"}`,
		`{"pattern":"needle","mode":"matches"}`,
	} {
		a := HandleJSON(context.Background(), []byte(req), env)
		res := agentGitResult{Req: req, Failed: a.Failed, Text: a.Text, Matches: gitMatchList(a), Problems: a.Details.Problems}
		out, _ := json.Marshal(res)
		fmt.Printf("RESULT %s\n", out)
	}
}

// TestAgentGitHostile: over each hostile repository (gittest.Hostile),
// the agent's rev and changedSince searches answer with ok.txt's match
// and a problem for each hostile path (or one for a hostile tree), and
// the same process answers the next request: a hostile repository never
// ends the process an MCP server's sessions live in.
func TestAgentGitHostile(t *testing.T) {
	if os.Getenv(agentGitEnv) != "" {
		t.Skip("inside the child")
	}
	for _, c := range gittest.Hostile() {
		r := gittest.BuildHostile(t, c)
		c2 := gittest.RunChild(t, "TestAgentGitHostileHelper", agentChildTimeout, agentGitEnv+"="+r.Dir)
		if c2.TimedOut {
			t.Errorf("%s: still running after %v", c.Name, agentChildTimeout)
			continue
		}
		err, rss, out := c2.Err, c2.PeakRSS, c2.Output
		var res []agentGitResult
		for _, line := range strings.Split(out, "\n") {
			if js, ok := strings.CutPrefix(line, "RESULT "); ok {
				var one agentGitResult
				json.Unmarshal([]byte(js), &one)
				res = append(res, one)
			}
		}
		if err != nil || len(res) != 3 {
			t.Errorf("%s: the child died after %d answers (%v, peak RSS %d MiB):\n%.1500s", c.Name, len(res), err, rss>>20, out)
			continue
		}
		if rss > gittest.ChildPeakBound(agentChildPeakRSS*rssScale) {
			t.Errorf("%s: peak RSS %d MiB, want at most %d", c.Name, rss>>20, agentChildPeakRSS>>20)
		}
		wants := []string{"ok.txt:1 needle", "ok.txt:2 needle new"}
		for i, want := range wants {
			a := res[i]
			if i == 1 && c.Tree {
				continue // changedSince does not read the hostile tree
			}
			nbad := len(c.Bad)
			if c.Tree {
				nbad = 1
			}
			good := !a.Failed && len(a.Matches) >= 1 && a.Matches[0] == want && len(a.Problems) == nbad
			for _, p := range a.Problems {
				good = good && strings.Contains(p, c.Want)
			}
			if !good {
				t.Errorf("%s: %s: failed %v, matches %q, problems %q; want %q and %d problems with %q", c.Name, a.Req, a.Failed, a.Matches, a.Problems, want, nbad, c.Want)
			}
		}
		if res[2].Failed || len(res[2].Matches) == 0 {
			t.Errorf("%s: the next request: %s", c.Name, res[2].Text)
		}
	}
}
