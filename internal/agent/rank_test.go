package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
)

func rankTree(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	for i := 0; i < n; i++ {
		p := filepath.Join(root, fmt.Sprintf("d%d", i%3), fmt.Sprintf("f%02d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		text := fmt.Sprintf("request timeout handling number %d\n%s\n", i, strings.Repeat("timeout ", i%5))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// Paging a ranking with its cursor gives every ranked chunk exactly once,
// in rank order, and every page is within the answer bound.
func TestRankPagesNeverRepeatOrDrop(t *testing.T) {
	root := rankTree(t, 17)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"mode":"rank","query":"request timeout","limit":4}`)
	d := a.Details.Rank
	if d == nil || d.Ranked != 17 || d.Note != rankHonesty || !strings.Contains(a.Text, rankHonesty) {
		t.Fatalf("first page: %+v\n%s", d, a.Text)
	}
	var seen []int
	prev := 1e18
	for {
		if len(a.Text) > snapshot.MaxResponseBytes {
			t.Fatalf("page of %d bytes", len(a.Text))
		}
		for _, c := range a.Details.Rank.Page {
			seen = append(seen, c.Rank)
			if !c.Shown || c.Score > prev {
				t.Errorf("chunk %+v (previous score %v)", c, prev)
			}
			prev = c.Score
			if !strings.Contains(a.Text, fmt.Sprintf("#%d %s:%d-%d", c.Rank, c.Path, c.StartLine, c.EndLine)) {
				t.Errorf("chunk #%d not in the text", c.Rank)
			}
		}
		if a.Details.Cursor == "" {
			break
		}
		a = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
	}
	for i, r := range seen {
		if r != i+1 {
			t.Fatalf("ranks %v", seen)
		}
	}
	if len(seen) != 17 {
		t.Fatalf("%d chunks paged, want 17", len(seen))
	}
}

// A chunk whose file changed after the ranking is not shown.
func TestRankChangedFileNotShown(t *testing.T) {
	root := rankTree(t, 3)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"mode":"rank","query":"handling number 1","limit":1}`)
	top := a.Details.Rank.Page[0]
	if err := os.WriteFile(filepath.Join(root, top.Path), []byte("rewritten\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The stored ranking, rendered again from its start.
	snap, _, err := env.Store.Resolve(a.Details.Cursor, "", snapshot.KindItems, "")
	if err != nil {
		t.Fatal(err)
	}
	again, err := rankPage(env, snap, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := again.Details.Rank.Page[0]
	if c.Shown || !strings.Contains(again.Text, "changed since it was ranked") || strings.Contains(again.Text, "request timeout handling number 1") {
		t.Errorf("changed file shown: %+v\n%s", c, again.Text)
	}
}

func TestRankRelatedAndErrors(t *testing.T) {
	root := rankTree(t, 6)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"mode":"rank","related":{"path":"d0/f00.txt","line":1}}`)
	if a.Details.Rank.Related == nil || a.Details.Rank.Related.Path != "d0/f00.txt" {
		t.Fatalf("related: %+v", a.Details.Rank)
	}
	for _, c := range a.Details.Rank.Page {
		if c.Path == "d0/f00.txt" && c.StartLine == 1 {
			t.Error("the chunk itself is related to itself")
		}
	}
	raw, _ := json.Marshal(a.Details.Next)
	if !strings.Contains(string(raw), `"mode":"inspect"`) || !strings.Contains(string(raw), `"related"`) {
		t.Errorf("next calls: %s", raw)
	}
	for _, req := range []string{
		`{"mode":"rank"}`,
		`{"mode":"rank","query":"x","related":{"path":"a","line":1}}`,
		`{"mode":"rank","query":"x","pattern":"y"}`,
		`{"mode":"rank","query":"x","limit":31}`,
		`{"query":"x","mode":"matches"}`,
		`{"mode":"rank","related":{"path":"d0/none.txt","line":1}}`,
		`{"mode":"rank","related":{"path":"d0/f00.txt","line":0}}`,
	} {
		if a := HandleJSON(context.Background(), []byte(req), env); !a.Failed {
			t.Errorf("%s: accepted:\n%s", req, a.Text)
		}
	}
}
