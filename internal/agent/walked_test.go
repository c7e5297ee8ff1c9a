package agent

import (
	"context"
	"testing"

	"github.com/evgrep/evgrep/internal/gittest"
	"github.com/evgrep/evgrep/snapshot"
)

// TestWalkedAfterEachWalk: a front end's Env.Walked hears once of the walk
// of each request that walks through the pipeline (searches, a commit's
// search, terms, impact, imports and tests), and never for a page of a
// snapshot already taken.
func TestWalkedAfterEachWalk(t *testing.T) {
	root := gittest.Contract(t).Dir
	calls := 0
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root, Walked: func() { calls++ }}
	for _, req := range []string{
		`{"pattern":"Target"}`,
		`{"pattern":"Target","mode":"matches","limit":5}`,
		`{"pattern":"Target","rev":"HEAD"}`,
		`{"terms":["Target","helper1","main"]}`,
		`{"mode":"impact","symbol":"Target"}`,
		`{"mode":"imports","path":"app/main.go"}`,
		`{"mode":"tests","path":"lib/lib.go"}`,
	} {
		calls = 0
		a := HandleJSON(context.Background(), []byte(req), env)
		if a.Failed {
			t.Fatalf("%s failed: %s", req, a.Text)
		}
		if calls != 1 {
			t.Errorf("%s: Walked called %d times, want 1", req, calls)
		}
		if c := a.Details.Cursor; c != "" {
			calls = 0
			if next := HandleJSON(context.Background(), []byte(`{"cursor":"`+c+`"}`), env); next.Failed {
				t.Fatalf("%s: its cursor failed: %s", req, next.Text)
			}
			if calls != 0 {
				t.Errorf("%s: a page of its snapshot called Walked %d times", req, calls)
			}
		}
	}
}
