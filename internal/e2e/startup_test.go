//go:build linux

package e2e

// Start-up's drop points (internal/startpages/stages): each is initialised
// right after its anchor, and they split start-up's package inits.

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// minStageInits is how many package inits at least run before the first
// drop, between two drops and after the last one: a drop point that moved
// to an end of start-up would give back next to nothing.
const minStageInits = 20

// TestStartupStages reads the built binary's init trace
// (GODEBUG=inittrace=1) and checks that each stage's drop comes after its
// anchor and that the stages spread over start-up.
func TestStartupStages(t *testing.T) {
	cmd := exec.Command(binary(t), "-q", "x", os.DevNull)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, _ := cmd.CombinedOutput()
	var order []string
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "init" && strings.HasPrefix(f[2], "@") {
			order = append(order, f[1])
		}
	}
	at := func(pkg string) int {
		for i, p := range order {
			if p == pkg {
				return i
			}
		}
		t.Fatalf("%s is not in the init trace (%d inits)", pkg, len(order))
		return -1
	}
	const stages = "github.com/evgrep/evgrep/internal/startpages/stages/"
	stops := []struct{ stage, anchor string }{
		{stages + "afterfmt", ""}, // (fmt has no init function to trace)
		{stages + "afterjson", "encoding/json"},
		{stages + "afterstructural", "github.com/evgrep/evgrep/structural"},
	}
	last := -1
	for _, s := range stops {
		i := at(s.stage)
		if s.anchor != "" {
			if a := at(s.anchor); a > i {
				t.Errorf("%s (init %d) runs before its anchor %s (init %d)", s.stage, i, s.anchor, a)
			}
		}
		if i-last <= minStageInits {
			t.Errorf("%s is init %d, only %d after the previous drop", s.stage, i, i-last-1)
		}
		last = i
	}
	if n := len(order) - last - 1; n < minStageInits {
		t.Errorf("only %d inits after the last drop", n)
	}
}

// TestStackHintEarly checks that internal/stackhint, which grows the main
// goroutine's stack while it is shallow, is initialised before the packages
// whose inits go deep (it imports nothing, so it comes among the first).
func TestStackHintEarly(t *testing.T) {
	cmd := exec.Command(binary(t), "-q", "x", os.DevNull)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, _ := cmd.CombinedOutput()
	n := 0
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 || f[0] != "init" || !strings.HasPrefix(f[2], "@") {
			continue
		}
		if f[1] == "github.com/evgrep/evgrep/internal/stackhint" {
			if n > maxInitsBeforeStackHint {
				t.Errorf("internal/stackhint is init %d, after %d others", n, n)
			}
			return
		}
		n++
	}
	t.Fatalf("internal/stackhint is not in the init trace (%d inits)", n)
}

// maxInitsBeforeStackHint bounds the package inits (the runtime's and
// the first standard packages') that run before internal/stackhint's.
const maxInitsBeforeStackHint = 8

// TestAgentStartEarly checks that internal/agentstart, which starts an
// agent call's credential policy beside the package inits, is initialised
// with at least minStageInits inits after it, internal/agent's among them:
// initialised at the end, it would start the policy too late to overlap
// anything.
func TestAgentStartEarly(t *testing.T) {
	cmd := exec.Command(binary(t), "--agent", `{"pattern":"x","path":"`+t.TempDir()+`"}`)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "EVGREP_STATE_DIR="+t.TempDir())
	out, _ := cmd.CombinedOutput()
	var order []string
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "init" && strings.HasPrefix(f[2], "@") {
			order = append(order, f[1])
		}
	}
	start, agent := -1, -1
	for i, p := range order {
		switch p {
		case "github.com/evgrep/evgrep/internal/agentstart":
			start = i
		case "github.com/evgrep/evgrep/internal/agent":
			agent = i
		}
	}
	if start < 0 || agent < 0 {
		t.Fatalf("agentstart (%d) or agent (%d) is not in the init trace (%d inits)", start, agent, len(order))
	}
	if start > agent {
		t.Errorf("agentstart is init %d, after internal/agent's (%d)", start, agent)
	}
	if n := len(order) - start - 1; n < minStageInits {
		t.Errorf("only %d inits after agentstart's", n)
	}
}
