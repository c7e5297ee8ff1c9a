package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/evgrep/evgrep/internal/progress"
	"github.com/evgrep/evgrep/snapshot"
)

// The regressions of the seam issue (issue 20's numbered findings), each
// checked through the one entry point every front end uses.

// TestAutoAnswersAllOrSummary (finding 1): an implicit auto answer is
// every line or the summary, never a page cut short by its details.
func TestAutoAnswersAllOrSummary(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 97; i++ {
		fmt.Fprintf(&b, "app.register_blueprint(a%d); register_blueprint(b); register_blueprint(c); register_blueprint(d)\n", i)
	}
	root := tree(t, map[string]string{"app.py": b.String(), "other.py": "register_blueprint(x)\n"})
	a := ask(t, Env{Store: snapshot.NewMemoryStore(), Cwd: root}, `{"pattern":"register_blueprint"}`)
	d := a.Details
	if d.Mode == ModeMatches && (d.Page == nil || !d.Page.Done || d.Page.Count != 98) {
		t.Fatalf("auto answered a partial page: %+v\n%s", d.Page, a.Text)
	}
	if d.Mode != ModeMatches && d.Mode != ModeSummary {
		t.Fatalf("mode %q", d.Mode)
	}
	if n := detailsSize(d); n > MaxDetailsBytes {
		t.Fatalf("details %d bytes", n)
	}
}

// TestRequestKeysExact (finding 9): field names are case-sensitive and
// given once, as the schema's additionalProperties:false says.
func TestRequestKeysExact(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "x\ny\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	for _, req := range []string{
		`{"pattern":"x","PATTERN":"y"}`,
		`{"Pattern":"y"}`,
		`{"pattern":"x","pattern":"y"}`,
		`{"mode":"inspect","targets":[{"path":"a.txt","Line":1}]}`,
		`{"mode":"rank","related":{"path":"a.txt","line":1,"line":2}}`,
	} {
		a := HandleJSON(context.Background(), []byte(req), env)
		if !a.Failed || a.Details.Error == nil || a.Details.Error.Code != CodeInvalidRequest {
			t.Errorf("%s: not refused:\n%s", req, a.Text)
		}
	}
	if a := ask(t, env, `{"pattern":"x","glob":["*.txt"],"targets":null}`); a.Details.Totals.Lines != 1 {
		t.Fatalf("a well-formed request: %s", a.Text)
	}
}

// TestOutlineOfOneFile (finding 2): mode outline with path naming a file
// outlines that file, by its name.
func TestOutlineOfOneFile(t *testing.T) {
	root := tree(t, map[string]string{"api/http_client.go": "package api\n\nfunc Get() {}\n"})
	a := ask(t, Env{Store: snapshot.NewMemoryStore(), Cwd: root}, `{"mode":"outline","path":"api/http_client.go"}`)
	if strings.Contains(a.Text, "Without a parser") || !strings.Contains(a.Text, "http_client.go") {
		t.Fatalf("outline of a file:\n%s", a.Text)
	}
}

// TestOverlappingPathsOnce (finding 4): paths given twice or one inside
// another are searched once: every line once, with one number.
func TestOverlappingPathsOnce(t *testing.T) {
	root := tree(t, map[string]string{"api/a.go": "x\nx\n", "api/sub/b.go": "x\n", "c.go": "x\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	for _, paths := range []string{`["api","api"]`, `["api","api/sub"]`, `["api/sub","api"]`, `["api/","./api"]`} {
		a := ask(t, env, `{"pattern":"x","paths":`+paths+`}`)
		if a.Details.Totals.Lines != 3 || a.Details.Totals.Searched != 2 {
			t.Errorf("paths %s: %+v\n%s", paths, a.Details.Totals, a.Text)
		}
	}
	a := ask(t, env, `{"terms":["x","y"],"paths":["api","api/sub"]}`)
	if a.Details.Terms == nil || a.Details.Terms.FilesSearched != 2 {
		t.Errorf("terms over overlapping paths: %s", a.Text)
	}
}

// TestTermsWithinBounds (finding 10): 64 terms of 256 bytes each keep
// the first page's text and details within 16 KiB.
func TestTermsWithinBounds(t *testing.T) {
	var terms []string
	var src strings.Builder
	for i := 0; i < 64; i++ {
		term := fmt.Sprintf("t%02d_%s", i, strings.Repeat("x", 252))
		terms = append(terms, fmt.Sprintf("%q", term))
		src.WriteString(term + "\n")
	}
	root := tree(t, map[string]string{"a.txt": src.String()})
	a := ask(t, Env{Store: snapshot.NewMemoryStore(), Cwd: root}, `{"terms":[`+strings.Join(terms, ",")+`]}`)
	if n := detailsSize(a.Details); n > MaxDetailsBytes {
		t.Errorf("details %d bytes, over %d", n, MaxDetailsBytes)
	}
	if len(a.Text) > snapshot.MaxResponseBytes || strings.Contains(a.Text, "not shown (16 KiB bound)") {
		t.Errorf("text %d bytes, or cut:\n%s", len(a.Text), a.Text[len(a.Text)-300:])
	}
	if a.Details.Terms == nil || len(a.Details.Terms.Terms) != 64 || a.Details.Terms.Terms[63].Occurrences != 1 {
		t.Fatalf("per-term counts: %+v", a.Details.Terms)
	}
}

// TestEveryModeCancelsAndReports (finding 5): the analyses that walk
// report progress, and a cancel that comes after the walk (while impact
// parses, while rank builds its index) still stops them with
// CodeCancelled, not a complete answer.
func TestEveryModeCancelsAndReports(t *testing.T) {
	const nFiles = 2 * ProgressEvery
	files := map[string]string{}
	for i := 0; i < nFiles; i++ {
		files[fmt.Sprintf("d%d/f%04d.go", i%5, i)] = fmt.Sprintf("package d\n\nfunc f%d() { Target(%d) }\n", i, i)
	}
	root := tree(t, files)
	reqs := []string{
		`{"mode":"impact","symbol":"Target"}`,
		`{"mode":"rank","query":"Target call"}`,
		`{"mode":"structural","pattern":"Target($A)","lang":"go"}`,
		`{"terms":["Target","zzz"]}`,
		`{"pattern":"Target","mode":"summary"}`,
		`{"mode":"outline"}`,
	}
	for _, req := range reqs {
		var calls atomic.Int64
		env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
		ctx := progress.WithReporter(context.Background(), func(int) { calls.Add(1) })
		if a := HandleJSON(ctx, []byte(req), env); a.Failed || calls.Load() == 0 {
			t.Errorf("%s: no progress over %d files\n%s", req, nFiles, a.Text)
		}
	}
	// Cancelled once the walk has polled every file: only the work after
	// the walk is left to stop (in a tree of its own: no index of it is
	// cached yet).
	root = tree(t, files)
	for _, req := range reqs[:2] {
		env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
		a := HandleJSON(cancelAfter(nFiles), []byte(req), env)
		if !a.Failed || a.Details.Error == nil || a.Details.Error.Code != CodeCancelled {
			t.Errorf("%s cancelled after the walk: %s", req, a.Text)
		}
	}
}

// TestTestsOfAModuleWithManyExports (finding 3): every spec file that
// imports a module is one of its tests, whichever of its 20 exports it
// uses (the evidence took the first 16 only and said "complete").
func TestTestsOfAModuleWithManyExports(t *testing.T) {
	var src strings.Builder
	for i := 1; i <= 20; i++ {
		fmt.Fprintf(&src, "export const setting%02d = %d;\n", i, i)
	}
	files := map[string]string{"src/config.ts": src.String(), "package.json": "{}\n"}
	for i := 11; i <= 20; i++ {
		files[fmt.Sprintf("test/c%02d.spec.ts", i)] = fmt.Sprintf("import { setting%02d } from '../src/config';\n\ntest('x', () => expect(setting%02d).toBe(%d));\n", i, i, i)
	}
	root := tree(t, files)
	a := ask(t, Env{Store: snapshot.NewMemoryStore(), Cwd: root}, `{"mode":"tests","path":"src/config.ts"}`)
	if a.Details.Navigation == nil || len(a.Details.Navigation.Items) != 10 {
		t.Fatalf("tests of config.ts:\n%s", a.Text)
	}
}

// TestPolicySkipsAreSaid (finding 7): a folder shaped like a Git store is
// not read, every mode says so, and the modes count the files they
// searched alike.
func TestPolicySkipsAreSaid(t *testing.T) {
	root := tree(t, map[string]string{
		"main.go":                                "package main\n\nfunc Target() {}\n",
		"fixtures/simple.git/HEAD":               "ref: refs/heads/main\n",
		"fixtures/simple.git/config":             "[core]\n\tbare = true\n# Target\n",
		"fixtures/simple.git/objects/info/packs": "Target\n",
		"fixtures/simple.git/refs/heads/main":    "0000000000000000000000000000000000000000 Target\n",
		"other.txt":                              "Target\n",
	})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	searched := map[string]int{}
	for _, req := range []string{
		`{"pattern":"Target","mode":"summary"}`,
		`{"terms":["Target","zzz"]}`,
		`{"mode":"impact","symbol":"Target"}`,
		`{"mode":"rank","query":"Target"}`,
		`{"mode":"outline"}`,
	} {
		a := ask(t, env, req)
		if !strings.Contains(a.Text, "were not read") || !strings.Contains(strings.Join(a.Details.Problems, "\n"), "4 files inside Git stores") {
			t.Errorf("%s does not say that the store's files were not read:\n%s", req, a.Text)
		}
		switch {
		case a.Details.Totals != nil:
			searched[req] = a.Details.Totals.Searched
		case a.Details.Terms != nil:
			searched[req] = a.Details.Terms.FilesSearched
		case a.Details.Impact != nil:
			searched[req] = a.Details.Impact.Searched
		}
	}
	for req, n := range searched {
		if n != 2 {
			t.Errorf("%s: %d files searched, want 2 (%v)", req, n, searched)
		}
	}
}

// TestCRLFModeSaid (finding 8): agent searches run as rg --crlf; a
// pattern that needs rg's --multiline is refused with a hint the agent
// can act on, and `$` matches before "\r\n" as the answer documents.
func TestCRLFModeSaid(t *testing.T) {
	root := tree(t, map[string]string{"w.txt": "one\r\ntwo end\r\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	for _, req := range []string{`{"pattern":"\\r$"}`, `{"pattern":"end\\n"}`} {
		a := HandleJSON(context.Background(), []byte(req), env)
		if !a.Failed || a.Details.Error.Code != CodePattern || strings.Contains(a.Text, "--multiline") || !strings.Contains(a.Text, "rg --crlf") {
			t.Errorf("%s:\n%s", req, a.Text)
		}
	}
	if a := ask(t, env, `{"pattern":"end$"}`); a.Details.Totals.Lines != 1 {
		t.Errorf("end$ over CRLF lines: %s", a.Text)
	}
}

// TestPartialSuggestsRetainedFile (finding 12): a partial summary does
// not suggest selecting a file none of whose lines the snapshot holds.
func TestPartialSuggestsRetainedFile(t *testing.T) {
	root := tree(t, map[string]string{
		"a.txt": strings.Repeat("x\n", snapshot.MaxRetainedLines),
		"b.txt": strings.Repeat("x\n", snapshot.MaxRetainedLines+10000),
	})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"x","mode":"summary"}`)
	if !a.Details.Totals.Partial || a.Details.Files[0].Path != "b.txt" {
		t.Fatalf("not the partial summary the test needs:\n%s", a.Text)
	}
	for _, n := range a.Details.Next {
		if len(n.Request.Paths) == 1 && n.Request.Paths[0] == "b.txt" {
			t.Fatalf("suggests selecting b.txt, of which no line is retained: %+v", n)
		}
	}
}

// TestCursorPagesFlagChangedFiles (finding 13): a page of a cursor (a
// selection of the summary) says that a file changed since the search.
func TestCursorPagesFlagChangedFiles(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "x\nx\n", "b.go": "x\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"x","mode":"summary"}`)
	if err := os.WriteFile(filepath.Join(root, "a.go"), []byte("new\nx\nlines\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, req := range []string{
		fmt.Sprintf(`{"cursor":%q,"paths":["a.go"]}`, a.Details.SummaryCursor),
		fmt.Sprintf(`{"cursor":%q,"mode":"matches"}`, a.Details.SummaryCursor),
		fmt.Sprintf(`{"cursor":%q}`, a.Details.SummaryCursor),
	} {
		p := ask(t, env, req)
		if len(p.Details.ChangedFiles) != 1 || p.Details.ChangedFiles[0] != "a.go" || !strings.Contains(p.Text, "Changed since the search") {
			t.Errorf("%s: a.go not flagged as changed:\n%s", req, p.Text)
		}
	}
}

// TestRewriteTooLargeIsReadable (finding 14): a rewrite whose diff does
// not fit suggests reading it file by file, and does not suggest writing
// what was not shown.
func TestRewriteTooLargeIsReadable(t *testing.T) {
	files := map[string]string{}
	var body strings.Builder
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&body, "\tother(%d)\n", i)
	}
	for i := 0; i < 4; i++ {
		files[fmt.Sprintf("f%d.go", i)] = "package p\n\nfunc f() {\n" + body.String() + "}\n"
	}
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"mode":"structural","pattern":"other($A)","lang":"go","rewrite":"another($A, $A)"}`)
	if a.Details.Rewrite == nil || a.Details.Rewrite.DiffShown {
		t.Fatalf("the test needs a diff over the bound:\n%.400s", a.Text)
	}
	if len(a.Details.Next) == 0 {
		t.Fatalf("no way to read the diff:\n%s", a.Text)
	}
	for _, n := range a.Details.Next {
		if n.Request.Apply {
			t.Fatalf("suggests applying a diff it did not show: %+v", n)
		}
		b, _ := json.Marshal(n.Request)
		one := ask(t, env, string(b))
		if one.Details.Rewrite == nil || !one.Details.Rewrite.DiffShown || len(one.Details.Rewrite.Files) != 1 {
			t.Errorf("%s does not show one file's diff:\n%.300s", b, one.Text)
		}
	}
}

// TestCursorOfAnotherMode (minor findings): a search's cursor with mode
// rank is refused, not answered with the summary; the invalid-mode error
// names every mode.
func TestCursorOfAnotherMode(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "x\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"x","mode":"summary"}`)
	for _, mode := range []string{"rank", "impact", "outline"} {
		b := HandleJSON(context.Background(), []byte(fmt.Sprintf(`{"cursor":%q,"mode":%q}`, a.Details.SummaryCursor, mode)), env)
		if !b.Failed {
			t.Errorf("mode %s with a search's cursor answered:\n%s", mode, b.Text)
		}
	}
	if b := HandleJSON(context.Background(), []byte(`{"pattern":"x","mode":"nope"}`), env); !strings.Contains(b.Text, "structural") {
		t.Errorf("invalid mode: %s", b.Text)
	}
}

// TestContextOnceAcrossPages (minor finding): a context line between two
// match lines is shown once, whether the two are on one page or on two.
func TestContextOnceAcrossPages(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 200; i++ {
		if i%5 == 0 {
			fmt.Fprintf(&b, "needle %d\n", i)
		} else {
			fmt.Fprintf(&b, "line %d\n", i)
		}
	}
	root := tree(t, map[string]string{"a.txt": b.String()})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	for _, limit := range []int{1, 3, 7, 100} {
		seen := map[string]int{}
		a := ask(t, env, fmt.Sprintf(`{"pattern":"needle","mode":"matches","context":3,"limit":%d}`, limit))
		for pages := 0; ; pages++ {
			for _, c := range a.Details.Context {
				for _, l := range append(append([]string{}, c.Before...), c.After...) {
					seen[l]++
				}
			}
			if a.Details.Cursor == "" || pages > 100 {
				break
			}
			a = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
		}
		if len(seen) != 159 { // every line but line 1, which is 4 lines above the first match
			t.Errorf("limit %d: %d of 159 context lines shown", limit, len(seen))
		}
		for l, n := range seen {
			if n > 1 {
				t.Errorf("limit %d: %q shown %d times", limit, l, n)
			}
		}
	}
}
