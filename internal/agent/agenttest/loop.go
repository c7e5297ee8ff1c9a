// Package agenttest holds the agent contract's acceptance loop, so that the
// --agent form (internal/agent) and the MCP server (internal/mcpserver)
// replay the very same calls and checks. It is test support: nothing in the
// evgrep binary imports it.
package agenttest

import (
	"fmt"
	"github.com/evgrep/evgrep/syntax"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/agent"
)

// Answerer answers one agent request (JSON) the way a front door does.
type Answerer func(req string) *agent.Answer

// LoopTree writes the loop's tree into dir: 233 TODO lines in 5 files, one
// of them (big.go) a Go function larger than one answer. It returns the
// function's first and last lines.
func LoopTree(t testing.TB, dir string) (declFirst, declLast int) {
	t.Helper()
	big, first, last := bigGo(120)
	files := map[string]string{"big.go": big}
	for name, n := range map[string]int{"a.ts": 50, "b.py": 30, "c.rs": 20, "d.md": 13} {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "x = %d\n// TODO %s %d\n", i, name, i)
		}
		files[name] = b.String()
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return first, last
}

// bigGo returns Go source with one function of n TODO lines, each long, so
// that the declaration is larger than one answer; and the function's first
// and last lines.
func bigGo(n int) (string, int, int) {
	var b strings.Builder
	b.WriteString("package big\n\n// Big is large.\nfunc Big() {\n")
	for i := range n {
		fmt.Fprintf(&b, "\t// TODO %03d: %s\n", i, strings.Repeat("padding ", 18))
	}
	b.WriteString("}\n")
	return b.String(), 3, 4 + n + 1
}

// numbered returns "path:line" → match number of the answer's lines.
func numbered(ms []agent.MatchJSON) map[string]int {
	out := map[string]int{}
	for _, m := range ms {
		out[fmt.Sprintf("%s:%d", m.Path, m.Line)] = m.Match
	}
	return out
}

// lineRow matches a source row of an inspect answer.
var lineRow = regexp.MustCompile(`(?m)^(\d+)\| `)

// FollowSource follows every source cursor of an inspect answer (and of
// its continuations) and returns the source lines shown in all of them.
func FollowSource(t testing.TB, answer Answerer, a *agent.Answer) map[int]bool {
	t.Helper()
	shown := map[int]bool{}
	queue := []*agent.Answer{a}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 50 {
			t.Fatal("source continuations do not end")
		}
		cur := queue[0]
		queue = queue[1:]
		for _, m := range lineRow.FindAllStringSubmatch(cur.Text, -1) {
			n, _ := strconv.Atoi(m[1])
			shown[n] = true
		}
		for _, tg := range cur.Details.Targets {
			if tg.SourceCursor != "" {
				queue = append(queue, answer(fmt.Sprintf(`{"cursor":%q}`, tg.SourceCursor)))
			}
		}
	}
	return shown
}

// Loop is issue 11's acceptance loop over the tree of LoopTree at root:
// summary with its cursor → select 2 files by paths (numbers equal the
// summary's, a file edited in between, the answer unchanged) → page them
// with limit 20 → inspect 3 numbers → continue a large declaration to its
// end. answer must fail the test on an error answer.
func Loop(t testing.TB, root string, declFirst, declLast int, answer Answerer) {
	t.Helper()
	if !syntax.Supported(syntax.Go) {
		t.Skip("the loop inspects declarations: it needs the tree-sitter parsers of a cgo build")
	}
	sum := answer(`{"pattern":"TODO"}`)
	if sum.Details.Mode != agent.ModeSummary || sum.Details.Totals.Lines != 233 || sum.Details.Totals.Files != 5 || sum.Details.SummaryCursor == "" {
		t.Fatalf("summary: %+v\n%s", sum.Details.Totals, sum.Text)
	}
	s := sum.Details.SummaryCursor
	samples := numbered(sum.Details.Matches)
	sampleText := map[int]string{}
	for _, m := range sum.Details.Matches {
		sampleText[m.Match] = m.Text
	}
	// The reference numbering: every match line of the snapshot.
	ref := map[string]int{}
	for a := answer(fmt.Sprintf(`{"cursor":%q,"mode":"matches","limit":100}`, s)); ; {
		for k, v := range numbered(a.Details.Matches) {
			ref[k] = v
		}
		if a.Details.Cursor == "" {
			break
		}
		a = answer(fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
	}
	if len(ref) != 233 {
		t.Fatalf("%d numbered lines, want 233", len(ref))
	}
	// Edited in between: the selection answers from the snapshot.
	if err := os.WriteFile(filepath.Join(root, "a.ts"), []byte("// TODO rewritten\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sel := answer(fmt.Sprintf(`{"cursor":%q,"paths":["a.ts","big.go"]}`, s))
	var got []agent.MatchJSON
	pages := 0
	for a := sel; ; pages++ {
		if len(a.Details.Matches) > 20 {
			t.Fatalf("page of %d lines, limit 20", len(a.Details.Matches))
		}
		got = append(got, a.Details.Matches...)
		if a.Details.Cursor == "" {
			break
		}
		a = answer(fmt.Sprintf(`{"cursor":%q,"limit":20}`, a.Details.Cursor))
	}
	if len(got) != 170 || pages != 8 {
		t.Fatalf("selection paged %d lines in %d pages, want 170 in 9", len(got), pages+1)
	}
	var bigNums []int
	for i, m := range got {
		key := fmt.Sprintf("%s:%d", m.Path, m.Line)
		if m.Path != "a.ts" && m.Path != "big.go" || ref[key] != m.Match {
			t.Fatalf("selected line %s #%d, the summary's numbering says #%d", key, m.Match, ref[key])
		}
		if i > 0 && m.Match <= got[i-1].Match {
			t.Fatalf("match #%d after #%d: repeated or out of order", m.Match, got[i-1].Match)
		}
		if n, ok := samples[key]; ok && (n != m.Match || sampleText[n] != m.Text) {
			t.Fatalf("%s differs from the summary's sample: #%d %q vs #%d %q", key, m.Match, m.Text, n, sampleText[n])
		}
		if m.Path == "a.ts" && !strings.HasPrefix(m.Text, "// TODO a.ts ") {
			t.Fatalf("the edited file's line changed: %q", m.Text)
		}
		if m.Path == "big.go" {
			bigNums = append(bigNums, m.Match)
		}
	}
	if bigNums[len(bigNums)-1]-bigNums[0] != len(bigNums)-1 {
		t.Fatalf("gap in big.go's numbers: %v", bigNums)
	}
	in := answer(fmt.Sprintf(`{"cursor":%q,"mode":"inspect","matchIndices":[%d,%d,%d]}`, s, bigNums[0], bigNums[60], bigNums[119]))
	var decl *agent.DeclJSON
	for _, tg := range in.Details.Targets {
		if tg.Outcome == "error" {
			t.Fatalf("inspect target failed: %+v", tg)
		}
		if tg.Decl != nil {
			decl = tg.Decl
		}
	}
	if decl == nil || decl.Name != "Big" || decl.StartLine != declFirst || decl.EndLine != declLast {
		t.Fatalf("inspect did not find func Big (%d–%d): %+v\n%s", declFirst, declLast, decl, in.Text)
	}
	shown := FollowSource(t, answer, in)
	var missing []int
	for n := declFirst + 1; n <= declLast; n++ {
		if !shown[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		t.Fatalf("lines of func Big never shown by inspect and its continuations: %v", missing)
	}
}

// Paging is the acceptance's paging case over a tree whose x.txt holds 33
// "needle" lines: limit 20 gives 20 and then 13, without a repeat or a gap.
func Paging(t testing.TB, answer Answerer) {
	t.Helper()
	a := answer(`{"pattern":"needle","limit":20}`)
	if len(a.Details.Matches) != 20 || a.Details.Cursor == "" {
		t.Fatalf("first page: %d lines, cursor %q\n%s", len(a.Details.Matches), a.Details.Cursor, a.Text)
	}
	b := answer(fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
	if len(b.Details.Matches) != 13 || b.Details.Cursor != "" {
		t.Fatalf("second page: %d lines, cursor %q\n%s", len(b.Details.Matches), b.Details.Cursor, b.Text)
	}
	for i, m := range append(a.Details.Matches, b.Details.Matches...) {
		if m.Match != i+1 {
			t.Fatalf("position %d holds #%d", i, m.Match)
		}
	}
}

// PagingTree writes Paging's tree into dir.
func PagingTree(t testing.TB, dir string) {
	t.Helper()
	var b strings.Builder
	for i := range 33 {
		fmt.Fprintf(&b, "filler %d\nneedle x.txt %d\n", i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
