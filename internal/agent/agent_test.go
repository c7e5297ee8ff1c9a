package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evgrep/evgrep/internal/testref"
	"github.com/evgrep/evgrep/snapshot"
)

// tree writes files under a new temp dir and returns its resolved path.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r, _ := filepath.EvalSymlinks(root)
	return r
}

// manyMatches builds files whose match lines are known: file i has i+1
// lines with "needle", interleaved with other lines.
func manyMatches(n int) (map[string]string, int) {
	files := map[string]string{}
	total := 0
	for i := 0; i < n; i++ {
		var b strings.Builder
		for j := 0; j <= i; j++ {
			fmt.Fprintf(&b, "line %d of file %d\nneedle %d.%d needle\n", j, i, i, j)
			total++
		}
		files[fmt.Sprintf("d%d/f%02d.txt", i%3, i)] = b.String()
	}
	return files, total
}

func ask(t *testing.T, env Env, req string) *Answer {
	t.Helper()
	a := HandleJSON(context.Background(), []byte(req), env)
	if a.Failed {
		t.Fatalf("request %s failed: %s", req, a.Text)
	}
	return a
}

// TestCursorWalkNeverRepeatsOrDrops pages through every match line with
// several limits: the concatenation is each match exactly once, in order.
func TestCursorWalkNeverRepeatsOrDrops(t *testing.T) {
	files, total := manyMatches(12)
	root := tree(t, files)
	for _, limit := range []int{1, 7, 20, 100} {
		env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
		a := ask(t, env, fmt.Sprintf(`{"pattern":"needle","mode":"matches","limit":%d}`, limit))
		var seen []int
		for pages := 0; ; pages++ {
			if pages > total+1 {
				t.Fatalf("limit %d: cursor walk does not end", limit)
			}
			if a.Details.Totals.Lines != total {
				t.Fatalf("limit %d: total %d, want %d", limit, a.Details.Totals.Lines, total)
			}
			for _, m := range a.Details.Matches {
				seen = append(seen, m.Match)
			}
			if a.Details.Cursor == "" {
				break
			}
			a = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
		}
		if len(seen) != total {
			t.Fatalf("limit %d: saw %d lines, want %d", limit, len(seen), total)
		}
		for i, n := range seen {
			if n != i+1 {
				t.Fatalf("limit %d: position %d holds match #%d", limit, i, n)
			}
		}
	}
}

// TestSummaryWalk pages through the ranked files.
func TestSummaryWalk(t *testing.T) {
	files, _ := manyMatches(70)
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","mode":"summary"}`)
	var paths []string
	prev := 1 << 30
	for a != nil {
		for _, f := range a.Details.Files {
			if f.Lines > prev {
				t.Fatalf("files not ranked by count: %d after %d", f.Lines, prev)
			}
			prev = f.Lines
			paths = append(paths, f.Path)
		}
		if a.Details.Cursor == "" {
			break
		}
		a = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
	}
	if len(paths) != 70 {
		t.Fatalf("summary walk listed %d files, want 70", len(paths))
	}
}

func TestAutoMode(t *testing.T) {
	root := tree(t, map[string]string{"a.go": "x\nneedle here\n", "b/c.go": "needle\nneedle\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle"}`)
	if a.Details.Mode != ModeMatches || len(a.Details.Matches) != 3 || a.Details.Cursor != "" {
		t.Fatalf("small result should be answered whole: %+v\n%s", a.Details, a.Text)
	}
	if !strings.HasPrefix(a.Text, "evgrep: 3 matching lines (3 occurrences) in 2 of 2 files") {
		t.Fatalf("status line: %q", strings.SplitN(a.Text, "\n", 2)[0])
	}
	// 45 short lines fit one 16 KiB page: auto shows them all.
	mid, n := manyMatches(9)
	root = tree(t, mid)
	env.Cwd = root
	a = ask(t, env, `{"pattern":"needle"}`)
	if a.Details.Mode != ModeMatches || len(a.Details.Matches) != n || a.Details.Cursor != "" {
		t.Fatalf("%d lines that fit should be answered whole: mode %s, %d shown", n, a.Details.Mode, len(a.Details.Matches))
	}
	files, _ := manyMatches(30)
	root = tree(t, files)
	env.Cwd = root
	a = ask(t, env, `{"pattern":"needle"}`)
	if a.Details.Mode != ModeSummary {
		t.Fatalf("large result should be summarised, got %s", a.Details.Mode)
	}
}

// TestUTF16Columns: ranges are 1-based UTF-16 columns, bytes ("b") for
// lines that are not UTF-8.
func TestUTF16Columns(t *testing.T) {
	root := tree(t, map[string]string{"u.txt": "𝄞é needle\n", "b.txt": "\xff needle\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","mode":"matches"}`)
	got := map[string]RangeJSON{}
	for _, m := range a.Details.Matches {
		got[m.Path] = m.Ranges[0]
	}
	if r := got["u.txt"]; r != (RangeJSON{Start: 5, End: 11, Unit: "utf16"}) {
		t.Errorf("u.txt range %+v", r)
	}
	if r := got["b.txt"]; r != (RangeJSON{Start: 3, End: 9, Unit: "byte"}) {
		t.Errorf("b.txt range %+v", r)
	}
	if !strings.Contains(a.Text, "b.txt:1:3-9b {match #1}") {
		t.Errorf("text lacks the byte range: %s", a.Text)
	}
}

// TestChangedFileNeverShown: a file edited after the search is reported as
// changed when context is asked for through a cursor, never shown.
func TestChangedFileNeverShown(t *testing.T) {
	files, _ := manyMatches(3)
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","mode":"matches","limit":1}`)
	first := a.Details.Matches[0]
	if err := os.WriteFile(filepath.Join(root, first.Path), []byte("rewritten secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := ask(t, env, fmt.Sprintf(`{"cursor":%q,"context":2}`, a.Details.Cursor))
	for _, c := range b.Details.Context {
		if c.Path == first.Path && !c.Changed {
			t.Fatalf("changed file shown: %+v", c)
		}
	}
	if strings.Contains(b.Text, "rewritten secret") {
		t.Fatal("text shows the edited file")
	}
	// And an unchanged file's context is shown.
	c := ask(t, env, `{"pattern":"needle","mode":"matches","context":1,"paths":["d2"]}`)
	if len(c.Details.Context) == 0 || c.Details.Context[0].Changed || len(c.Details.Context[0].Before)+len(c.Details.Context[0].After) == 0 {
		t.Fatalf("unchanged context not shown: %+v", c.Details.Context)
	}
}

// TestCursorErrors: forged, malformed, wrong-kind, foreign-root and
// conflicting cursors fail with their stable codes.
func TestCursorErrors(t *testing.T) {
	files, _ := manyMatches(8)
	root := tree(t, files)
	other := tree(t, map[string]string{"x": "needle\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","mode":"matches","limit":2}`)
	cur := a.Details.Cursor
	cases := []struct {
		req, code string
	}{
		{`{"cursor":"zz"}`, string(snapshot.CodeMalformed)},
		{`{"cursor":"0123456789abcdef0123456789abcdef"}`, string(snapshot.CodeNotFound)},
		{fmt.Sprintf(`{"cursor":%q,"mode":"summary"}`, cur), string(snapshot.CodeWrongKind)},
		{fmt.Sprintf(`{"cursor":%q,"path":%q}`, cur, other), string(snapshot.CodeOptionsConflict)},
		{fmt.Sprintf(`{"cursor":%q,"pattern":"other"}`, cur), string(snapshot.CodeOptionsConflict)},
		{`{"pattern":"needle","bogus":1}`, CodeInvalidRequest},
		{`{"pattern":"needle","limit":0}`, CodeInvalidRequest},
		{`{"pattern":"needle","context":21}`, CodeInvalidRequest},
		{`{"pattern":"needle","line":3}`, CodeInvalidRequest},
		{`{"pattern":"("}`, CodePattern},
		{`{"pattern":"x","path":"/proc"}`, CodePathForbidden},
		{`{"pattern":"x","paths":["nope"]}`, CodePathMissing},
		{`{}`, CodeInvalidRequest},
		{`not json`, CodeInvalidRequest},
	}
	for _, tc := range cases {
		got := HandleJSON(context.Background(), []byte(tc.req), env)
		if !got.Failed || got.Details.Error == nil || got.Details.Error.Code != tc.code {
			t.Errorf("%s: got %+v, want code %s", tc.req, got.Details.Error, tc.code)
		}
	}
}

// TestRetryFromRoot: zero results in a sub-path are retried from the root.
func TestRetryFromRoot(t *testing.T) {
	root := tree(t, map[string]string{"a/x.txt": "nothing\n", "b/y.txt": "needle\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","paths":["a"]}`)
	if a.Details.Retried == nil || a.Details.Retried.Lines != 1 || a.Details.Totals.Lines != 1 {
		t.Fatalf("no retry from root: %+v\n%s", a.Details, a.Text)
	}
	if !strings.Contains(a.Text, "retried under the whole root") {
		t.Fatalf("text does not say it retried: %s", a.Text)
	}
}

// TestPathPolicy: .git internals are never read.
func TestPathPolicy(t *testing.T) {
	root := tree(t, map[string]string{".git/config": "needle\n", "src.txt": "needle\n"})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","hidden":true}`)
	if a.Details.Totals.Lines != 1 || strings.Contains(a.Text, ".git/config") {
		t.Fatalf(".git internals read: %s", a.Text)
	}
	if got := HandleJSON(context.Background(), []byte(`{"pattern":"needle","path":".git"}`), env); !got.Failed {
		t.Fatalf("a .git root was searched: %s", got.Text)
	}
}

// helperEnv marks a re-executed test binary acting as one --agent process.
const helperEnv = "EVGREP_AGENT_TEST_REQUEST"

// TestMain lets the test binary act as an agent process: with helperEnv
// set it answers that request against EVGREP_STATE_DIR and exits.
func TestMain(m *testing.M) {
	if path := os.Getenv(probeEnv); path != "" {
		fmt.Println(forbidden(path))
		os.Exit(0)
	}
	if req := os.Getenv(helperEnv); req != "" {
		cwd, _ := os.Getwd()
		a := HandleJSON(context.Background(), []byte(req), Env{Store: snapshot.NewStore(os.Getenv(snapshot.StateDirEnv)), Cwd: cwd})
		b, _ := json.Marshal(a)
		os.Stdout.Write(b)
		if a.Failed {
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runProcess(t *testing.T, dir, state, req string) *Answer {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), helperEnv+"="+req, snapshot.StateDirEnv+"="+state)
	out, err := cmd.Output()
	var a Answer
	if jerr := json.Unmarshal(out, &a); jerr != nil {
		t.Fatalf("process output %q (%v): %v", out, err, jerr)
	}
	return &a
}

// TestCursorAcrossProcesses: a cursor from one process pages in the next.
func TestCursorAcrossProcesses(t *testing.T) {
	files, total := manyMatches(6)
	root := tree(t, files)
	state := t.TempDir()
	a := runProcess(t, root, state, `{"pattern":"needle","mode":"matches","limit":5}`)
	if a.Details.Cursor == "" {
		t.Fatalf("no cursor: %s", a.Text)
	}
	seen := len(a.Details.Matches)
	for a.Details.Cursor != "" {
		a = runProcess(t, root, state, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
		if a.Details.Error != nil {
			t.Fatalf("cursor failed in the next process: %+v", a.Details.Error)
		}
		seen += len(a.Details.Matches)
	}
	if seen != total {
		t.Fatalf("paged %d lines across processes, want %d", seen, total)
	}
	if fi, err := os.Stat(state); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("state folder mode: %v %v", fi.Mode(), err)
	}
}

// TestConcurrentProcesses: 8 processes search and page at once in one
// state folder; every cursor of every process still works afterwards.
func TestConcurrentProcesses(t *testing.T) {
	files, total := manyMatches(6)
	root := tree(t, files)
	state := t.TempDir()
	var wg sync.WaitGroup
	cursors := make([]string, 8)
	errs := make(chan string, 8)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := runProcess(t, root, state, `{"pattern":"needle `+strconv.Itoa(i%6)+`","mode":"matches","limit":1}`)
			if a.Failed || a.Details.Error != nil {
				errs <- a.Text
				return
			}
			cursors[i] = a.Details.Cursor
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatalf("process failed: %s", e)
	}
	_ = total
	for i, c := range cursors {
		if c == "" {
			continue // a single-line answer has no next page
		}
		a := runProcess(t, root, state, fmt.Sprintf(`{"cursor":%q}`, c))
		if a.Details.Error != nil {
			t.Fatalf("cursor of process %d lost: %+v", i, a.Details.Error)
		}
	}
}

// TestBroadSearchBounded: a broad search in auto mode answers in at most
// 8,000 characters with the exact total (GOROOT/src/net, checked against
// the sum of per-file counts in the details of a full summary walk).
func TestBroadSearchBounded(t *testing.T) {
	root := filepath.Join(testref.GoRoot(t), "src", "net")
	if _, err := os.Stat(root); err != nil {
		t.Skip("GOROOT sources not present")
	}
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"err"}`)
	if len(a.Text) > 8000 {
		t.Fatalf("answer is %d characters", len(a.Text))
	}
	sum := 0
	for b := a; ; {
		for _, f := range b.Details.Files {
			sum += f.Lines
		}
		if b.Details.Cursor == "" {
			break
		}
		b = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, b.Details.Cursor))
	}
	if sum != a.Details.Totals.Lines {
		t.Fatalf("file distribution sums to %d, total says %d", sum, a.Details.Totals.Lines)
	}
	// Live only (GOROOT is the machine's): the reference of internal/testref.
	if rg, ok := testref.Find(); ok {
		out, _ := exec.Command(rg.Path, "-c", "--hidden", "--smart-case", "err", root).Output()
		n := 0
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if i := strings.LastIndexByte(line, ':'); i >= 0 {
				c, _ := strconv.Atoi(line[i+1:])
				n += c
			}
		}
		if n != a.Details.Totals.Lines {
			t.Fatalf("total %d, rg counts %d", a.Details.Totals.Lines, n)
		}
	}
}

// TestExpiredCursor: a cursor whose snapshot has been idle past the expiry
// fails with E_CURSOR_EXPIRED in the next process.
func TestExpiredCursor(t *testing.T) {
	files, _ := manyMatches(6)
	root := tree(t, files)
	state := t.TempDir()
	env := Env{Store: snapshot.NewStore(state), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","mode":"matches","limit":2}`)
	old := time.Now().Add(-snapshot.IdleExpiry - time.Minute)
	filepath.Walk(state, func(p string, _ os.FileInfo, _ error) error {
		os.Chtimes(p, old, old)
		return nil
	})
	next := Env{Store: snapshot.NewStore(state), Cwd: root}
	got := HandleJSON(context.Background(), []byte(fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor)), next)
	if !got.Failed || got.Details.Error.Code != string(snapshot.CodeExpired) {
		t.Fatalf("idle snapshot still served: %+v", got.Details)
	}
}
