package main

import (
	"strings"
	"testing"
	"time"
)

// TestStructuralInvocation: the structural query runs evgrep --ast and
// ast-grep run with the same pattern and language, and no other tool.
func TestStructuralInvocation(t *testing.T) {
	var q Query
	for _, x := range treeQueries {
		if x.Lang != "" {
			q = x
		}
	}
	if q.Pattern != "panic($A)" || q.Lang != "go" {
		t.Fatalf("structural query %+v", q)
	}
	tg := Target{Path: "/src/goroot"}
	want := map[string]string{
		toolEvgrep:  "ev --ast 'panic($A)' --lang go goroot",
		toolAstGrep: "ag run --color never -p 'panic($A)' -l go goroot",
	}
	for _, name := range knownTools {
		path := map[string]string{toolEvgrep: "/x/ev", toolAstGrep: "/x/ag"}[name]
		inv, ok := Tool{Name: name, Path: path}.Invocation(q, tg)
		if w, applies := want[name]; applies {
			if !ok || inv.String() != w || inv.Dir != "/src" {
				t.Errorf("%s: %q in %s, want %q", name, inv.String(), inv.Dir, w)
			}
		} else if ok {
			t.Errorf("%s runs the structural query: %s", name, inv.String())
		}
	}
	// ast-grep runs no text query.
	if _, ok := (Tool{Name: toolAstGrep, Path: "ag"}).Invocation(Query{Name: "literal", Pattern: "x"}, tg); ok {
		t.Error("ast-grep runs a text query")
	}
	if !strings.Contains(q.Flags(), "--ast") {
		t.Errorf("flags %q", q.Flags())
	}
}

// TestStructuralRatio: a structural job compares evgrep with ast-grep.
func TestStructuralRatio(t *testing.T) {
	mk := func(name string, sec int) *cell {
		s := Sample{Wall: time.Duration(sec) * time.Second, Lines: 5, MaxRSSKiB: 100}
		return &cell{tool: Tool{Name: name}, applies: true, warm: s, samples: []Sample{s, s, s}}
	}
	j := Job{Corpus: Corpus{Name: "goroot"}, Query: Query{Name: "structural", Pattern: "panic($A)", Lang: "go"}}
	jr := jobResult(j, []*cell{mk(toolEvgrep, 1), mk(toolAstGrep, 4)})
	if jr.AstGrepRatio == nil || *jr.AstGrepRatio != 0.25 || jr.Ratio != nil {
		t.Fatalf("ratios %v %v", jr.AstGrepRatio, jr.Ratio)
	}
}
