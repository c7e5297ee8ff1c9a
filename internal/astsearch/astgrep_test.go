package astsearch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/evgrep/evgrep/internal/astsearch/astgreptest"
	"github.com/evgrep/evgrep/internal/testref"
	"github.com/evgrep/evgrep/structural"
	"github.com/evgrep/evgrep/walker"
)

// The differential tests against ast-grep: live when an ast-grep binary is
// found (EVGREP_REFERENCE_ASTGREP, else ast-grep on PATH), else against
// its answers recorded in testdata/golden/structural (re-recorded with
// EVGREP_UPDATE_GOLDEN=1 and ast-grep present; never edited by hand).

// astGrep returns the ast-grep binary, or "".
func astGrep() string {
	if p := os.Getenv("EVGREP_REFERENCE_ASTGREP"); p != "" {
		return p
	}
	if p, err := exec.LookPath("ast-grep"); err == nil {
		return p
	}
	return ""
}

// span is one match: a file relative to the searched root, byte range.
type span = astgreptest.Span

// answer is a recorded match set: the count and a digest of the sorted
// spans, and the spans themselves when there are few.
type answer struct {
	Count   int      `json:"count"`
	Digest  string   `json:"sha256"`
	Matches []string `json:"matches,omitempty"`
}

func answerOf(s []span) answer {
	a := answer{Count: len(s), Digest: astgreptest.Digest(s)}
	if len(s) <= 50 {
		for _, x := range s {
			a.Matches = append(a.Matches, x.String())
		}
	}
	return a
}

// golden is one test's recorded answers.
type golden struct {
	t       *testing.T
	path    string
	live    string // ast-grep binary, "" when replaying
	update  bool
	mu      sync.Mutex
	Ref     string            `json:"reference"`
	Answers map[string]answer `json:"answers"`
	used    map[string]bool
}

func openGolden(t *testing.T, name string) *golden {
	g := &golden{t: t, path: filepath.Join(testref.Dir(), "structural", name+".json"), live: astGrep(),
		update: testref.Updating(), Answers: map[string]answer{}, used: map[string]bool{}}
	if g.update && g.live == "" {
		t.Fatal("EVGREP_UPDATE_GOLDEN=1 needs ast-grep (EVGREP_REFERENCE_ASTGREP or on PATH)")
	}
	if !g.update {
		if b, err := os.ReadFile(g.path); err == nil {
			if err := json.Unmarshal(b, g); err != nil {
				t.Fatalf("%s: %v", g.path, err)
			}
		} else if g.live == "" {
			t.Fatalf("no ast-grep and no golden file %s", g.path)
		}
	}
	if g.live != "" {
		out, _ := exec.Command(g.live, "--version").Output()
		g.Ref = strings.TrimSpace(string(out))
	}
	if g.update {
		t.Cleanup(g.write)
	}
	return g
}

func (g *golden) write() {
	if g.t.Failed() {
		return
	}
	b, _ := json.MarshalIndent(g, "", " ")
	os.MkdirAll(filepath.Dir(g.path), 0o755)
	if err := os.WriteFile(g.path, append(b, '\n'), 0o644); err != nil {
		g.t.Error(err)
	}
}

// reference answers key with the reference's args run in dir: live (and
// then with the reference's spans), or recorded. A case that was never
// recorded fails the test: re-record the goldens.
func (g *golden) reference(t *testing.T, key string, args []string, dir string) (answer, []span) {
	t.Helper()
	if g.live != "" {
		spans := runAstGrep(t, g.live, args, dir)
		a := answerOf(spans)
		g.mu.Lock()
		g.Answers[key] = a
		g.mu.Unlock()
		return a, spans
	}
	a, ok := g.Answers[key]
	if !ok {
		t.Errorf("%s: no recorded answer in %s (re-record: see README.md \"Structural search\")", key, g.path)
	}
	return a, nil
}

// runAstGrep runs ast-grep with --json=stream in dir and returns its spans
// (files relative to dir).
func runAstGrep(t *testing.T, bin string, args []string, dir string) []span {
	t.Helper()
	spans, err := astgreptest.Run(bin, args, dir)
	if err != nil {
		t.Fatal(err)
	}
	return spans
}

// evgrepSpans runs the structural search over dir with m and returns its
// spans (files relative to dir).
func evgrepSpans(t *testing.T, lang *structural.Lang, m structural.Matcher, lits []string, dir string) []span {
	t.Helper()
	wo := walkerOptions()
	var spans []span
	_, err := Run(context.Background(), &Options{Roots: []string{dir}, Walk: wo, Lang: lang, Matcher: m, Literals: lits}, func(f *File) {
		if f.Err != nil {
			t.Errorf("%s: %v", f.Path, f.Err)
		}
		rel, _ := filepath.Rel(dir, f.Path)
		for _, x := range f.Matches {
			spans = append(spans, span{File: filepath.ToSlash(rel), Start: x.Start, End: x.End})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return spans
}

// sameAnswer compares, listing a few differences when the reference's
// spans are known (live, or recorded because few).
func sameAnswer(t *testing.T, what string, want answer, wantSpans []span, got []span) {
	t.Helper()
	g := answerOf(got)
	if g.Digest == want.Digest {
		return
	}
	msg := fmt.Sprintf("%s: evgrep %d matches, ast-grep %d", what, g.Count, want.Count)
	ws := want.Matches
	if wantSpans != nil {
		ws = nil
		for _, x := range wantSpans {
			ws = append(ws, x.String())
		}
	}
	w := map[string]bool{}
	for _, x := range ws {
		w[x] = true
	}
	gm := map[string]bool{}
	shown := 0
	for _, x := range got {
		gm[x.String()] = true
		if !w[x.String()] && ws != nil && shown < 8 {
			msg += "\n  only evgrep: " + x.String()
			shown++
		}
	}
	shown = 0
	for _, x := range ws {
		if !gm[x] && shown < 8 {
			msg += "\n  only ast-grep: " + x
			shown++
		}
	}
	t.Error(msg)
}

func walkerOptions() walker.Options {
	wo := walker.DefaultOptions()
	wo.Threads = runtime.NumCPU()
	return wo
}

// needParsers skips a test in a build without the grammars (CGO_ENABLED=0,
// where structural's TestNoCgo checks the refusal); any other failure to
// find Go's grammar fails the test.
func needParsers(t *testing.T) {
	t.Helper()
	if _, err := structural.LookupLang("go"); errors.Is(err, structural.ErrNoCgo) {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
}

// mustLang looks a language up, failing the test when this build has no
// grammar for it.
func mustLang(t *testing.T, name string) *structural.Lang {
	t.Helper()
	l, err := structural.LookupLang(name)
	if err != nil {
		t.Fatalf("language %s: %v", name, err)
	}
	return l
}
