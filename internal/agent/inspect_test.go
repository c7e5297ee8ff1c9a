package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/syntax"
)

const goSrc = `package demo

// Small says hello.
func Small() string {
	return "needle small"
}

type Box struct{ n int }

// Get returns n.
func (b *Box) Get() int {
	x := b.n // needle in a method
	return x
}
`

// bigFunc is a Go function of n lines with a needle in its middle.
func bigFunc(n int) string {
	var b strings.Builder
	b.WriteString("package demo\n\nfunc Big() {\n")
	for i := 0; i < n; i++ {
		if i == n/2 {
			b.WriteString("\t_ = \"needle big\"\n")
			continue
		}
		fmt.Fprintf(&b, "\tvar v%d = %d // %s\n", i, i, strings.Repeat("x", 40))
	}
	b.WriteString("}\n")
	return b.String()
}

func needParser(t *testing.T) {
	if !syntax.Supported(syntax.Go) {
		t.Skip("built without cgo: no parsers")
	}
}

func TestInspectForms(t *testing.T) {
	needParser(t)
	root := tree(t, map[string]string{"demo.go": goSrc, "notes.txt": strings.Repeat("line\n", 40) + "needle\n" + strings.Repeat("line\n", 40)})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}

	// path + line
	a := ask(t, env, `{"mode":"inspect","path":"demo.go","line":12}`)
	tg := a.Details.Targets[0]
	if tg.Outcome != outcomeReturned || tg.Decl == nil || tg.Decl.Name == "" || tg.Decl.Kind != "method" || tg.FirstLine != 10 || tg.LastLine != 14 {
		t.Fatalf("path+line: %+v\n%s", tg, a.Text)
	}
	if !strings.Contains(a.Text, "10| // Get returns n.") || !strings.Contains(a.Text, "14| }") {
		t.Fatalf("source not shown with its comment: %s", a.Text)
	}

	// cursor + matchIndex / matchIndices
	s := ask(t, env, `{"pattern":"needle","mode":"matches","limit":1}`)
	a = ask(t, env, fmt.Sprintf(`{"mode":"inspect","cursor":%q,"matchIndex":2}`, s.Details.Cursor))
	if tg := a.Details.Targets[0]; tg.Match != 2 || tg.Path != "demo.go" || tg.Decl == nil || tg.Decl.Kind != "method" {
		t.Fatalf("cursor+matchIndex: %+v", tg)
	}
	a = ask(t, env, fmt.Sprintf(`{"mode":"inspect","cursor":%q,"matchIndices":[1,2,3]}`, s.Details.Cursor))
	if len(a.Details.Targets) != 3 {
		t.Fatalf("cursor+matchIndices: %d targets", len(a.Details.Targets))
	}

	// targets, with the fallback window for a file without a parser
	a = ask(t, env, `{"mode":"inspect","targets":[{"path":"demo.go","line":5},{"path":"notes.txt","line":41}]}`)
	if tg := a.Details.Targets[1]; tg.Fallback == "" || tg.FirstLine != 26 || tg.LastLine != 56 {
		t.Fatalf("fallback window: %+v", tg)
	}
	if !strings.Contains(a.Text, "window: no parser for this file type") {
		t.Fatalf("fallback reason not said: %s", a.Text)
	}
}

func TestInspectMergesOverlaps(t *testing.T) {
	needParser(t)
	root := tree(t, map[string]string{"demo.go": goSrc})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"mode":"inspect","targets":[{"path":"demo.go","line":12},{"path":"demo.go","line":13}]}`)
	if tg := a.Details.Targets[1]; tg.SharedWith != 1 || tg.Outcome != outcomeReturned {
		t.Fatalf("overlap not merged: %+v", tg)
	}
	if strings.Count(a.Text, "12| \tx := b.n") != 1 {
		t.Fatalf("overlapping source shown twice:\n%s", a.Text)
	}
}

// TestInspectContinuation: a function too large for one answer comes in
// pages through source cursors; together they hold every line exactly
// once, a replayed cursor gives the same page, and an edit is refused.
func TestInspectContinuation(t *testing.T) {
	needParser(t)
	const n = 1200
	root := tree(t, map[string]string{"big.go": bigFunc(n)})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, fmt.Sprintf(`{"mode":"inspect","path":"big.go","line":%d}`, 3+n/2))
	if len(a.Text) > snapshot.MaxResponseBytes {
		t.Fatalf("answer is %d bytes", len(a.Text))
	}
	tg := a.Details.Targets[0]
	if tg.SourceCursor == "" || tg.Decl == nil || tg.Decl.StartLine != 3 || tg.Decl.EndLine != n+4 {
		t.Fatalf("no continuation for a large function: %+v", tg)
	}
	cur := tg.SourceCursor
	replayed := ask(t, env, fmt.Sprintf(`{"cursor":%q}`, cur))
	again := ask(t, env, fmt.Sprintf(`{"cursor":%q}`, cur))
	tokenRE := regexp.MustCompile(`"cursor":"[0-9a-f]+"`)
	if tokenRE.ReplaceAllString(replayed.Text, "") != tokenRE.ReplaceAllString(again.Text, "") {
		t.Fatal("replaying a source cursor gave another page")
	}
	if tg.SourceCursorBefore == "" || tg.FirstLine > 3+n/2 || tg.LastLine < 3+n/2 {
		t.Fatalf("the window does not hold the target line, or has no cursor before it: %+v", tg)
	}
	seen := walkSource(t, env, a)
	for line := 3; line <= n+4; line++ {
		if seen[line] != 1 {
			t.Fatalf("line %d shown %d times", line, seen[line])
		}
	}
	// An edited file refuses the continuation.
	os.WriteFile(filepath.Join(root, "big.go"), []byte(bigFunc(n+1)), 0o644)
	got := HandleJSON(context.Background(), []byte(fmt.Sprintf(`{"cursor":%q}`, tg.SourceCursor)), env)
	if !got.Failed || got.Details.Error.Code != CodeSourceChanged {
		t.Fatalf("edited file continued: %+v", got.Details)
	}
}

// TestInspectSharedBudget: one budget for the batch; what does not fit is
// deferred with a cursor.
func TestInspectSharedBudget(t *testing.T) {
	needParser(t)
	files := map[string]string{}
	for i := 0; i < 5; i++ {
		files[fmt.Sprintf("b%d.go", i)] = bigFunc(150)
	}
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	var targets []string
	for i := 0; i < 5; i++ {
		targets = append(targets, fmt.Sprintf(`{"path":"b%d.go","line":50}`, i))
	}
	a := ask(t, env, `{"mode":"inspect","targets":[`+strings.Join(targets, ",")+`]}`)
	if len(a.Text) > snapshot.MaxResponseBytes {
		t.Fatalf("batch answer is %d bytes", len(a.Text))
	}
	deferred := 0
	for _, tg := range a.Details.Targets {
		if tg.Outcome == outcomeDeferred || tg.SourceCursor != "" {
			deferred++
			if tg.SourceCursor == "" {
				t.Fatalf("deferred target without cursor: %+v", tg)
			}
		}
	}
	if deferred == 0 {
		t.Fatal("5 large functions fit in one 16 KiB answer?")
	}
}

// TestInspectRevisionRefusal: the cursor forms refuse a file edited since
// the search.
func TestInspectRevisionRefusal(t *testing.T) {
	needParser(t)
	root := tree(t, map[string]string{"demo.go": goSrc})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	s := ask(t, env, `{"pattern":"needle","mode":"matches","limit":1}`)
	os.WriteFile(filepath.Join(root, "demo.go"), []byte(goSrc+"// edited\n"), 0o644)
	a := ask(t, env, fmt.Sprintf(`{"mode":"inspect","cursor":%q,"matchIndex":1}`, s.Details.Cursor))
	if tg := a.Details.Targets[0]; tg.Outcome != outcomeError || !strings.Contains(tg.Error, "changed") {
		t.Fatalf("edited file inspected: %+v", tg)
	}
}

func TestInspectValidation(t *testing.T) {
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: t.TempDir()}
	for _, req := range []string{
		`{"mode":"inspect"}`,
		`{"mode":"inspect","path":"a.go"}`,
		`{"mode":"inspect","path":"a.go","line":3,"targets":[{"path":"b","line":1}]}`,
		`{"mode":"inspect","matchIndex":2}`,
		`{"mode":"inspect","targets":[{"path":"a","line":1},{"path":"a","line":1},{"path":"a","line":1},{"path":"a","line":1},{"path":"a","line":1},{"path":"a","line":1}]}`,
		`{"mode":"inspect","path":"a.go","line":3,"pattern":"x"}`,
		`{"mode":"outline","pattern":"x"}`,
	} {
		if a := HandleJSON(context.Background(), []byte(req), env); !a.Failed || a.Details.Error.Code != CodeInvalidRequest {
			t.Errorf("%s: %+v", req, a.Details.Error)
		}
	}
}

func TestOutlineMode(t *testing.T) {
	needParser(t)
	root := tree(t, map[string]string{"demo.go": goSrc, "x.txt": "text\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"mode":"outline"}`)
	if len(a.Details.Outlines) != 1 || !strings.Contains(a.Text, "func (b *Box) Get() int") || !strings.Contains(a.Text, "Without a parser (1): x.txt") {
		t.Fatalf("outline: %s", a.Text)
	}
}
