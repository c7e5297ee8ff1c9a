package main

// These tests cover the harness's own logic. They never run the search
// tools and never time anything; the runner is exercised on this test
// binary re-executed as a helper process.

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	cases := []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{3, 1}, 2},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{1, 1, 9, 9, 1}, 1},
	}
	for _, c := range cases {
		in := append([]float64(nil), c.in...)
		if got := median(in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
		if !reflect.DeepEqual(in, c.in) && c.in != nil {
			t.Errorf("median(%v) reordered its input to %v", c.in, in)
		}
	}
}

func TestLineCounter(t *testing.T) {
	cases := []struct {
		chunks []string
		want   int64
	}{
		{nil, 0},
		{[]string{""}, 0},
		{[]string{"a"}, 1},
		{[]string{"a\n"}, 1},
		{[]string{"a\nb"}, 2},
		{[]string{"a", "b\n", "c"}, 2},
		{[]string{"\n\n", "\n"}, 3},
		{[]string{"x\n", ""}, 1},
	}
	for _, c := range cases {
		var lc lineCounter
		for _, ch := range c.chunks {
			if n, err := lc.Write([]byte(ch)); n != len(ch) || err != nil {
				t.Fatalf("Write(%q) = %d, %v", ch, n, err)
			}
		}
		if got := lc.Lines(); got != c.want {
			t.Errorf("lines of %q = %d, want %d", c.chunks, got, c.want)
		}
	}
}

func TestHeadBuffer(t *testing.T) {
	h := &headBuffer{max: 5}
	for _, p := range []string{"abc", "defg", "hij"} {
		if n, err := h.Write([]byte(p)); n != len(p) || err != nil {
			t.Fatalf("Write(%q) = %d, %v; want all bytes accepted", p, n, err)
		}
	}
	if got := h.buf.String(); got != "abcde" {
		t.Errorf("kept %q, want %q", got, "abcde")
	}
}

func TestShellQuote(t *testing.T) {
	cases := map[string]string{
		"plain":          "plain",
		"--color=never":  "--color=never",
		"":               "''",
		"a b":            "'a b'",
		`\p{Greek}`:      `'\p{Greek}'`,
		"it's":           `'it'\''s'`,
		"a|b":            "'a|b'",
		"/usr/local/go":  "/usr/local/go",
		"Фицпатрик":      "'Фицпатрик'",
		"--exclude=.*":   "'--exclude=.*'",
		"tiny-go1.26.8":  "tiny-go1.26.8",
		"large_file.txt": "large_file.txt",
	}
	for in, want := range cases {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestInvocation(t *testing.T) {
	tree := Target{Path: "/corp/goroot"}
	file := Target{Path: "/cache/large.txt", IsFile: true}
	lit := Query{Pattern: "Foo", Syntax: Literal}
	litNI := Query{Pattern: "Foo", Syntax: Literal, LineNumber: true, IgnoreCase: true, Word: true}
	perl := Query{Pattern: `\p{Greek}`, Syntax: Perl}
	ere := Query{Pattern: "a|b", Syntax: Extended, IgnoreCase: true}
	files := Query{Files: true}
	pcre := Query{Pattern: `(?<=a)b`, Syntax: Perl, Engine: "pcre2"}
	multi := Query{Pattern: `a\n.{9,}`, Syntax: Extended, Multiline: true}
	agent := Query{Pattern: "Foo", Syntax: Literal, Agent: true}
	tool := func(name string) Tool { return Tool{Name: name, Path: "/bin/" + strings.Fields(name)[0]} }
	cases := []struct {
		tool   string
		q      Query
		tg     Target
		ok     bool
		dir    string
		args   []string
		reason string
	}{
		{toolRg, lit, tree, true, "/corp", []string{"/bin/rg", "--color=never", "-N", "-e", "Foo", "goroot"}, "no line numbers by default"},
		{toolEvgrep, litNI, tree, true, "/corp", []string{"/bin/evgrep", "--color=never", "-n", "-i", "-w", "-e", "Foo", "goroot"}, "same flags as rg"},
		{toolRg, files, tree, true, "/corp", []string{"/bin/rg", "--color=never", "--files", "goroot"}, "--files"},
		{toolRg, perl, file, true, "/cache", []string{"/bin/rg", "--color=never", "-N", "-e", `\p{Greek}`, "large.txt"}, "single file"},
		{toolGrep, lit, tree, true, "/corp", []string{"/bin/grep", "-r", "-I", "--color=never", "-F", "-e", "Foo", "--exclude=.*", "--exclude-dir=.*", "goroot"}, "hidden files excluded"},
		{toolGrep, litNI, tree, true, "/corp", []string{"/bin/grep", "-r", "-I", "--color=never", "-n", "-i", "-w", "-F", "-e", "Foo", "--exclude=.*", "--exclude-dir=.*", "goroot"}, "flags"},
		{toolGrep, perl, file, true, "/cache", []string{"/bin/grep", "-r", "-I", "--color=never", "-P", "-e", `\p{Greek}`, "large.txt"}, "PCRE, no excludes for a file"},
		{toolGrep, files, tree, false, "", nil, "no --files"},
		{toolGitGrep, ere, tree, true, "/corp/goroot", []string{"/bin/git", "--no-pager", "grep", "--no-index", "-I", "--no-color", "-i", "-E", "-e", "a|b", "--", ".", ":(exclude,glob)**/.*"}, "runs inside the tree"},
		{toolGitGrep, lit, file, true, "/cache", []string{"/bin/git", "--no-pager", "grep", "--no-index", "-I", "--no-color", "-F", "-e", "Foo", "--", "large.txt"}, "file pathspec"},
		{toolGitGrep, files, tree, false, "", nil, "no --files"},
		{toolUgrep, lit, tree, true, "/corp", []string{"/bin/ugrep", "-r", "-I", "--color=never", "-F", "-e", "Foo", "goroot"}, "literal"},
		{toolUgrep, perl, tree, true, "/corp", []string{"/bin/ugrep", "-r", "-I", "--color=never", "-e", `\p{Greek}`, "goroot"}, "native \\p"},
		{toolUgrep, files, file, false, "", nil, "no --files"},
		{toolRg, lit, Target{Path: "/"}, true, "/", []string{"/bin/rg", "--color=never", "-N", "-e", "Foo", "."}, "the root directory"},
		{toolEvgrep, pcre, tree, true, "/corp", []string{"/bin/evgrep", "--color=never", "--engine", "pcre2", "-N", "-e", `(?<=a)b`, "goroot"}, "an engine"},
		{toolGrep, pcre, tree, true, "/corp", []string{"/bin/grep", "-r", "-I", "--color=never", "-P", "-e", `(?<=a)b`, "--exclude=.*", "--exclude-dir=.*", "goroot"}, "grep -P"},
		{toolUgrep, pcre, tree, true, "/corp", []string{"/bin/ugrep", "-r", "-I", "--color=never", "-P", "-e", `(?<=a)b`, "goroot"}, "ugrep -P"},
		{toolRg, multi, tree, true, "/corp", []string{"/bin/rg", "--color=never", "-U", "-N", "-e", `a\n.{9,}`, "goroot"}, "-U"},
		{toolGrep, multi, tree, false, "", nil, "no -U"},
		{toolEvgrep, agent, tree, true, "/corp", []string{"/bin/evgrep", "--agent", `{"path":"goroot","pattern":"Foo"}`}, "one agent call"},
		{toolRg, agent, tree, true, "/corp", []string{"/bin/rg", "--json", "--hidden", "--smart-case", "-e", "Foo", "goroot"}, "rg --json, the agent's defaults"},
		{toolGitGrep, agent, tree, false, "", nil, "no agent equivalent"},
	}
	for _, c := range cases {
		inv, ok := tool(c.tool).Invocation(c.q, c.tg)
		if ok != c.ok {
			t.Errorf("%s %s (%s): ok = %v, want %v", c.tool, c.q.Pattern, c.reason, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if inv.Dir != c.dir || !reflect.DeepEqual(inv.Args, c.args) {
			t.Errorf("%s (%s):\n got  %s in %s\n want %q in %s", c.tool, c.reason, inv, inv.Dir, c.args, c.dir)
		}
	}
}

func TestParseToolList(t *testing.T) {
	cases := []struct {
		in      string
		want    []string
		wantErr bool
	}{
		{"rg,evgrep", []string{toolRg, toolEvgrep}, false},
		{" rg , git ", []string{toolRg, toolGitGrep}, false},
		{"git grep", []string{toolGitGrep}, false},
		{"ack", nil, true},
		{",", nil, true},
	}
	for _, c := range cases {
		got, err := parseToolList(c.in)
		if (err != nil) != c.wantErr || !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseToolList(%q) = %q, %v; want %q, error %v", c.in, got, err, c.want, c.wantErr)
		}
	}
}

func TestParseOptions(t *testing.T) {
	cases := []struct {
		args    []string
		check   func(*options) bool
		wantErr bool
	}{
		{nil, func(o *options) bool {
			return o.runs == defaultRuns && o.timeout == defaultTimeout && o.others == defaultOthersTimeout &&
				o.budget == defaultBudget && o.name == "latest" && !o.quick
		}, false},
		{[]string{"--quick"}, func(o *options) bool {
			return o.runs == quickRuns && o.timeout == quickTimeout && o.others == quickOthersTimeout &&
				o.budget == quickBudget && o.name == "quick"
		}, false},
		{[]string{"--quick", "--runs", "7", "--name", "x"}, func(o *options) bool { return o.runs == 7 && o.name == "x" }, false},
		{[]string{"--corpus", "a", "--corpus", "b"}, func(o *options) bool { return reflect.DeepEqual(o.corpora, []string{"a", "b"}) }, false},
		{[]string{"--only", "goroot/.*"}, func(o *options) bool { return o.only.MatchString("goroot/literal") }, false},
		{[]string{"--runs", "-1"}, nil, true},
		{[]string{"--others-timeout", "-1s"}, nil, true},
		{[]string{"--tools", "ack"}, nil, true},
		{[]string{"--only", "("}, nil, true},
		{[]string{"--name", "../x"}, nil, true},
		{[]string{"stray"}, nil, true},
		{[]string{"--no-such-flag"}, nil, true},
	}
	for _, c := range cases {
		o, err := parseOptions(c.args, io.Discard)
		if (err != nil) != c.wantErr {
			t.Errorf("parseOptions(%q): error %v, want error %v", c.args, err, c.wantErr)
			continue
		}
		if err == nil && !c.check(o) {
			t.Errorf("parseOptions(%q) = %+v", c.args, *o)
		}
	}
}

func TestSelectJobs(t *testing.T) {
	corpora := []Corpus{{Name: "goroot", Kind: Tree}, {Name: "small", Kind: Small}, {Name: "tiny", Kind: Tiny}, {Name: "large", Kind: Large}}
	ids := func(jobs []Job) []string {
		var out []string
		for _, j := range jobs {
			out = append(out, j.ID())
			if j.Query.Kind != j.Corpus.Kind {
				t.Errorf("%s: query kind %v on a %v corpus", j.ID(), j.Query.Kind, j.Corpus.Kind)
			}
		}
		return out
	}
	all := ids(selectJobs(corpora, &options{}))
	if want := len(treeQueries) + len(smallQueries) + len(tinyQueries) + len(largeQueries); len(all) != want {
		t.Errorf("full suite: %d jobs, want %d", len(all), want)
	}
	seen := map[string]bool{}
	for _, id := range all {
		if seen[id] {
			t.Errorf("duplicate job id %s", id)
		}
		seen[id] = true
	}
	quick := ids(selectJobs(corpora, &options{quick: true}))
	for _, id := range quick {
		if strings.HasPrefix(id, "large/") {
			t.Errorf("quick subset has large-file job %s", id)
		}
	}
	if len(quick) == 0 || len(quick) >= len(all) {
		t.Errorf("quick subset has %d of %d jobs", len(quick), len(all))
	}
	o, err := parseOptions([]string{"--only", `^goroot/literal( -i)?$`}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(selectJobs(corpora, o)); !reflect.DeepEqual(got, []string{"goroot/literal", "goroot/literal -i"}) {
		t.Errorf("--only: %q", got)
	}
}

func TestQueryListCoversTheIssue(t *testing.T) {
	has := func(qs []Query, pred func(Query) bool) bool {
		for _, q := range qs {
			if pred(q) {
				return true
			}
		}
		return false
	}
	checks := []struct {
		name string
		qs   []Query
		pred func(Query) bool
	}{
		{"literal", treeQueries, func(q Query) bool { return q.Syntax == Literal && q.Flags() == "" }},
		{"literal -n", treeQueries, func(q Query) bool { return q.Syntax == Literal && q.Flags() == "-n" }},
		{"literal -i", treeQueries, func(q Query) bool { return q.Syntax == Literal && q.Flags() == "-i" }},
		{"literal -w", treeQueries, func(q Query) bool { return q.Syntax == Literal && q.Flags() == "-w" }},
		{"literal suffix", treeQueries, func(q Query) bool { return q.Pattern == "[A-Z][a-z]+Error" }},
		{"4-way alternation", treeQueries, func(q Query) bool { return strings.Count(q.Pattern, "|") == 3 && !q.IgnoreCase }},
		{"4-way alternation -i", treeQueries, func(q Query) bool { return strings.Count(q.Pattern, "|") == 3 && q.IgnoreCase }},
		{"greek", treeQueries, func(q Query) bool { return q.Pattern == `\p{Greek}` }},
		{"unicode word", treeQueries, func(q Query) bool { return q.Pattern == `\wAh` }},
		{"no literal", treeQueries, func(q Query) bool { return strings.Count(q.Pattern, `\w{5}`) == 5 }},
		{"files", treeQueries, func(q Query) bool { return q.Files }},
		{"large literal", largeQueries, func(q Query) bool { return q.Syntax == Literal && q.Flags() == "" }},
		{"large literal -i", largeQueries, func(q Query) bool { return q.Syntax == Literal && q.IgnoreCase }},
		{"large 5-way", largeQueries, func(q Query) bool { return strings.Count(q.Pattern, "|") == 4 }},
		{"large surrounding words", largeQueries, func(q Query) bool { return q.Pattern == `\w+\s+Reader\s+\w+` }},
		{"large non-ASCII literal", largeQueries, func(q Query) bool {
			return q.Syntax == Literal && strings.IndexFunc(q.Pattern, func(r rune) bool { return r > 127 }) >= 0
		}},
		{"tiny", tinyQueries, func(q Query) bool { return true }},
		// Issue 23's jobs.
		{"pcre2 look-behind", treeQueries, func(q Query) bool { return q.Engine == "pcre2" && strings.Contains(q.Pattern, "(?<=") }},
		{"auto look-behind", treeQueries, func(q Query) bool { return q.Engine == "auto" && strings.Contains(q.Pattern, "(?<=") }},
		{"-U counted repetition", treeQueries, func(q Query) bool { return q.Multiline && strings.Contains(q.Pattern, ",}") }},
		{"agent call", smallQueries, func(q Query) bool { return q.Agent }},
	}
	for _, c := range checks {
		if !has(c.qs, c.pred) {
			t.Errorf("no %s query", c.name)
		}
	}
}

func TestPlan(t *testing.T) {
	p := plan{runs: minCoreRounds + 1, share: 10 * time.Second, left: 20 * time.Second}
	cases := []struct {
		round    int
		spent    time.Duration
		lastFull time.Duration
		lastCore time.Duration
		want     roundKind
	}{
		{1, time.Hour, time.Hour, time.Hour, roundAll}, // the minimum always runs in full
		{2, 2 * time.Second, 3 * time.Second, time.Second, roundAll},
		{2, 8 * time.Second, 3 * time.Second, time.Second, roundCore},
		{2, 18 * time.Second, 3 * time.Second, 3 * time.Second, roundStop},
		{3, 9 * time.Second, time.Second, time.Second, roundAll},
		// Past the share, evgrep and rg go on up to minCoreRounds within the budget left.
		{2, 12 * time.Second, 3 * time.Second, time.Second, roundCore},
		{minCoreRounds, 18 * time.Second, 3 * time.Second, 2 * time.Second, roundCore},
		{minCoreRounds, 18 * time.Second, 3 * time.Second, 3 * time.Second, roundStop},
		{minCoreRounds + 1, 12 * time.Second, 3 * time.Second, time.Second, roundStop},
		{minCoreRounds + 2, 0, 0, 0, roundStop}, // never more than runs
	}
	for _, c := range cases {
		if got := p.next(c.round, c.spent, c.lastFull, c.lastCore); got != c.want {
			t.Errorf("next(%d, %s, %s, %s) = %v, want %v", c.round, c.spent, c.lastFull, c.lastCore, got, c.want)
		}
	}
}

// fakeExecer answers runs from a script keyed by the tool's executable.
type fakeExecer struct {
	calls    []string
	timeouts map[string]time.Duration
	begins   int
	script   map[string]func(n int) Sample
}

func (f *fakeExecer) beginJob() { f.begins++ }

func (f *fakeExecer) run(inv Invocation, timeout time.Duration) Sample {
	name := inv.Args[0]
	if f.timeouts == nil {
		f.timeouts = map[string]time.Duration{}
	}
	f.timeouts[name] = timeout
	n := 0
	for _, c := range f.calls {
		if c == name {
			n++
		}
	}
	f.calls = append(f.calls, name)
	return f.script[name](n)
}

func TestMeasureJob(t *testing.T) {
	ok := func(sec float64, lines int64) func(int) Sample {
		return func(int) Sample {
			return Sample{Wall: time.Duration(sec * float64(time.Second)), Lines: lines, MaxRSSKiB: 1000}
		}
	}
	f := &fakeExecer{script: map[string]func(int) Sample{
		"ev": ok(2, 10),
		"rg": ok(1, 10),
		// git grep times out in its second timed run (third call).
		"git": func(n int) Sample {
			if n == 2 {
				return Sample{TimedOut: true, Exit: -1}
			}
			return Sample{Wall: time.Second, Lines: 11}
		},
	}}
	tools := []Tool{{Name: toolEvgrep, Path: "ev", Timeout: time.Minute}, {Name: toolRg, Path: "rg", Timeout: time.Minute},
		{Name: toolGitGrep, Path: "git", Timeout: time.Second}}
	j := Job{Corpus: Corpus{Name: "c", Kind: Tree, Path: "/c"}, Query: Query{Name: "q", Pattern: "x"}}
	cells := measureJob(f, j, tools, plan{runs: 3, share: time.Hour}, io.Discard)
	if f.begins != 1 {
		t.Errorf("beginJob called %d times", f.begins)
	}
	want := []string{
		"ev", "rg", "git", // warm-up, in order
		"rg", "git", "ev", // round 1 starts at tool 1
		"git", "ev", "rg", // round 2 starts at tool 2; git times out
		"ev", "rg", // round 3: git dropped
	}
	if !reflect.DeepEqual(f.calls, want) {
		t.Errorf("run order %q, want %q", f.calls, want)
	}
	if f.timeouts["ev"] != time.Minute || f.timeouts["git"] != time.Second {
		t.Errorf("timeouts %v: each tool must run with its own", f.timeouts)
	}
	if len(cells[0].samples) != 3 || len(cells[2].samples) != 2 || !cells[2].dropped {
		t.Errorf("samples: ev %d, git %d (dropped %v)", len(cells[0].samples), len(cells[2].samples), cells[2].dropped)
	}
	jr := jobResult(j, cells)
	if jr.Ratio == nil || *jr.Ratio != 2 {
		t.Errorf("ratio = %v, want 2", jr.Ratio)
	}
	if jr.RgLines == nil || *jr.RgLines != 10 || jr.EvgrepAgrees == nil || !*jr.EvgrepAgrees {
		t.Errorf("rg lines %v, evgrep agrees %v", jr.RgLines, jr.EvgrepAgrees)
	}
	if g := jr.Results[2]; g.Status != statusTimeout || g.Agrees != nil {
		t.Errorf("git grep result %+v, want a timeout without a count verdict", g)
	}
	if got := toolCell(jr.Results[2]); got != "timeout (>1 s)" {
		t.Errorf("git grep cell %q", got)
	}
}

func TestMeasureJobSkipsInapplicableAndBudget(t *testing.T) {
	f := &fakeExecer{script: map[string]func(int) Sample{
		"rg":   func(int) Sample { return Sample{Wall: time.Millisecond, Lines: 3} },
		"grep": func(int) Sample { panic("grep has no --files and must not run") },
	}}
	tools := []Tool{{Name: toolRg, Path: "rg"}, {Name: toolGrep, Path: "grep"}}
	j := Job{Corpus: Corpus{Name: "c", Kind: Tree, Path: "/c"}, Query: Query{Name: "files", Files: true}}
	// A zero share: the warm-up and the minimum rounds only.
	cells := measureJob(f, j, tools, plan{runs: 10, share: 0}, io.Discard)
	if got := len(cells[0].samples); got != minTimedRounds {
		t.Errorf("rg got %d timed runs with no budget, want %d", got, minTimedRounds)
	}
	jr := jobResult(j, cells)
	if jr.Results[1].Status != statusNA {
		t.Errorf("grep status %q, want %q", jr.Results[1].Status, statusNA)
	}
}

// clockExecer is a fakeExecer on a fake clock that advances by each run's
// wall time.
type clockExecer struct {
	fakeExecer
	clock time.Time
}

func (c *clockExecer) run(inv Invocation, timeout time.Duration) Sample {
	s := c.fakeExecer.run(inv, timeout)
	c.clock = c.clock.Add(s.Wall)
	return s
}

func TestMeasureJobCoreRounds(t *testing.T) {
	secs := func(n int) func(int) Sample {
		return func(int) Sample { return Sample{Wall: time.Duration(n) * time.Second, Lines: 1} }
	}
	c := &clockExecer{clock: time.Unix(1e9, 0), fakeExecer: fakeExecer{script: map[string]func(int) Sample{
		"ev": secs(1), "rg": secs(1), "ug": secs(10),
	}}}
	saved := now
	now = func() time.Time { return c.clock }
	t.Cleanup(func() { now = saved })
	tools := []Tool{{Name: toolEvgrep, Path: "ev"}, {Name: toolRg, Path: "rg"}, {Name: toolUgrep, Path: "ug"}}
	j := Job{Corpus: Corpus{Name: "c", Kind: Tree, Path: "/c"}, Query: Query{Name: "q", Pattern: "x"}}
	// Warm-up 12 s, round 1 in full (24 s), then a full round would pass
	// the 30 s share but rounds of evgrep and rg (2 s) fit until 30 s.
	cells := measureJob(c, j, tools, plan{runs: 4, share: 30 * time.Second}, io.Discard)
	if got := []int{len(cells[0].samples), len(cells[1].samples), len(cells[2].samples)}; !reflect.DeepEqual(got, []int{4, 4, 1}) {
		t.Errorf("timed runs evgrep, rg, ugrep = %v, want [4 4 1]", got)
	}
	core, others := shortRuns(jobResult(j, cells), 4)
	if core || !others {
		t.Errorf("shortRuns = %v, %v; want false, true", core, others)
	}
	// With a 26 s share, the budget ends after one core round.
	c.calls, c.clock = nil, time.Unix(1e9, 0)
	cells = measureJob(c, j, tools, plan{runs: 4, share: 26 * time.Second}, io.Discard)
	if got := []int{len(cells[0].samples), len(cells[2].samples)}; !reflect.DeepEqual(got, []int{2, 1}) {
		t.Errorf("timed runs evgrep, ugrep = %v, want [2 1]", got)
	}
}

func TestJobResult(t *testing.T) {
	s := func(sec float64, lines int64, rss int64) Sample {
		return Sample{Wall: time.Duration(sec * float64(time.Second)), Lines: lines, MaxRSSKiB: rss}
	}
	mk := func(name string, warm Sample, samples ...Sample) *cell {
		return &cell{tool: Tool{Name: name}, applies: true, warm: warm, samples: samples}
	}
	j := Job{Corpus: Corpus{Name: "goroot"}, Query: Query{Name: "q", Pattern: "p"}}
	cells := []*cell{
		mk(toolEvgrep, s(9, 5, 1), s(3, 5, 300), s(1, 5, 100), s(2, 5, 200)),
		mk(toolRg, s(9, 5, 1), s(1, 5, 100), s(1, 5, 100), s(1, 5, 50)),
		mk(toolGrep, s(9, 5, 1), s(1, 6, 10)),                           // unstable
		mk(toolUgrep, s(9, 7, 1), s(1, 7, 10)),                          // wrong count
		mk(toolGitGrep, Sample{StartErr: errors.New("boom"), Exit: -1}), // never ran
	}
	jr := jobResult(j, cells)
	ev := jr.Results[0]
	if ev.MedianSeconds != 2 || ev.MinSeconds != 1 || ev.MaxRSSKiB != 300 || ev.Runs != 3 {
		t.Errorf("evgrep result %+v: the warm-up must not count", ev)
	}
	if jr.Ratio == nil || *jr.Ratio != 2 || jr.RSSRatio == nil || *jr.RSSRatio != 3 {
		t.Errorf("ratio %v, rss ratio %v; want 2 and 3", jr.Ratio, jr.RSSRatio)
	}
	if g := jr.Results[2]; g.LinesStable || g.Agrees == nil || *g.Agrees {
		t.Errorf("grep %+v: want unstable and disagreeing", g)
	}
	if u := jr.Results[3]; u.Agrees == nil || *u.Agrees {
		t.Errorf("ugrep %+v: want disagreeing", u)
	}
	if gg := jr.Results[4]; gg.Status != statusError || gg.Stderr != "boom" || gg.Agrees != nil || gg.Lines != -1 {
		t.Errorf("git grep %+v: want an error without a count verdict", gg)
	}
	cell := countsCell(jr)
	for _, want := range []string{"MISMATCH", "grep 5 (unstable)", "ugrep 7"} {
		if !strings.Contains(cell, want) {
			t.Errorf("counts cell %q lacks %q", cell, want)
		}
	}
}

func TestJobResultExitTwoIsTimedButFlagged(t *testing.T) {
	warm := Sample{Wall: time.Second, Lines: 4, Exit: 2, Stderr: "permission denied"}
	c := &cell{tool: Tool{Name: toolGrep}, applies: true, warm: warm, samples: []Sample{warm, warm}}
	tr := toolResult(c)
	if tr.Status != statusError || !tr.measured() || tr.MedianSeconds != 1 || tr.Stderr != "permission denied" {
		t.Errorf("result %+v", tr)
	}
	if got := toolCell(tr); !strings.Contains(got, "exit 2") {
		t.Errorf("cell %q does not show the exit code", got)
	}
}

func TestSummarize(t *testing.T) {
	yes, no := true, false
	jobs := []JobResult{
		{ID: "goroot/a", Ratio: ptr(0.5), RSSRatio: ptr(1), EvgrepAgrees: &yes,
			Results: []ToolResult{{Tool: toolEvgrep, Agrees: &yes}, {Tool: toolGrep, Agrees: &no}}},
		{ID: "goroot/b", Ratio: ptr(2), RSSRatio: ptr(2.6), EvgrepAgrees: &no,
			Results: []ToolResult{{Tool: toolEvgrep, Agrees: &no}}},
		{ID: "tiny/c", Ratio: ptr(1.1), RSSRatio: ptr(1.5)},
		{ID: "large/d"},
	}
	s := summarize(jobs)
	if s.Compared != 3 || *s.MedianRatio != 1.1 || *s.MaxRatio != 2 || s.MaxRatioJob != "goroot/b" {
		t.Errorf("ratios: %+v", s)
	}
	if !reflect.DeepEqual(s.AboveMaxRatio, []string{"goroot/b"}) || !reflect.DeepEqual(s.AboveRSSRatio, []string{"goroot/b"}) {
		t.Errorf("above: %q, %q", s.AboveMaxRatio, s.AboveRSSRatio)
	}
	if s.TinyRatio == nil || *s.TinyRatio != 1.1 {
		t.Errorf("tiny ratio %v", s.TinyRatio)
	}
	if !reflect.DeepEqual(s.EvgrepMismatches, []string{"goroot/b"}) || !reflect.DeepEqual(s.OtherMismatches, []string{"grep on goroot/a"}) {
		t.Errorf("mismatches %q, %q", s.EvgrepMismatches, s.OtherMismatches)
	}
	if !reflect.DeepEqual(s.Unmeasured, []string{"large/d"}) {
		t.Errorf("unmeasured %q", s.Unmeasured)
	}
}

func TestWriteMarkdown(t *testing.T) {
	yes, no := true, false
	lines := int64(12)
	rep := &Report{Runs: 3, toolOrder: []string{toolEvgrep, toolRg, toolGrep},
		Tools: []Tool{{Name: toolEvgrep, Version: "evgrep 0"}, {Name: toolRg, Version: "ripgrep 13"}}}
	rep.Jobs = []JobResult{{
		ID: "goroot/alt", Corpus: "goroot", Query: "alt", Pattern: "a|b", RgLines: &lines, Ratio: ptr(1.7), RSSRatio: ptr(0.9), EvgrepAgrees: &no,
		Results: []ToolResult{
			{Tool: toolEvgrep, Status: statusOK, Runs: 3, MedianSeconds: 0.5, MaxRSSKiB: 2048, Lines: 11, LinesStable: true, Agrees: &no},
			{Tool: toolRg, Status: statusOK, Runs: 3, MedianSeconds: 0.3, MaxRSSKiB: 1024, Lines: 12, LinesStable: true},
			{Tool: toolGrep, Status: statusTimeout},
		},
	}, {
		ID: "goroot/files", Corpus: "goroot", Query: "files", Flags: "--files", RgLines: &lines, Ratio: ptr(0.5), EvgrepAgrees: &yes,
		Results: []ToolResult{
			{Tool: toolEvgrep, Status: statusOK, Runs: 3, MedianSeconds: 0.05, MaxRSSKiB: 2048, Lines: 12, LinesStable: true, Agrees: &yes},
			{Tool: toolRg, Status: statusOK, Runs: 3, MedianSeconds: 0.1, MaxRSSKiB: 1024, RSSAtFloor: true, Lines: 12, LinesStable: true},
			{Tool: toolGrep, Status: statusNA},
		},
	}}
	rep.Summary = summarize(rep.Jobs)
	var b strings.Builder
	if err := writeMarkdown(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "|") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 4 {
		t.Fatalf("want header, separator and 2 rows, got:\n%s", out)
	}
	cols := func(row string) int { return strings.Count(strings.ReplaceAll(row, `\|`, ""), "|") }
	for _, r := range rows {
		if cols(r) != cols(rows[0]) {
			t.Errorf("row %q has %d columns, header %d", r, cols(r), cols(rows[0]))
		}
	}
	for _, want := range []string{"`a\\|b`", "**1.70×**", "0.500 s · 2.0 MB", "50.0 ms", "≤1.0 MB", "timeout", "—",
		"**MISMATCH** evgrep 11", "**MISSED**", "evgrep ≠ rg on goroot/alt"} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteSVG(t *testing.T) {
	yes, no := true, false
	jobs := []JobResult{
		{ID: "goroot/<a&b>", Ratio: ptr(0.25), EvgrepAgrees: &yes},
		{ID: "goroot/slow", Ratio: ptr(12), EvgrepAgrees: &no},
		{ID: "large/none"},
		{ID: "tiny/one", Ratio: ptr(1)},
	}
	var b strings.Builder
	if err := writeSVG(&b, "title <x>", "sub & sub", chartBars(jobs)); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	dec := xml.NewDecoder(strings.NewReader(out))
	rects, texts := 0, []string{}
	var inText bool
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, out)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if e.Name.Local == "rect" {
				rects++
				for _, a := range e.Attr {
					if a.Name.Local == "width" {
						if w, err := strconv.ParseFloat(a.Value, 64); err != nil || w < 1 {
							t.Errorf("rect width %q", a.Value)
						}
					}
				}
			}
			inText = e.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(e))
			}
		case xml.EndElement:
			inText = false
		}
	}
	if rects != 1+3 { // the background and one bar per ratio
		t.Errorf("%d rects, want 4", rects)
	}
	joined := strings.Join(texts, "\n")
	for _, want := range []string{"goroot/<a&b>", "title <x>", "0.25×", "12.00×", "MISMATCH", "no ratio", "16×", "0.25×"} {
		if !strings.Contains(joined, want) {
			t.Errorf("SVG text lacks %q", want)
		}
	}
}

func TestLogScale(t *testing.T) {
	s := newLogScale([]chartBar{{Ratio: ptr(0.3)}, {Ratio: ptr(5)}, {Ratio: ptr(0)}, {}})
	if s.lo != -2 || s.hi != 3 {
		t.Errorf("axis 2^%v..2^%v, want 2^-2..2^3", s.lo, s.hi)
	}
	if s.x(0.25) != svgPlotLeft || s.x(8) != svgPlotRight || s.x(1000) != svgPlotRight || s.x(0) != svgPlotLeft {
		t.Errorf("axis ends: %v %v %v %v", s.x(0.25), s.x(8), s.x(1000), s.x(0))
	}
	if !(s.x(0.5) < s.x(1) && s.x(1) < s.x(1.5) && s.x(1.5) < s.x(2)) {
		t.Error("axis is not increasing")
	}
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestPrepareLarge(t *testing.T) {
	goroot := writeTree(t, map[string]string{
		"VERSION":        "go1.99 devel\ntime x\n",
		"src/a/a.go":     "package a\n",
		"src/b/b.go":     "package b", // no final newline
		"src/b/notes.md": "ignored\n",
	})
	cache := filepath.Join(t.TempDir(), "cache")
	c, err := prepareLarge(cache, goroot, 55, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(c.Path)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("package a\npackage b\n", 3) // 60 bytes: whole files until 55 is passed
	if string(data) != want || c.Bytes != int64(len(want)) {
		t.Errorf("large file %q (%d bytes reported), want %q", data, c.Bytes, want)
	}
	if !strings.Contains(filepath.Base(c.Path), "go1.99_devel") {
		t.Errorf("cache name %q does not carry the Go version", c.Path)
	}
	// A second call reuses the file.
	if err := os.WriteFile(c.Path, []byte(strings.Repeat("x", 64)), 0o644); err != nil {
		t.Fatal(err)
	}
	if c2, err := prepareLarge(cache, goroot, 55, io.Discard); err != nil || c2.Bytes != 64 {
		t.Errorf("second call rebuilt the file (%d bytes, %v)", c2.Bytes, err)
	}
	if _, err := prepareLarge(cache, t.TempDir(), 50, io.Discard); err == nil {
		t.Error("a GOROOT without .go files must be an error")
	}
}

func TestPrepareTiny(t *testing.T) {
	files := map[string]string{"VERSION": "go1.99\n"}
	for i := 0; i < 7; i++ {
		files[fmt.Sprintf("src/io/f%d.go", i)] = "package io // Reader\n"
	}
	files["src/io/sub/deep.go"] = "not picked\n"
	for i := 0; i < 6; i++ {
		files[fmt.Sprintf("src/bufio/g%d.go", i)] = "package bufio\n"
	}
	goroot := writeTree(t, files)
	cache := t.TempDir()
	c, err := prepareTiny(cache, goroot)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(c.Path)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != tinyFiles || c.Files != tinyFiles {
		t.Fatalf("tiny tree has %d files (%d reported), want %d", len(entries), c.Files, tinyFiles)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), "deep") {
			t.Errorf("tiny tree took %s from a subdirectory", e.Name())
		}
	}
	if _, err := prepareTiny(t.TempDir(), writeTree(t, map[string]string{"src/io/a.go": "x"})); err == nil {
		t.Error("too few files must be an error")
	}
}

// The runner is tested on this test binary, re-executed as a helper that
// prints lines, sleeps or fails; no search tool is involved.
const helperEnv = "EVGREP_BENCH_HELPER"

func TestMain(m *testing.M) {
	if mode := os.Getenv(helperEnv); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

func helper(mode string) int {
	switch mode {
	case "lines":
		var b strings.Builder
		for i := 0; i < 100000; i++ {
			fmt.Fprintln(&b, "line", i)
		}
		b.WriteString("no newline")
		os.Stdout.WriteString(b.String())
		fmt.Fprint(os.Stderr, strings.Repeat("e", 3*stderrKeepBytes))
		return 1
	case "sleep":
		time.Sleep(time.Minute)
		return 0
	case "fail":
		return 2
	}
	return 3
}

func TestRunner(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	env := func(mode string) []string { return append(os.Environ(), helperEnv+"="+mode) }
	inv := Invocation{Args: []string{self}, Dir: t.TempDir()}

	r := newRunner(env("lines"))
	r.beginJob()
	s := r.run(inv, 20*time.Second)
	if s.StartErr != nil || s.TimedOut || s.Exit != 1 || s.Lines != 100001 {
		t.Errorf("lines: %+v", s)
	}
	if len(s.Stderr) != stderrKeepBytes {
		t.Errorf("kept %d bytes of stderr, want %d", len(s.Stderr), stderrKeepBytes)
	}
	if s.Wall <= 0 {
		t.Errorf("wall time %v", s.Wall)
	}
	if runtime.GOOS == "linux" && (s.FloorKiB <= 0 || r.maxFloorKiB < s.FloorKiB) {
		t.Errorf("floor %d KiB, runner's maximum %d KiB", s.FloorKiB, r.maxFloorKiB)
	}
	if s.MaxRSSKiB <= 0 && runtime.GOOS == "linux" {
		t.Errorf("no peak RSS on a system that reports it: %d", s.MaxRSSKiB)
	}
	if s.Failed() {
		t.Error("exit 1 (no match) must not count as a failure")
	}

	r = newRunner(env("sleep"))
	start := time.Now()
	s = r.run(inv, 100*time.Millisecond)
	if !s.TimedOut || !broken(s) || time.Since(start) > 10*time.Second {
		t.Errorf("sleep: %+v after %v", s, time.Since(start))
	}

	r = newRunner(env("fail"))
	if s = r.run(inv, 20*time.Second); s.Exit != 2 || !s.Failed() || broken(s) {
		t.Errorf("fail: %+v", s)
	}

	s = r.run(Invocation{Args: []string{filepath.Join(t.TempDir(), "missing")}}, time.Second)
	if s.StartErr == nil || !broken(s) {
		t.Errorf("missing executable: %+v", s)
	}
}

func TestAtFloor(t *testing.T) {
	cases := []struct {
		s    Sample
		want bool
	}{
		{Sample{MaxRSSKiB: 5000, FloorKiB: 5000}, true},
		{Sample{MaxRSSKiB: 5000 + rssFloorMarginKiB, FloorKiB: 5000}, true},
		{Sample{MaxRSSKiB: 5001 + rssFloorMarginKiB, FloorKiB: 5000}, false},
		{Sample{MaxRSSKiB: 100, FloorKiB: 0}, false},
		{Sample{MaxRSSKiB: -1, FloorKiB: 5000}, false},
	}
	for _, c := range cases {
		if got := c.s.AtFloor(); got != c.want {
			t.Errorf("AtFloor(%+v) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestInstallCopies: evgrep and rg are measured from byte-identical,
// executable copies; the other tools stay where they are.
func TestInstallCopies(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	content := bytes.Repeat([]byte("\x7fELF binary bytes "), 20000) // several chunks
	if err := os.WriteFile(src, content, 0o755); err != nil {
		t.Fatal(err)
	}
	tools := []Tool{{Name: toolEvgrep, Path: src}, {Name: toolRg, Path: src}, {Name: toolGrep, Path: "/usr/bin/grep"}}
	if err := installCopies(tools, filepath.Join(dir, "bin")); err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools[:2] {
		if tl.Path != filepath.Join(dir, "bin", tl.Name) {
			t.Fatalf("%s: path %s", tl.Name, tl.Path)
		}
		got, err := os.ReadFile(tl.Path)
		if err != nil || !bytes.Equal(got, content) {
			t.Fatalf("%s: copy differs (%v)", tl.Name, err)
		}
		if st, err := os.Stat(tl.Path); err != nil || st.Mode()&0o111 == 0 {
			t.Fatalf("%s: not executable (%v)", tl.Name, err)
		}
	}
	if tools[2].Path != "/usr/bin/grep" {
		t.Fatalf("grep moved to %s", tools[2].Path)
	}
}
