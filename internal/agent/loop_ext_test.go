package agent_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/evgrep/evgrep/internal/agent"
	"github.com/evgrep/evgrep/internal/agent/agenttest"
	"github.com/evgrep/evgrep/snapshot"
)

// processAnswerer answers each request in a new process on one state
// folder, as --agent runs (the test binary re-executed: TestMain).
func processAnswerer(t *testing.T, dir string, mayFail bool) agenttest.Answerer {
	state := t.TempDir()
	return func(req string) *agent.Answer {
		t.Helper()
		cmd := exec.Command(os.Args[0])
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "EVGREP_AGENT_TEST_REQUEST="+req, snapshot.StateDirEnv+"="+state)
		out, err := cmd.Output()
		var a agent.Answer
		if jerr := json.Unmarshal(out, &a); jerr != nil {
			t.Fatalf("process output %q (%v): %v", out, err, jerr)
		}
		if a.Details.Error != nil && !mayFail {
			t.Fatalf("%s: %s", req, a.Text)
		}
		return &a
	}
}

// TestAgentLoop is issue 11's acceptance loop through the --agent form,
// each call a new process (the same loop runs through the MCP SDK client in
// internal/mcpserver).
func TestAgentLoop(t *testing.T) {
	root := t.TempDir()
	first, last := agenttest.LoopTree(t, root)
	agenttest.Loop(t, root, first, last, processAnswerer(t, root, false))
}

// TestExplicitPaging is the acceptance's paging case: 33 lines with limit
// 20 are 20 and then 13, without a repeat or a gap.
func TestExplicitPaging(t *testing.T) {
	root := t.TempDir()
	agenttest.PagingTree(t, root)
	agenttest.Paging(t, processAnswerer(t, root, false))
}
