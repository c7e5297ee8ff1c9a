package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/gittest"
	"github.com/evgrep/evgrep/snapshot"
)

// matchList is "path:line text" of an answer's match lines.
func gitMatchList(a *Answer) []string {
	var out []string
	for _, m := range a.Details.Matches {
		out = append(out, fmt.Sprintf("%s:%d %s", m.Path, m.Line, m.Text))
	}
	return out
}

func TestAgentRevAndChangedSince(t *testing.T) {
	r := gittest.New(t)
	r.Write(map[string]string{"a.txt": "needle one\nplain\n", "b.txt": "needle b\n"})
	first := r.Commit("first").String()
	r.Write(map[string]string{"a.txt": "needle one\nplain\nneedle two\n"})
	r.Commit("second")
	// The working tree: a.txt edited again, c.txt untracked.
	r.Write(map[string]string{"a.txt": "needle one changed\nplain\nneedle two\n", "c.txt": "needle c\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: r.Dir}
	cases := []struct {
		req    string
		want   []string
		status string
	}{
		{`{"pattern":"needle","rev":"HEAD","mode":"matches"}`, []string{"a.txt:1 needle one", "a.txt:3 needle two", "b.txt:1 needle b"}, `at commit "HEAD"`},
		{`{"pattern":"needle","rev":"` + first + `","mode":"matches"}`, []string{"a.txt:1 needle one", "b.txt:1 needle b"}, `at commit "` + first + `"`},
		{`{"pattern":"needle","changedSince":"HEAD","mode":"matches"}`, []string{"a.txt:1 needle one changed", "c.txt:1 needle c"}, `in lines added or changed since "HEAD"`},
		{`{"pattern":"needle","changedSince":"HEAD~1","mode":"matches"}`, []string{"a.txt:1 needle one changed", "a.txt:3 needle two", "c.txt:1 needle c"}, "changed since"},
		{`{"pattern":"needle","mode":"matches"}`, []string{"a.txt:1 needle one changed", "a.txt:3 needle two", "b.txt:1 needle b", "c.txt:1 needle c"}, "complete"},
	}
	for _, c := range cases {
		a := ask(t, env, c.req)
		if got := gitMatchList(a); fmt.Sprint(got) != fmt.Sprint(c.want) || !strings.Contains(a.Text, c.status) {
			t.Errorf("%s: %q\n%s\nwant %q and %q", c.req, got, a.Text, c.want, c.status)
		}
	}
	// A cursor pages the commit's lines, and keeps its rev.
	a := ask(t, env, `{"pattern":"needle","rev":"HEAD","mode":"matches","limit":1}`)
	var pages []string
	for i := 0; i < 5 && a != nil; i++ {
		pages = append(pages, gitMatchList(a)...)
		if a.Details.Cursor == "" {
			break
		}
		a = ask(t, env, `{"cursor":"`+a.Details.Cursor+`"}`)
	}
	if fmt.Sprint(pages) != "[a.txt:1 needle one a.txt:3 needle two b.txt:1 needle b]" {
		t.Errorf("paging a rev search: %q", pages)
	}
	first1 := ask(t, env, `{"pattern":"needle","rev":"HEAD","mode":"matches","limit":1}`)
	conflict := HandleJSON(context.Background(), []byte(`{"cursor":"`+first1.Details.Cursor+`","rev":"HEAD~1"}`), env)
	if !conflict.Failed || conflict.Details.Error == nil || conflict.Details.Error.Code != string(snapshot.CodeOptionsConflict) {
		t.Errorf("a cursor with another rev: %s", conflict.Text)
	}
	// Context comes from disk only for a file that is still the commit's:
	// a.txt differs on disk, so its lines at HEAD get no context.
	ctx := ask(t, env, `{"pattern":"needle two","rev":"HEAD","mode":"matches","context":2}`)
	if b, _ := json.Marshal(ctx.Details); strings.Contains(string(b), "needle one changed") || !strings.Contains(ctx.Text, "context not shown: a.txt changed") {
		t.Errorf("context from the working file was shown for a commit's line:\n%s", ctx.Text)
	}
}

func TestAgentGitErrors(t *testing.T) {
	r := gittest.New(t)
	r.Write(map[string]string{"a.txt": "needle\n"})
	r.Commit("one")
	partial := gittest.New(t)
	partial.Write(map[string]string{"a": "needle\n"})
	partial.Commit("one")
	cfg := filepath.Join(partial.Dir, ".git", "config")
	old, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(old, "[remote \"origin\"]\n\tpromisor = true\n"...), 0o644)
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(outside, "x.txt"), []byte("needle\n"), 0o644)
	cases := []struct {
		cwd, req, code, msg string
	}{
		{r.Dir, `{"pattern":"needle","rev":"nosuch"}`, CodeRevision, "bad revision 'nosuch'"},
		{r.Dir, `{"pattern":"needle","changedSince":"HEAD~1"}`, CodeRevision, "has no parent"},
		{r.Dir, `{"pattern":"needle","rev":"HEAD","changedSince":"HEAD"}`, CodeInvalidRequest, "cannot be used together"},
		{r.Dir, `{"mode":"outline","rev":"HEAD"}`, CodeInvalidRequest, "apply to searches"},
		{r.Dir, `{"mode":"inspect","path":"a.txt","line":1,"rev":"HEAD"}`, CodeInvalidRequest, "apply to searches"},
		{r.Dir, `{"pattern":"needle","rev":"` + strings.Repeat("x", 300) + `"}`, CodeInvalidRequest, "at most 256 bytes"},
		{outside, `{"pattern":"needle","rev":"HEAD"}`, CodeRepository, "not in a Git repository"},
		{partial.Dir, `{"pattern":"needle","changedSince":"HEAD"}`, CodeRepository, "promisor remote"},
	}
	for _, c := range cases {
		a := HandleJSON(context.Background(), []byte(c.req), Env{Store: snapshot.NewMemoryStore(), Cwd: c.cwd})
		if !a.Failed || a.Details.Error == nil || a.Details.Error.Code != c.code || !strings.Contains(a.Text, c.msg) {
			t.Errorf("%.80s: %s; want %s with %q", c.req, a.Text, c.code, c.msg)
		}
	}
}
