package agent

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/syntax"

	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
)

// askf is ask with a formatted request.
func askf(t *testing.T, env Env, format string, args ...any) *Answer {
	t.Helper()
	return ask(t, env, fmt.Sprintf(format, args...))
}

// failsWith answers req and checks it fails with code.
func failsWith(t *testing.T, env Env, code, req string) {
	t.Helper()
	a := HandleJSON(context.Background(), []byte(req), env)
	if !a.Failed || a.Details.Error == nil || a.Details.Error.Code != code {
		t.Fatalf("%s: got %+v, want %s\n%s", req, a.Details.Error, code, a.Text)
	}
}

// numbered returns "path:line" → match number of the answer's lines.
func numbered(ms []MatchJSON) map[string]int {
	out := map[string]int{}
	for _, m := range ms {
		out[fmt.Sprintf("%s:%d", m.Path, m.Line)] = m.Match
	}
	return out
}

// countedTree writes files with the given numbers of "needle" lines.
func countedTree(t *testing.T, counts map[string]int) string {
	files := map[string]string{}
	for p, n := range counts {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "filler %d\nneedle %s %d\n", i, p, i)
		}
		files[p] = b.String()
	}
	return tree(t, files)
}

// TestSummaryCursorSelects (issue 11, point 1): a summary of 30 files or
// fewer carries a reusable summary cursor; it lists match lines from #1,
// selects files by path or paths with their original numbers from the
// snapshot (an edited file does not change the answer), and inspects;
// a matches cursor keeps its selection.
func TestSummaryCursorSelects(t *testing.T) {
	root := countedTree(t, map[string]int{"a.txt": 10, "b.txt": 8, "c.txt": 6, "d.txt": 4, "e.txt": 2})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	sum := ask(t, env, `{"pattern":"needle","mode":"summary"}`)
	s := sum.Details.SummaryCursor
	if s == "" || !strings.Contains(sum.Text, s) || sum.Details.Cursor != "" {
		t.Fatalf("summary of 5 files: summary cursor %q, next-page cursor %q\n%s", s, sum.Details.Cursor, sum.Text)
	}
	all := askf(t, env, `{"cursor":%q,"mode":"matches","limit":100}`, s)
	if all.Details.Mode != ModeMatches || len(all.Details.Matches) != 30 || all.Details.Matches[0].Match != 1 {
		t.Fatalf("matches from the summary cursor: mode %s, %d lines", all.Details.Mode, len(all.Details.Matches))
	}
	want := numbered(all.Details.Matches)
	original := map[string]string{}
	for _, m := range all.Details.Matches {
		original[fmt.Sprintf("%s:%d", m.Path, m.Line)] = m.Text
	}
	// Edited after the search: the selection answers from the snapshot.
	if err := os.WriteFile(filepath.Join(root, "b.txt"), []byte("needle rewritten\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, req := range []string{
		fmt.Sprintf(`{"cursor":%q,"paths":["b.txt","d.txt"]}`, s),
		fmt.Sprintf(`{"cursor":%q,"paths":["./d.txt",%q]}`, s, filepath.Join(root, "b.txt")),
	} {
		sel := ask(t, env, req)
		if got := sel.Details.Selection; len(got) != 2 || got[0] != "b.txt" || got[1] != "d.txt" {
			t.Fatalf("%s: selection %v", req, got)
		}
		if len(sel.Details.Matches) != 12 {
			t.Fatalf("%s: %d lines, want 12\n%s", req, len(sel.Details.Matches), sel.Text)
		}
		for _, m := range sel.Details.Matches {
			key := fmt.Sprintf("%s:%d", m.Path, m.Line)
			if m.Path != "b.txt" && m.Path != "d.txt" || want[key] != m.Match || original[key] != m.Text {
				t.Fatalf("%s: line %s #%d %q, want #%d %q", req, key, m.Match, m.Text, want[key], original[key])
			}
		}
	}
	one := askf(t, env, `{"cursor":%q,"path":"c.txt","limit":4}`, s)
	if len(one.Details.Matches) != 4 || one.Details.Cursor == "" || one.Details.Selection[0] != "c.txt" {
		t.Fatalf("path selects one file: %+v", one.Details)
	}
	// The match cursor keeps its selection (and its limit).
	rest := askf(t, env, `{"cursor":%q}`, one.Details.Cursor)
	if len(rest.Details.Matches) != 2 || rest.Details.Matches[0].Path != "c.txt" || rest.Details.Matches[0].Match != want["c.txt:10"] {
		t.Fatalf("selection not kept: %+v", rest.Details.Matches)
	}
	failsWith(t, env, string(snapshot.CodeOptionsConflict), fmt.Sprintf(`{"cursor":%q,"paths":["a.txt"]}`, one.Details.Cursor))
	failsWith(t, env, CodeInvalidRequest, fmt.Sprintf(`{"cursor":%q,"paths":["nope.txt"]}`, s))
	failsWith(t, env, CodeInvalidRequest, fmt.Sprintf(`{"cursor":%q,"paths":["../a.txt"]}`, s))
	failsWith(t, env, CodeInvalidRequest, fmt.Sprintf(`{"cursor":%q,"paths":["/etc/passwd"]}`, s))
	failsWith(t, env, CodeInvalidRequest, fmt.Sprintf(`{"cursor":%q,"paths":[%s]}`, s, strings.Repeat(`"a.txt",`, maxSelect)+`"b.txt"`))
	failsWith(t, env, CodeInvalidRequest, fmt.Sprintf(`{"cursor":%q,"mode":"summary","paths":["a.txt"]}`, s))
	failsWith(t, env, string(snapshot.CodeOptionsConflict), fmt.Sprintf(`{"cursor":%q,"paths":["a.txt"],"pattern":"other"}`, s))
	failsWith(t, env, string(snapshot.CodeWrongKind), fmt.Sprintf(`{"cursor":%q,"mode":"summary"}`, one.Details.Cursor))
	// Still reusable: the summary again, and inspect by its numbers.
	if again := askf(t, env, `{"cursor":%q}`, s); again.Details.Mode != ModeSummary || len(again.Details.Files) != 5 {
		t.Fatalf("summary cursor not reusable: %+v", again.Details)
	}
	in := askf(t, env, `{"cursor":%q,"mode":"inspect","matchIndices":[1]}`, s)
	if len(in.Details.Targets) != 1 || in.Details.Targets[0].Path != "a.txt" || in.Details.Targets[0].Outcome != outcomeReturned {
		t.Fatalf("inspect by the summary cursor: %+v", in.Details.Targets)
	}
}

// TestNextCallsExact (point 2): every suggested call is an exact request
// that parses, runs, and keeps every option of the search (literal,
// ignoreCase, glob, exclude, paths): each answers from the same search.
func TestNextCallsExact(t *testing.T) {
	files := map[string]string{
		"src/skip.txt":  "NEEDLE.\n",
		"src/x.go":      "NEEDLE.\n",
		"other/y.txt":   "NEEDLE.\n",
		"src/decoy.txt": "needleX\nneedle\n",
	}
	for i := range 40 {
		files[fmt.Sprintf("src/f%02d.txt", i)] = strings.Repeat("a NEEDLE. b\nneedlex\n", i%4+1)
	}
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	search := `{"pattern":"needle.","literal":true,"ignoreCase":true,"glob":["*.txt"],"exclude":["skip*"],"paths":["src"],"mode":"summary"}`
	first := ask(t, env, search)
	want := first.Details.Totals.Lines
	if want != 100 {
		t.Fatalf("search found %d lines, want 100\n%s", want, first.Text)
	}
	checked := 0
	seen := map[string]bool{}
	var walk func(a *Answer, depth int)
	walk = func(a *Answer, depth int) {
		if len(a.Details.Next) == 0 && a.Details.Mode != ModeInspect && depth < 2 {
			t.Fatalf("no next calls in\n%s", a.Text)
		}
		for _, n := range a.Details.Next {
			js := requestJSON(n.Request)
			if !strings.Contains(a.Text, js) {
				t.Fatalf("next call %s not in the text:\n%s", js, a.Text)
			}
			if seen[js] {
				continue
			}
			seen[js] = true
			r, err := ParseRequest([]byte(js))
			if err != nil {
				t.Fatalf("next call %s does not parse: %v", js, err)
			}
			// Inspect, and the outline or impact an inspect suggests, read
			// code; every other next call answers from the same search.
			if r.Cursor == "" && r.Mode != ModeInspect && r.Mode != ModeOutline && r.Mode != ModeImpact {
				t.Fatalf("next call %s starts a new search", js)
			}
			got := Handle(context.Background(), r, env)
			if got.Failed {
				t.Fatalf("next call %s failed: %s", js, got.Text)
			}
			checked++
			if got.Details.Totals != nil && got.Details.Totals.Lines != want {
				t.Fatalf("next call %s answers another search: %d lines", js, got.Details.Totals.Lines)
			}
			if depth < 2 {
				walk(got, depth+1)
			}
		}
	}
	walk(first, 0)
	if checked < 5 {
		t.Fatalf("only %d next calls checked", checked)
	}
}

// TestAutoLimitAndCursorShape (point 3): auto with an explicit limit
// answers a page and a cursor at once, and cursors keep limit and context.
func TestAutoLimitAndCursorShape(t *testing.T) {
	files, n := manyMatches(9)
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","limit":7}`)
	if a.Details.Mode != ModeMatches || len(a.Details.Matches) != 7 || a.Details.Cursor == "" || a.Details.Page.Limit != 7 {
		t.Fatalf("auto with limit 7 over %d lines: mode %s, %d lines, cursor %q", n, a.Details.Mode, len(a.Details.Matches), a.Details.Cursor)
	}
	b := askf(t, env, `{"cursor":%q}`, a.Details.Cursor)
	if len(b.Details.Matches) != 7 || b.Details.Matches[0].Match != 8 {
		t.Fatalf("the cursor lost its limit: %d lines from #%d", len(b.Details.Matches), b.Details.Matches[0].Match)
	}
	c := ask(t, env, `{"pattern":"needle","mode":"matches","limit":2,"context":1}`)
	d := askf(t, env, `{"cursor":%q}`, c.Details.Cursor)
	if len(d.Details.Matches) != 2 || len(d.Details.Context) == 0 || d.Details.Page.Context != 1 {
		t.Fatalf("the cursor lost its context: %d lines, %d context windows", len(d.Details.Matches), len(d.Details.Context))
	}
	e := askf(t, env, `{"cursor":%q,"limit":3,"context":0}`, c.Details.Cursor)
	if len(e.Details.Matches) != 3 || len(e.Details.Context) != 0 {
		t.Fatalf("a request's limit and context override the cursor's: %+v", e.Details.Page)
	}
}

// TestSmartCase (point 4): an omitted ignoreCase is smart case.
func TestSmartCase(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "needle\nNeedle\nNEEDLE\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	for _, tc := range []struct {
		req  string
		want int
	}{
		{`{"pattern":"needle"}`, 3},
		{`{"pattern":"Needle"}`, 1},
		{`{"pattern":"needle","ignoreCase":false}`, 1},
		{`{"pattern":"Needle","ignoreCase":true}`, 3},
		{`{"pattern":"\\w+DLE"}`, 1},
		{`{"pattern":"n.","literal":true}`, 0},
	} {
		if got := ask(t, env, tc.req).Details.Totals.Lines; got != tc.want {
			t.Errorf("%s: %d lines, want %d", tc.req, got, tc.want)
		}
	}
}

// TestPathNamesFile (point 5): a path naming a file shows it by its name
// (its parser found by it), and a zero-result search of a sub-folder of
// the working directory is retried from the working directory.
func TestPathNamesFile(t *testing.T) {
	if !syntax.Supported(syntax.Go) {
		t.Skip("inspects a declaration: needs the tree-sitter parsers of a cgo build")
	}
	root := tree(t, map[string]string{
		"src/a.go":   "package a\n\n// F does it.\nfunc F() {\n\t// needle\n}\n",
		"src/b.go":   "package a\n\nvar needle = 1\n",
		"docs/x.txt": "nothing\n",
	})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","path":"src/a.go"}`)
	if a.Details.Totals.Lines != 1 || len(a.Details.Matches) != 1 || a.Details.Matches[0].Path != "a.go" || a.Details.Root != filepath.Join(root, "src") {
		t.Fatalf("file path: root %s, %+v\n%s", a.Details.Root, a.Details.Matches, a.Text)
	}
	var inspect *Request
	for _, n := range a.Details.Next {
		if n.Request.Mode == ModeInspect {
			r := n.Request
			inspect = &r
		}
	}
	if inspect == nil {
		t.Fatalf("no inspect call suggested:\n%s", a.Text)
	}
	in := Handle(context.Background(), inspect, env)
	if in.Failed || len(in.Details.Targets) != 1 || in.Details.Targets[0].Decl == nil || in.Details.Targets[0].Decl.Name != "F" {
		t.Fatalf("inspect of the file's match: %+v\n%s", in.Details.Targets, in.Text)
	}
	r := ask(t, env, `{"pattern":"needle","path":"docs"}`)
	if r.Details.Retried == nil || r.Details.Retried.From != retryFromCwd || r.Details.Totals.Lines != 2 || r.Details.Root != root {
		t.Fatalf("no retry from the working directory: %+v\n%s", r.Details.Retried, r.Text)
	}
	if !strings.Contains(r.Text, "retried from the working directory") || r.Details.Retried.Paths[0] != "docs" {
		t.Fatalf("the retry is not said: %s", r.Text)
	}
}

// TestSummaryPreviewsAndUnverified (point 8): summaries count the sample
// lines they show and omit, and files whose revision could not be
// verified are reported in summaries and matches pages.
func TestSummaryPreviewsAndUnverified(t *testing.T) {
	files, total := manyMatches(30)
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","mode":"summary"}`)
	d := a.Details
	if d.PreviewsShown == nil || d.PreviewsOmitted == nil || *d.PreviewsShown != len(d.Matches) || *d.PreviewsShown == 0 {
		t.Fatalf("previews: %v shown, %d sample lines", d.PreviewsShown, len(d.Matches))
	}
	listed := 0
	for _, f := range d.Files {
		listed += f.Lines
	}
	if *d.PreviewsShown+*d.PreviewsOmitted != listed || listed != total {
		t.Fatalf("previews %d + %d, files listed hold %d lines", *d.PreviewsShown, *d.PreviewsOmitted, listed)
	}
	if !strings.Contains(a.Text, fmt.Sprintf("%d lines shown, %d more", *d.PreviewsShown, *d.PreviewsOmitted)) {
		t.Fatalf("text does not count the previews:\n%s", a.Text)
	}
	// Files read whole and unchanged are verified.
	if len(d.UnverifiedFiles) != 0 || strings.Contains(a.Text, "[unverified]") || strings.Contains(a.Text, "Unverified (") {
		t.Fatalf("unchanged files reported unverified: %v\n%s", d.UnverifiedFiles, a.Text)
	}
	// A file whose read could not be verified (changed while searched).
	b := snapshot.NewBuilder()
	good := revisions.Revision{Identity: revisions.Identity{Size: 7}, Verified: true}
	b.AddFile("ok.txt", good)
	b.AddLine("ok.txt", 1, []byte("needle"), []snapshot.Range{{Start: 0, End: 6, EndUTF16: 6}})
	b.AddFile("moving.txt", revisions.Revision{Identity: revisions.Identity{Size: 7}})
	b.AddLine("moving.txt", 1, []byte("needle"), []snapshot.Range{{Start: 0, End: 6, EndUTF16: 6}})
	snap := b.Build((&Request{Pattern: "needle"}).searchMeta(root))
	tok, err := env.Store.NewCursor(snap, snapshot.KindSummary, 0, snapshot.PathSelection{})
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []string{`{"cursor":%q}`, `{"cursor":%q,"mode":"matches"}`, `{"cursor":%q,"paths":["moving.txt"]}`} {
		a := askf(t, env, req, tok)
		u := a.Details.UnverifiedFiles
		if len(u) != 1 || u[0].Path != "moving.txt" || u[0].Reason == "" || !strings.Contains(a.Text, u[0].Reason) || !strings.Contains(a.Text, "moving.txt") {
			t.Fatalf("%s: unverified %+v\n%s", req, u, a.Text)
		}
		for _, m := range a.Details.Matches {
			if m.Unverified != (m.Path == "moving.txt") {
				t.Fatalf("%s: line %+v marked wrongly", req, m)
			}
		}
		for _, f := range a.Details.Files {
			if f.Unverified != (f.Path == "moving.txt") {
				t.Fatalf("%s: file %+v marked wrongly", req, f)
			}
		}
	}
}

// bigGo is a Go function of n long lines, larger than one answer (the
// same shape as agenttest's loop tree, which this package's internal tests
// cannot import).
func bigGo(n int) (string, int, int) {
	var b strings.Builder
	b.WriteString("package big\n\n// Big is large.\nfunc Big() {\n")
	for i := range n {
		fmt.Fprintf(&b, "\t// TODO %03d: %s\n", i, strings.Repeat("padding ", 18))
	}
	b.WriteString("}\n")
	return b.String(), 3, 4 + n + 1
}

// TestSnapshotSlots (point 9): answers without a cursor and source
// continuations do not evict live search cursors: 20 cursor-bearing
// searches stay usable.
func TestSnapshotSlots(t *testing.T) {
	if !syntax.Supported(syntax.Go) {
		t.Skip("inspects a declaration: needs the tree-sitter parsers of a cgo build")
	}
	files, _ := manyMatches(21)
	big, _, _ := bigGo(120)
	files["big.go"] = big
	root := tree(t, files)
	for _, name := range []string{"memory", "disk"} {
		t.Run(name, func(t *testing.T) {
			store := snapshot.NewMemoryStore()
			if name == "disk" {
				store = snapshot.NewStore(t.TempDir())
			}
			env := Env{Store: store, Cwd: root}
			var cursors []string
			for i := 1; i <= snapshot.MaxSnapshots; i++ {
				a := askf(t, env, `{"pattern":"needle %d\\.","mode":"matches","limit":1}`, i)
				if a.Details.Cursor == "" {
					t.Fatalf("search %d has no cursor", i)
				}
				cursors = append(cursors, a.Details.Cursor)
			}
			for range 25 {
				if a := ask(t, env, `{"pattern":"needle 0\\."}`); a.Details.Cursor != "" || a.Details.SummaryCursor != "" {
					t.Fatalf("a whole answer has a cursor: %s", a.Text)
				}
			}
			src := ""
			for range 25 {
				in := ask(t, env, `{"mode":"inspect","path":"big.go","line":60}`)
				for _, tg := range in.Details.Targets {
					src = cmp.Or(tg.SourceCursor, src)
				}
			}
			if src == "" {
				t.Fatal("inspect of a large declaration gave no source cursor")
			}
			for range 5 {
				if src == "" {
					break
				}
				c := askf(t, env, `{"cursor":%q}`, src)
				src = ""
				for _, tg := range c.Details.Targets {
					src = cmp.Or(tg.SourceCursor, src)
				}
			}
			for i, c := range cursors {
				if a := HandleJSON(context.Background(), []byte(fmt.Sprintf(`{"cursor":%q}`, c)), env); a.Failed {
					t.Fatalf("cursor of search %d lost: %s", i+1, a.Text)
				}
			}
		})
	}
}

// The details are JSON with the fields the contract names.
func TestDetailsFieldNames(t *testing.T) {
	root := countedTree(t, map[string]int{"a.txt": 3})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","mode":"summary"}`)
	b, _ := json.Marshal(a.Details)
	for _, k := range []string{`"summaryCursor":`, `"previewsShown":`, `"previewsOmitted":`, `"next":[{"request":{`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("details lack %s: %s", k, b)
		}
	}
}

// TestRevisionVerifiedWhileOpen (point 8): the collector verifies a file
// read whole and unchanged, although the pipeline closes the file before
// End; a file that grows while it is read, or is not read to its end, is
// unverified.
func TestRevisionVerifiedWhileOpen(t *testing.T) {
	root := tree(t, map[string]string{"whole.txt": strings.Repeat("needle\n", 50), "grows.txt": strings.Repeat("needle\n", 50), "cut.txt": strings.Repeat("needle\n", 50)})
	c := &collector{b: snapshot.NewBuilder(), sinkFile: sinkFile{root: root, note: func(string) {}, walk: &walkState{}}}
	for _, name := range []string{"whole.txt", "grows.txt", "cut.txt"} {
		e := walker.Entry{Path: filepath.Join(root, name)}
		if ok, _ := c.Begin(e); !ok {
			t.Fatalf("%s not searched", name)
		}
		f, tap, err := c.Open(e)
		if err != nil {
			t.Fatal(err)
		}
		r := tap.Reader(f)
		head := make([]byte, 10)
		if _, err := io.ReadFull(r, head); err != nil {
			t.Fatal(err)
		}
		switch name {
		case "grows.txt":
			g, err := os.OpenFile(e.Path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			g.WriteString("needle appended while read\n")
			g.Close()
			io.Copy(io.Discard, r)
		case "whole.txt":
			io.Copy(io.Discard, r)
		}
		c.b.AddLine(c.path, 1, []byte("needle"), []snapshot.Range{{End: 6, EndUTF16: 6}})
		f.Close() // as the pipeline does, before End
		c.End(e, nil)
	}
	snap := c.b.Build(snapshot.Meta{Root: root})
	for name, want := range map[string]bool{"whole.txt": true, "grows.txt": false, "cut.txt": false} {
		if f, _ := snap.File(name); f.Revision.Verified != want {
			t.Errorf("%s: verified %v, want %v", name, f.Revision.Verified, want)
		}
	}
}
