package agent

import (
	"context"
	"testing"
	"time"

	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
)

// TestCursorDispatchIsTyped: a cursor is continued by the analysis its
// snapshot says it holds (snapshot.Meta.Analysis), and a cursor whose
// kind does not belong to that analysis is refused with a stable code,
// whatever option strings the snapshot carries.
func TestCursorDispatchIsTyped(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "package a\n\nfunc F() {}\n"})
	st := snapshot.NewMemoryStore()
	env := Env{Store: st, Cwd: root}
	cases := []struct {
		analysis snapshot.Analysis
		kind     snapshot.Kind
		options  map[string]string
	}{
		// Option strings that once chose the page are only strings now.
		{snapshot.AnalysisOutline, snapshot.KindItems, map[string]string{"kind": "outline", "analysis": "rank", "op": "structural", "operation": "terms"}},
		{snapshot.AnalysisSource, snapshot.KindItems, nil},
		{snapshot.AnalysisRank, snapshot.KindSummary, nil},
		{snapshot.AnalysisImpact, snapshot.KindOutline, nil},
		{snapshot.AnalysisSearch, snapshot.KindItems, nil},
	}
	for _, c := range cases {
		b := snapshot.NewItemsBuilder()
		b.AddFile("a.go", revisions.Revision{Hash: 1, Verified: true})
		b.Add(snapshot.Item{Path: "a.go", Line: 3, EndLine: 3, Group: "x", Label: "y"})
		snap := b.Build(snapshot.Meta{Root: root, Analysis: c.analysis, Options: c.options, Created: time.Now()})
		tok, err := st.NewCursor(snap, c.kind, 0, snapshot.PathSelection{})
		if err != nil {
			t.Fatal(err)
		}
		a := HandleJSON(context.Background(), []byte(`{"cursor":"`+tok+`"}`), env)
		if !a.Failed || a.Details.Error == nil || a.Details.Error.Code != string(snapshot.CodeWrongKind) {
			t.Errorf("%s snapshot with a %s cursor: %s", c.analysis, c.kind, a.Text)
		}
	}
}
