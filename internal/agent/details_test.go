package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
)

// hostileShape is a tree whose answers would carry far more details than
// text: many occurrences a line, long lines of characters JSON escapes,
// long paths, many files, context of escaped characters.
type hostileShape struct {
	name  string
	files map[string]string
	// context is the matches pages' context.
	context int
}

func hostileShapes() []hostileShape {
	ranges := strings.Repeat("x ", 25) + "\n"
	escaped := strings.Repeat("<&>", 3000)
	ctrl := strings.Repeat("\x01", 9000)
	var shapes []hostileShape
	add := func(name string, ctx int, files map[string]string) {
		shapes = append(shapes, hostileShape{name: name, files: files, context: ctx})
	}
	add("many ranges per line", 0, map[string]string{"a.txt": strings.Repeat(ranges, 100)})
	add("many ranges per line, many files", 0, func() map[string]string {
		m := map[string]string{}
		for i := 0; i < 40; i++ {
			m[fmt.Sprintf("f%02d.txt", i)] = strings.Repeat(ranges, 20)
		}
		return m
	}())
	add("long lines of escaped characters", 0, map[string]string{
		"a.txt": strings.Repeat(escaped+" x "+escaped+"\n", 60),
		"b.txt": strings.Repeat(ctrl+" x "+ctrl+"\n", 60),
	})
	add("context of escaped characters", 20, map[string]string{
		"a.txt": strings.Repeat("x x x x x x x x x x x x x x x x x x x x x\n"+strings.Repeat(escaped[:900]+"\n", 12), 40),
	})
	add("long paths", 0, func() map[string]string {
		m := map[string]string{}
		dir := strings.Repeat(strings.Repeat("<", 200)+"/", 6)
		for i := 0; i < 30; i++ {
			m[fmt.Sprintf("%s%03d%s.txt", dir, i, strings.Repeat("&", 200))] = "x x x\nx\n"
		}
		return m
	}())
	add("many files", 2, func() map[string]string {
		m := map[string]string{}
		for i := 0; i < 600; i++ {
			m[fmt.Sprintf("d%d/%s%04d.txt", i%7, strings.Repeat("n", 60), i)] = "before\nx <x> x\nafter\n"
		}
		return m
	}())
	return shapes
}

// detailsOf is an answer's details as the CLI and the MCP server send
// them.
func detailsOf(t *testing.T, a *Answer) []byte {
	t.Helper()
	b, err := json.Marshal(a.Details)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkBounded fails when the answer's text or details pass their bounds,
// or when the details needed the last guard (builtByPage: the page builder
// itself must keep them within the bound, moving its cursor).
func checkBounded(t *testing.T, what string, a *Answer, builtByPage bool) {
	t.Helper()
	if len(a.Text) > responseBudget {
		t.Errorf("%s: text %d bytes, bound %d", what, len(a.Text), responseBudget)
	}
	if n := len(detailsOf(t, a)); n > MaxDetailsBytes {
		t.Errorf("%s: details %d bytes, bound %d", what, n, MaxDetailsBytes)
	}
	if builtByPage {
		for _, n := range a.Details.Notes {
			if strings.Contains(n, "were left out") {
				t.Errorf("%s: the page needed the last guard: %s", what, n)
			}
		}
	}
}

// TestDetailsBoundedHostileShapes pages every hostile shape to its end as
// matches (limit 100) and as a summary: every answer's text and details are
// within their bounds, the page builder (not the guard) keeps them there,
// and the walk shows every line (and every file) exactly once.
func TestDetailsBoundedHostileShapes(t *testing.T) {
	for _, sh := range hostileShapes() {
		t.Run(sh.name, func(t *testing.T) {
			root := tree(t, sh.files)
			env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
			a := ask(t, env, fmt.Sprintf(`{"pattern":"x","mode":"matches","limit":100,"context":%d}`, sh.context))
			total := a.Details.Totals.Retained
			if total == 0 || a.Details.Totals.Partial {
				t.Fatalf("shape gives %+v", a.Details.Totals)
			}
			seen := map[int]int{}
			where := map[string]bool{}
			for pages := 0; ; pages++ {
				checkBounded(t, fmt.Sprintf("matches page %d", pages), a, true)
				if pages > total {
					t.Fatal("matches walk does not end")
				}
				for _, m := range a.Details.Matches {
					seen[m.Match]++
					where[fmt.Sprintf("%s:%d", m.Path, m.Line)] = true
				}
				if a.Details.Page.Count != len(a.Details.Matches) {
					t.Fatalf("page %d: count %d, %d entries", pages, a.Details.Page.Count, len(a.Details.Matches))
				}
				if a.Details.Cursor == "" {
					break
				}
				a = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
			}
			for n := 1; n <= total; n++ {
				if seen[n] != 1 {
					t.Fatalf("match #%d shown %d times (total %d)", n, seen[n], total)
				}
			}
			if len(seen) != total || len(where) != total {
				t.Fatalf("walk showed %d numbers, %d lines; %d retained", len(seen), len(where), total)
			}

			a = ask(t, env, `{"pattern":"x","mode":"summary"}`)
			files := map[string]int{}
			for pages := 0; ; pages++ {
				checkBounded(t, fmt.Sprintf("summary page %d", pages), a, true)
				if pages > a.Details.Totals.Files {
					t.Fatal("summary walk does not end")
				}
				for _, f := range a.Details.Files {
					files[f.Path]++
				}
				if a.Details.Cursor == "" {
					break
				}
				a = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
			}
			if len(files) != a.Details.Totals.Files {
				t.Fatalf("summary walk listed %d files of %d", len(files), a.Details.Totals.Files)
			}
			for p, n := range files {
				if n != 1 {
					t.Fatalf("file %s listed %d times", p, n)
				}
			}
		})
	}
}

// TestDetailsBoundedOutline: an outline of one file with thousands of
// declarations and of many files is bounded in its details too, and its
// cursor walk lists every file once.
func TestDetailsBoundedOutline(t *testing.T) {
	needParser(t)
	var big strings.Builder
	big.WriteString("package p\n\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&big, "// F%d does <&>.\nfunc F%d(a, b int) (int, error) { return a + b, nil }\n\n", i, i)
	}
	files := map[string]string{"big.go": big.String()}
	for i := 0; i < 300; i++ {
		var b strings.Builder
		b.WriteString("package p\n\n")
		for j := 0; j < 12; j++ {
			fmt.Fprintf(&b, "func G%d_%d(x <-chan int) {}\n", i, j)
		}
		files[fmt.Sprintf("pkg%03d/%s.go", i, strings.Repeat("m", 80))] = b.String()
		files[fmt.Sprintf("pkg%03d/%s.txt", i, strings.Repeat("&", 80))] = "text\n"
	}
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	for _, items := range []string{"all", "exports"} {
		a := ask(t, env, fmt.Sprintf(`{"mode":"outline","items":%q}`, items))
		listed := map[string]int{}
		for pages := 0; ; pages++ {
			checkBounded(t, fmt.Sprintf("outline %s page %d", items, pages), a, true)
			if pages > len(files) {
				t.Fatal("outline walk does not end")
			}
			for _, fo := range a.Details.Outlines {
				listed[fo.Path]++
			}
			for _, p := range a.Details.OtherFiles {
				listed[p]++
			}
			if a.Details.Cursor == "" {
				break
			}
			a = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
		}
		if len(listed) != len(files) {
			t.Fatalf("%s: outline walk listed %d files of %d", items, len(listed), len(files))
		}
		for p, n := range listed {
			if n != 1 {
				t.Fatalf("%s: %s listed %d times", items, p, n)
			}
		}
	}
}

// TestDetailsBoundedErrorsAndInspect: error answers that echo a huge
// pattern or path of escaped characters, and an inspect batch of long
// paths, stay within the details bound.
func TestDetailsBoundedErrorsAndInspect(t *testing.T) {
	long := strings.Repeat("<", 200)
	var targets []Target
	files := map[string]string{}
	for i := 0; i < maxInspectBatch; i++ {
		p := fmt.Sprintf("%s/%s/%s/%s/%d.txt", long, long, long, long, i)
		files[p] = strings.Repeat("<&> line\n", 40)
		targets = append(targets, Target{Path: p, Line: 20})
	}
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	tj, _ := json.Marshal(targets)
	cases := []struct {
		name, req string
		failed    bool
	}{
		{"bad regex of escaped characters", fmt.Sprintf(`{"pattern":%q}`, "("+strings.Repeat("<\x01", 200000)), true},
		{"missing path of escaped characters", fmt.Sprintf(`{"pattern":"x","path":%q}`, strings.Repeat("&", 4000)), true},
		{"unknown field", fmt.Sprintf(`{%q:1}`, strings.Repeat("<", 100000)), true},
		{"many sub-paths", fmt.Sprintf(`{"pattern":"zzz","paths":%s}`, func() string {
			var ps []string
			for p := range files {
				for i := 0; i < 20; i++ {
					ps = append(ps, p)
				}
			}
			b, _ := json.Marshal(ps)
			return string(b)
		}()), false},
		{"inspect long paths", fmt.Sprintf(`{"mode":"inspect","targets":%s}`, tj), false},
	}
	for _, c := range cases {
		a := HandleJSON(context.Background(), []byte(c.req), env)
		if a.Failed != c.failed {
			t.Errorf("%s: failed %v: %.300s", c.name, a.Failed, a.Text)
		}
		checkBounded(t, c.name, a, false)
		for _, tj := range a.Details.Targets {
			if tj.Outcome == outcomeError {
				t.Errorf("%s: target %s: %s", c.name, tj.Path, tj.Error)
			}
		}
		if strings.HasPrefix(c.name, "inspect") && len(a.Details.Targets) != maxInspectBatch {
			t.Errorf("%s: %d targets in the details", c.name, len(a.Details.Targets))
		}
	}
}

// TestBoundDetailsGuard: the last guard leaves out entries from the end,
// says how many, and marks the answer partial.
func TestBoundDetailsGuard(t *testing.T) {
	for _, n := range []int{0, 10, 1000} {
		d := Details{Status: "complete"}
		for i := 0; i < n; i++ {
			d.Matches = append(d.Matches, MatchJSON{Match: i + 1, Path: strings.Repeat("<", 100), Text: "x"})
		}
		before := len(d.Matches)
		boundDetails(&d)
		if got := detailsSize(d); got > MaxDetailsBytes {
			t.Fatalf("%d entries: %d bytes after the guard", n, got)
		}
		fired := len(d.Matches) < before
		if fired != (len(d.Notes) == 1) || fired != (d.Status == "partial") {
			t.Fatalf("%d entries: kept %d, notes %q, status %s", n, len(d.Matches), d.Notes, d.Status)
		}
		if n == 1000 && !fired {
			t.Fatalf("1000 entries of %d bytes kept", detailsSize(d.Matches[0]))
		}
	}
}

// TestShortenJSON: the shortened string's JSON is within the bound for
// strings of escaped characters, and plain strings are shortened as
// shorten does.
func TestShortenJSON(t *testing.T) {
	for _, s := range []string{strings.Repeat("a", 2000), strings.Repeat("<", 2000), strings.Repeat("\x01é", 900), strings.Repeat("\xff", 3000), "short<"} {
		got := shortenJSON(s, maxEchoBytes)
		b, _ := json.Marshal(got)
		if len(b)-2 > maxEchoBytes {
			t.Errorf("%.20q: %d bytes as JSON", s, len(b)-2)
		}
		if jsonCost(got) != len(b) {
			t.Errorf("%.20q: jsonCost %d, json.Marshal %d", got, jsonCost(got), len(b))
		}
		if jsonCost(s) == len(s)+2 && got != shorten(s, maxEchoBytes) {
			t.Errorf("plain string shortened differently")
		}
	}
}
