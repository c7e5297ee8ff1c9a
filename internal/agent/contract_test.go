package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
)

// TestContextContract (issue 11, point 6): context rows count in the 16 KiB
// bound by their bytes, never run past the end of the file, and never show
// a match line as context — neither one of a later page nor one of the
// same page a second time.
func TestContextContract(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 400; i++ {
		if i%41 == 0 {
			fmt.Fprintf(&long, "needle %d\n", i)
			continue
		}
		long.WriteString(strings.Repeat("日", 400) + "\n") // 1,200 bytes
	}
	root := tree(t, map[string]string{
		"long.txt":  long.String(),
		"end.txt":   "first\nsecond needle-end\n",
		"close.txt": "a\nneedle-one\nb\nneedle-two\nc\nd\n",
	})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}

	// The bound holds by bytes.
	a := ask(t, env, `{"pattern":"needle","mode":"matches","context":20,"paths":["long.txt"],"limit":100}`)
	for pages := 0; ; pages++ {
		if len(a.Text) > snapshot.MaxResponseBytes {
			t.Fatalf("page %d is %d bytes, over %d", pages, len(a.Text), snapshot.MaxResponseBytes)
		}
		if a.Details.Cursor == "" || pages > 20 {
			break
		}
		a = ask(t, env, fmt.Sprintf(`{"cursor":%q,"context":20}`, a.Details.Cursor))
	}

	// No line past the end of the file.
	a = ask(t, env, `{"pattern":"needle-end","mode":"matches","context":3}`)
	if strings.Contains(a.Text, "-3 ") || len(a.Details.Context) != 1 {
		t.Fatalf("context past the end of a 2-line file:\n%s\n%+v", a.Text, a.Details.Context)
	}

	// A match line is not context of the page before its own...
	a = ask(t, env, `{"pattern":"needle-(one|two)","mode":"matches","context":2,"limit":1}`)
	if strings.Contains(a.Text, "needle-two") {
		t.Fatalf("match #2 shown as context on the page before its own:\n%s", a.Text)
	}
	b := ask(t, env, fmt.Sprintf(`{"cursor":%q,"context":2}`, a.Details.Cursor))
	if !strings.Contains(b.Text, "{match #2}") || strings.Count(b.Text, "needle-two") != 1 {
		t.Fatalf("match #2 not shown once on its page:\n%s", b.Text)
	}
	// ...nor twice on one page, and each context line is shown once.
	a = ask(t, env, `{"pattern":"needle-(one|two)","mode":"matches","context":2}`)
	for _, s := range []string{"needle-one", "needle-two", " a\n", " b\n", " c\n", " d\n"} {
		if n := strings.Count(a.Text, s); n != 1 {
			t.Fatalf("%q shown %d times:\n%s", s, n, a.Text)
		}
	}
}

var cursorTokenRE = regexp.MustCompile(`"cursor":"([0-9a-f]{32})"`)

// walkSource follows every cursor an inspect answer names (and those of
// the answers it leads to) and counts how often each source line ("N| ")
// of path is shown. It fails when the walk does not end.
func walkSource(t *testing.T, env Env, first *Answer) map[int]int {
	t.Helper()
	seen := map[int]int{}
	queue := []string{first.Text}
	asked := map[string]bool{}
	for len(queue) > 0 {
		text := queue[0]
		queue = queue[1:]
		for _, line := range strings.Split(text, "\n") {
			var n int
			if _, err := fmt.Sscanf(line, "%d|", &n); err == nil && strings.Contains(line, "| ") {
				seen[n]++
			}
		}
		for _, m := range cursorTokenRE.FindAllStringSubmatch(text, -1) {
			if asked[m[1]] || m[1] == "" {
				continue
			}
			if len(asked) > 60 {
				t.Fatalf("source continuation does not end (%d cursors)", len(asked))
			}
			asked[m[1]] = true
			p := HandleJSON(context.Background(), []byte(fmt.Sprintf(`{"cursor":%q}`, m[1])), env)
			if p.Failed {
				continue // a search cursor of the answer, not a continuation
			}
			if len(p.Text) > snapshot.MaxResponseBytes {
				t.Fatalf("continuation is %d bytes", len(p.Text))
			}
			queue = append(queue, p.Text)
		}
	}
	return seen
}

// TestInspectContract (issue 11, point 7).
func TestInspectContract(t *testing.T) {
	needParser(t)
	const n = 1200
	huge := strings.Repeat("a=1;", 30000) + "needle();" + strings.Repeat("b=2;", 30000) + "\n"
	var gap strings.Builder
	gap.WriteString("package demo\n\nimport (\n\t\"fmt\"\n)\n\nvar _ = fmt.Sprint\n\n// Mid is long.\nfunc Mid() {\n")
	for i := 11; i < 50; i++ {
		fmt.Fprintf(&gap, "\tfmt.Println(%d)\n", i)
	}
	gap.WriteString("}\n") // line 50
	files := map[string]string{"big.go": bigFunc(n), "min.js": huge, "gap.go": gap.String(), "demo.go": goSrc}
	for i := 0; i < 5; i++ {
		// Four of these fill the batch's budget whole; the fifth has less
		// than a useful window left.
		files[fmt.Sprintf("b%d.go", i)] = bigFunc(62)
	}
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}

	// A match inside a declaration larger than the budget: the window
	// holds the target line and the declaration's header; cursors before
	// and after lead to every other line once.
	s := ask(t, env, `{"pattern":"needle big|needle\\(","mode":"matches","paths":["big.go","min.js"],"limit":1}`)
	if len(s.Details.Matches) != 1 || s.Details.Matches[0].Path != "big.go" || s.Details.Cursor == "" {
		t.Fatalf("search: %s", s.Text)
	}
	a := ask(t, env, fmt.Sprintf(`{"mode":"inspect","cursor":%q,"matchIndex":1}`, s.Details.Cursor))
	target := fmt.Sprintf("%d| \t_ = \"needle big\"", 3+1+n/2)
	if !strings.Contains(a.Text, target) || !strings.Contains(a.Text, "func Big()") {
		t.Fatalf("the window does not hold the target line and the header:\n%.600s", a.Text)
	}
	if len(a.Text) > snapshot.MaxResponseBytes {
		t.Fatalf("answer is %d bytes", len(a.Text))
	}
	seen := walkSource(t, env, a)
	for line := 3; line <= n+4; line++ {
		if seen[line] != 1 {
			t.Fatalf("line %d of the large function shown %d times", line, seen[line])
		}
	}

	// A single line longer than the budget: a bounded excerpt around the
	// match, no continuation loop.
	a = ask(t, env, fmt.Sprintf(`{"mode":"inspect","cursor":%q,"matchIndex":2}`, s.Details.Cursor))
	if len(a.Text) > snapshot.MaxResponseBytes || !strings.Contains(a.Text, "needle();") {
		t.Fatalf("long line: %d bytes, match shown: %v\n%.400s", len(a.Text), strings.Contains(a.Text, "needle();"), a.Text)
	}
	walkSource(t, env, a)

	// Partial overlaps inside one batch lose no line: a window of ±15
	// around an import and the function it overlaps.
	a = ask(t, env, `{"mode":"inspect","targets":[{"path":"gap.go","line":4},{"path":"gap.go","line":30}]}`)
	seen = walkSource(t, env, a)
	for line := 1; line <= 50; line++ {
		if seen[line] != 1 {
			t.Fatalf("gap.go line %d shown %d times:\n%s", line, seen[line], a.Text)
		}
	}

	// A batch with an error item is not complete.
	a = ask(t, env, `{"mode":"inspect","targets":[{"path":"demo.go","line":5},{"path":"missing.go","line":1}]}`)
	if a.Details.Status == "complete" {
		t.Fatalf("a batch with an error is %q", a.Details.Status)
	}

	// Deferred targets carry a complete retry request.
	var targets []string
	for i := 0; i < 5; i++ {
		targets = append(targets, fmt.Sprintf(`{"path":"b%d.go","line":31}`, i))
	}
	a = ask(t, env, `{"mode":"inspect","targets":[`+strings.Join(targets, ",")+`]}`)
	raw, _ := json.Marshal(a.Details)
	var det struct {
		Targets []struct {
			Path    string          `json:"path"`
			Outcome string          `json:"outcome"`
			Retry   json.RawMessage `json:"retry"`
		} `json:"targets"`
	}
	json.Unmarshal(raw, &det)
	deferred := 0
	for _, tg := range det.Targets {
		if tg.Outcome != outcomeDeferred {
			continue
		}
		deferred++
		if len(tg.Retry) == 0 {
			t.Fatalf("deferred target %s has no retry request", tg.Path)
		}
		r := ask(t, env, string(tg.Retry))
		if len(r.Details.Targets) != 1 || r.Details.Targets[0].Outcome != outcomeReturned || !strings.HasSuffix(r.Details.Targets[0].Path, tg.Path) {
			t.Fatalf("retry %s of %s: %+v", tg.Retry, tg.Path, r.Details.Targets)
		}
	}
	if deferred == 0 {
		t.Fatalf("no target deferred in a batch of 5 large functions:\n%s", a.Text)
	}
}

// TestBudgetContract (issue 11, point 11): a host's context budget shortens
// an implicit auto answer to about its tokens (characters/4) and says so;
// an explicit limit, mode matches, inspect and cursors are not shortened.
func TestBudgetContract(t *testing.T) {
	files, _ := manyMatches(40)
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	full := ask(t, env, `{"pattern":"needle"}`)
	for _, c := range []struct {
		budget string
		chars  int
	}{{"full", 8000}, {"tight", 4000}, {"critical", 2000}} {
		a := ask(t, env, fmt.Sprintf(`{"pattern":"needle","budget":%q}`, c.budget))
		if len(a.Text) > c.chars {
			t.Errorf("budget %s: %d characters, want at most %d", c.budget, len(a.Text), c.chars)
		}
		if !strings.Contains(a.Text, "Budget "+c.budget) || !strings.Contains(a.Text, fmt.Sprint(c.chars/4)) {
			t.Errorf("budget %s not stated in the text:\n%s", c.budget, a.Text)
		}
		raw, _ := json.Marshal(a.Details)
		if !strings.Contains(string(raw), fmt.Sprintf(`"budget":{"budget":%q`, c.budget)) {
			t.Errorf("budget %s not stated in the details: %s", c.budget, raw)
		}
		if a.Details.Totals.Lines != full.Details.Totals.Lines {
			t.Errorf("budget %s changed the totals", c.budget)
		}
		// Paging the budgeted summary still reaches every file.
		seen := map[string]bool{}
		for p := a; ; {
			for _, f := range p.Details.Files {
				seen[f.Path] = true
			}
			if p.Details.Cursor == "" || p.Details.Mode != ModeSummary {
				break
			}
			p = ask(t, env, fmt.Sprintf(`{"cursor":%q,"budget":%q}`, p.Details.Cursor, c.budget))
		}
		if len(seen) != 40 {
			t.Errorf("budget %s: summary pages list %d files, want 40", c.budget, len(seen))
		}
	}
	// Small results fit a tight budget whole.
	a := ask(t, env, `{"pattern":"needle 3\\.1 ","budget":"critical"}`)
	if a.Details.Mode != ModeMatches || len(a.Details.Matches) != 1 {
		t.Errorf("a one-line result under a critical budget: %s", a.Text)
	}
	// Never applied to explicit limits, matches, inspect or cursors.
	for _, req := range []string{
		`{"pattern":"needle","limit":100,"budget":"critical"}`,
		`{"pattern":"needle","mode":"matches","budget":"critical"}`,
		`{"pattern":"needle","mode":"summary","budget":"critical"}`,
	} {
		a := ask(t, env, req)
		var plain map[string]any
		json.Unmarshal([]byte(req), &plain)
		delete(plain, "budget")
		raw, _ := json.Marshal(plain)
		b := ask(t, env, string(raw))
		raw, _ = json.Marshal(a.Details)
		if strings.Contains(string(raw), `"budget":{`) || len(a.Text) != len(b.Text) || strings.Contains(a.Text, "Budget ") {
			t.Errorf("%s: shortened (%d vs %d characters)", req, len(a.Text), len(b.Text))
		}
	}
	if a := HandleJSON(context.Background(), []byte(`{"pattern":"x","budget":"huge"}`), env); !a.Failed || a.Details.Error.Code != CodeInvalidRequest {
		t.Errorf("an unknown budget is accepted: %s", a.Text)
	}
}

// TestOutlineContract (issue 11, point 10): a directory outline pages with
// a cursor past 16 KiB, lists the files without a parser on one compact
// line, takes items "exports", and its details keep class members.
func TestOutlineContract(t *testing.T) {
	needParser(t)
	files := map[string]string{
		"py/store.py": "class Store:\n    def get(self):\n        pass\n\n    def _evict(self):\n        pass\n\ndef _helper():\n    pass\n",
		"ts/conn.ts":  "export class Conn {\n  send(): void {}\n  private secret(): void {}\n}\nfunction local(): void {}\n",
	}
	for i := 0; i < 60; i++ {
		var b strings.Builder
		b.WriteString("package big\n\n")
		for j := 0; j < 10; j++ {
			fmt.Fprintf(&b, "// Exported%d_%d is a function with a long enough signature to weigh.\nfunc Exported%d_%d(alpha, beta, gamma int) (int, error) {\n\treturn alpha, nil\n}\n\nfunc hidden%d_%d() {}\n\n", i, j, i, j, i, j)
		}
		files[fmt.Sprintf("big/f%02d.go", i)] = b.String()
		files[fmt.Sprintf("big/notes%02d.txt", i)] = "notes\n"
	}
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}

	// Pages with a cursor; every file once; one compact line per page.
	a := ask(t, env, `{"mode":"outline","paths":["big"]}`)
	seen := map[string]int{}
	for pages := 0; ; pages++ {
		if len(a.Text) > snapshot.MaxResponseBytes {
			t.Fatalf("outline page %d is %d bytes", pages, len(a.Text))
		}
		txtLines := 0
		for _, line := range strings.Split(a.Text, "\n") {
			if strings.HasPrefix(line, "big/") && strings.Contains(line, " (go)") {
				seen[strings.Fields(line)[0]]++
			}
			if strings.Contains(line, ".txt") {
				txtLines++
				for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' }) {
					if strings.HasSuffix(f, ".txt") {
						seen[f]++
					}
				}
			}
		}
		if txtLines > 1 {
			t.Fatalf("files without a parser take %d lines of one page:\n%s", txtLines, a.Text)
		}
		if a.Details.Cursor == "" {
			break
		}
		if pages > 30 {
			t.Fatal("outline cursor walk does not end")
		}
		a = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
	}
	if len(seen) != 120 {
		t.Fatalf("outline pages list %d of 120 files", len(seen))
	}
	for f, n := range seen {
		if n != 1 {
			t.Fatalf("%s listed %d times", f, n)
		}
	}

	// items "exports": the public surface only, members included.
	a = ask(t, env, `{"mode":"outline","paths":["py","ts","big/f00.go"],"items":"exports"}`)
	for _, want := range []string{"class Store", "def get(self)", "class Conn", "send(): void", "func Exported0_3("} {
		if !strings.Contains(a.Text, want) {
			t.Errorf("exports outline lacks %q:\n%s", want, a.Text)
		}
	}
	for _, not := range []string{"_evict", "_helper", "secret", "local", "hidden0_"} {
		if strings.Contains(a.Text, not) {
			t.Errorf("exports outline shows %q:\n%s", not, a.Text)
		}
	}

	// A file whose outline alone is over the bound is cut, not sent whole.
	var huge strings.Builder
	huge.WriteString("package huge\n\n")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&huge, "func F%d() {}\n\n", i)
	}
	root2 := tree(t, map[string]string{"huge.go": huge.String(), "b.go": "package huge\n\nfunc B() {}\n"})
	env2 := Env{Store: snapshot.NewMemoryStore(), Cwd: root2}
	a = ask(t, env2, `{"mode":"outline"}`)
	if len(a.Text) > snapshot.MaxResponseBytes || a.Details.Cursor == "" {
		t.Fatalf("a 2,000-item outline: %d bytes, cursor %q", len(a.Text), a.Details.Cursor)
	}
	if b := ask(t, env2, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor)); !strings.Contains(b.Text, "huge.go (go)") || strings.Contains(b.Text, "b.go (go)") {
		t.Fatalf("the next page after b.go:\n%s", b.Text)
	}

	// JSON details keep class members.
	a = ask(t, env, `{"mode":"outline","paths":["py"]}`)
	raw, _ := json.Marshal(a.Details)
	if !strings.Contains(string(raw), `"members":[`) || !strings.Contains(string(raw), `"_evict"`) {
		t.Fatalf("outline details drop class members: %s", raw)
	}
}
