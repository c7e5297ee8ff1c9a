package agent

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/evgrep/evgrep/internal/gittest"
	"github.com/evgrep/evgrep/snapshot"
)

// TestContractTable: every answer of every mode, and every answer one of
// its suggested next calls leads to, keeps the contract: text and details
// each within 16 KiB, a status, a cursor in the details only when a next
// call continues with it, and suggested next calls that all execute.
func TestContractTable(t *testing.T) {
	root := gittest.Contract(t).Dir
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	for _, req := range gittest.ContractRequests {
		t.Run(req, func(t *testing.T) {
			a := HandleJSON(context.Background(), []byte(req), env)
			if a.Failed {
				t.Fatalf("%s failed: %s", req, a.Text)
			}
			checkContract(t, env, req, a, 2)
		})
	}
}

// checkContract checks one answer and follows its next calls depth levels.
func checkContract(t *testing.T, env Env, req string, a *Answer, depth int) {
	t.Helper()
	if len(a.Text) > snapshot.MaxResponseBytes {
		t.Errorf("%s: text %d bytes", req, len(a.Text))
	}
	if n := detailsSize(a.Details); n > MaxDetailsBytes {
		t.Errorf("%s: details %d bytes", req, n)
	}
	if a.Details.Status == "" {
		t.Errorf("%s: no status", req)
	}
	if c := a.Details.Cursor; c != "" {
		found := false
		for _, n := range a.Details.Next {
			if n.Request.Cursor == c {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: details.cursor %s is in no next call:\n%s", req, c, a.Text)
		}
	}
	if results(a) && len(a.Details.Next) == 0 {
		t.Errorf("%s: an answer with results suggests no next call:\n%s", req, a.Text)
	}
	if depth == 0 {
		return
	}
	for _, n := range a.Details.Next {
		b, _ := json.Marshal(n.Request)
		next := HandleJSON(context.Background(), b, env)
		if next.Failed {
			t.Errorf("%s suggests %s (%s), which fails:\n%s", req, b, n.Why, next.Text)
			continue
		}
		checkContract(t, env, string(b), next, depth-1)
	}
}

// results reports whether an answer holds results to go on from.
func results(a *Answer) bool {
	d := a.Details
	return len(d.Matches) > 0 || len(d.Files) > 0 || len(d.Targets) > 0 || len(d.Outlines) > 0 ||
		d.Impact != nil && len(d.Impact.Items) > 0 || d.Navigation != nil && len(d.Navigation.Items) > 0
}
