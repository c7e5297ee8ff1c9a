package agent

import (
	"context"
	"slices"
	"strings"
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

// TestEveryModeRefusesForeignFields: for every mode, each request field
// that its modeFields entry does not list is refused when set, with the
// fields the mode takes; none is quietly ignored (mode rank once took
// rewrite without a word).
func TestEveryModeRefusesForeignFields(t *testing.T) {
	values := map[string]string{
		"pattern": `"x"`, "path": `"."`, "paths": `["a"]`, "glob": `["*.go"]`, "exclude": `["*.md"]`,
		"literal": `true`, "ignoreCase": `true`, "hidden": `false`, "context": `1`, "limit": `2`,
		"line": `3`, "matchIndex": `1`, "matchIndices": `[1]`, "targets": `[{"path":"a","line":1}]`,
		"cursor": `"c"`, "items": `"exports"`, "budget": `"tight"`, "lang": `"go"`, "kind": `"call_expression"`,
		"rewrite": `"y"`, "apply": `true`, "preview": `"p"`, "symbol": `"S"`, "parseBudget": `5`,
		"terms": `["a","b"]`, "match": `"all"`, "rev": `"HEAD"`, "changedSince": `"HEAD"`,
		"query": `"q"`, "related": `{"path":"a","line":1}`,
	}
	bases := map[string]string{
		modeSearch: `"pattern":"x"`, modeTerms: `"terms":["a","b"]`, ModeInspect: `"mode":"inspect","path":"a","line":1`,
		ModeOutline: `"mode":"outline"`, ModeStructural: `"mode":"structural","pattern":"f($A)","lang":"go"`,
		ModeImpact: `"mode":"impact","symbol":"S"`, ModeImports: `"mode":"imports","path":"a.go"`,
		ModeTests: `"mode":"tests","path":"a.go"`, ModeRank: `"mode":"rank","query":"q"`,
	}
	for kind, allowed := range modeFields {
		base, ok := bases[kind]
		if !ok {
			t.Fatalf("no base request for %s", kind)
		}
		for _, name := range requestFields {
			if name == "" || slices.Contains(allowed, name) || strings.Contains(base, `"`+name+`"`) {
				continue
			}
			v, ok := values[name]
			if !ok {
				t.Fatalf("no value for field %s", name)
			}
			req := "{" + base + `,"` + name + `":` + v + "}"
			_, err := ParseRequest([]byte(req))
			if err == nil {
				t.Errorf("%s: %s is taken", kind, req)
			}
		}
	}
}
