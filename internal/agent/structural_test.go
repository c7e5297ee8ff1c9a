package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/syntax"
)

func structuralEnv(t *testing.T) (Env, string) {
	t.Helper()
	if !syntax.Supported(syntax.Go) {
		t.Skip("no parsers in this build")
	}
	root := t.TempDir()
	for i := 0; i < 4; i++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package p\n\nfunc f%d() {\n", i)
		for j := 0; j < 20; j++ {
			fmt.Fprintf(&b, "\tpanic(err%d)\n", j)
		}
		b.WriteString("\tother(1)\n}\n")
		os.WriteFile(filepath.Join(root, fmt.Sprintf("f%d.go", i)), []byte(b.String()), 0o644)
	}
	os.WriteFile(filepath.Join(root, "n.txt"), []byte("panic(x)\n"), 0o644)
	return Env{Store: snapshot.NewStore(t.TempDir()), Cwd: root}, root
}

func askJSON(t *testing.T, env Env, req string) *Answer {
	t.Helper()
	a := HandleJSON(context.Background(), []byte(req), env)
	if len(a.Text) > responseBudget {
		t.Fatalf("answer of %d bytes", len(a.Text))
	}
	if b, _ := json.Marshal(a.Details); len(b) > 4*responseBudget {
		t.Fatalf("details of %d bytes", len(b))
	}
	return a
}

// TestStructuralPages: mode structural pages all matches through cursors
// of the items snapshot, each exactly once, in path and source order.
func TestStructuralPages(t *testing.T) {
	env, _ := structuralEnv(t)
	a := askJSON(t, env, `{"mode":"structural","pattern":"panic($A)","lang":"go"}`)
	if a.Failed {
		t.Fatal(a.Text)
	}
	if !strings.HasPrefix(a.Text, "structural panic($A) (go): 80 matches in 4 files (4 go files parsed or read), complete") {
		t.Fatalf("status line: %s", a.Text)
	}
	seen := map[string]bool{}
	n := 0
	for page := 0; ; page++ {
		d := a.Details.Structural
		if d == nil {
			t.Fatalf("no structural details: %s", a.Text)
		}
		if len(d.Matches) == 0 || len(d.Matches) > structuralLimit {
			t.Fatalf("page of %d", len(d.Matches))
		}
		for _, m := range d.Matches {
			n++
			if m.Match != n {
				t.Fatalf("match #%d numbered %d", n, m.Match)
			}
			k := fmt.Sprintf("%s:%d", m.Path, m.Start)
			if seen[k] {
				t.Fatalf("%s twice", k)
			}
			seen[k] = true
			if !strings.HasPrefix(m.Captures, "$A=err") {
				t.Fatalf("captures %q", m.Captures)
			}
		}
		if a.Details.Cursor == "" {
			break
		}
		if page > 10 {
			t.Fatal("too many pages")
		}
		a = askJSON(t, env, fmt.Sprintf(`{"mode":"structural","cursor":%q}`, a.Details.Cursor))
		if a.Failed {
			t.Fatal(a.Text)
		}
	}
	if n != 80 {
		t.Fatalf("paged %d matches", n)
	}
}

// TestStructuralRequestErrors: bad requests are refused with a clear code.
func TestStructuralRequestErrors(t *testing.T) {
	env, _ := structuralEnv(t)
	for req, want := range map[string]string{
		`{"mode":"structural","pattern":"panic($A)"}`:                                "needs lang",
		`{"mode":"structural","lang":"go"}`:                                          "needs pattern",
		`{"mode":"structural","pattern":"x","lang":"cobol"}`:                         "unknown language",
		`{"mode":"structural","pattern":"x","lang":"go","kind":"no_such_kind"}`:      "no node kind",
		`{"mode":"structural","pattern":"x","lang":"go","context":2}`:                "mode structural takes",
		`{"mode":"structural","pattern":"x","lang":"go","rewrite":"y","apply":true}`: "apply needs rewrite and preview",
		`{"pattern":"x","lang":"go"}`:                                                "belong to mode structural",
		`{"mode":"structural","cursor":"nope"}`:                                      "E_",
		`{"mode":"structural","pattern":"x := 1\ny := 2","lang":"go"}`:               "more than one syntax node",
	} {
		a := askJSON(t, env, req)
		if !a.Failed || !strings.Contains(a.Text, want) {
			t.Errorf("%s: %s (want %q)", req, a.Text, want)
		}
	}
}

// TestStructuralRewriteApply: a rewrite answers a diff and a preview
// token and writes nothing; apply with the token writes the files still
// as previewed and refuses the one edited since.
func TestStructuralRewriteApply(t *testing.T) {
	env, root := structuralEnv(t)
	req := `{"mode":"structural","pattern":"other($A)","lang":"go","rewrite":"another($A, $A)"}`
	a := askJSON(t, env, req)
	if a.Failed || a.Details.Rewrite == nil || a.Details.Rewrite.Preview == "" {
		t.Fatalf("preview: %s", a.Text)
	}
	if !strings.Contains(a.Text, "-\tother(1)\n+\tanother(1, 1)\n") || a.Details.Rewrite.Edits != 4 {
		t.Fatalf("diff: %s", a.Text)
	}
	before, _ := os.ReadFile(filepath.Join(root, "f0.go"))
	if strings.Contains(string(before), "another") {
		t.Fatal("the preview wrote")
	}
	// Apply with another rewrite's token is refused.
	bad := askJSON(t, env, fmt.Sprintf(`{"mode":"structural","pattern":"other($A)","lang":"go","rewrite":"x($A)","apply":true,"preview":%q}`, a.Details.Rewrite.Preview))
	if !bad.Failed || !strings.Contains(bad.Text, "other arguments") {
		t.Fatalf("foreign token: %s", bad.Text)
	}
	// An edit after the preview.
	f3 := filepath.Join(root, "f3.go")
	src, _ := os.ReadFile(f3)
	os.WriteFile(f3, append(src, []byte("// edited\n")...), 0o644)
	ap := askJSON(t, env, strings.TrimSuffix(req, "}")+fmt.Sprintf(`,"apply":true,"preview":%q}`, a.Details.Rewrite.Preview))
	if ap.Failed {
		t.Fatal(ap.Text)
	}
	rw := ap.Details.Rewrite
	if len(rw.Files) != 3 || rw.Refused["f3.go"] != "changed since the preview" {
		t.Fatalf("apply: %s", ap.Text)
	}
	got, _ := os.ReadFile(filepath.Join(root, "f0.go"))
	if !strings.Contains(string(got), "another(1, 1)") {
		t.Fatalf("f0.go not rewritten: %s", got)
	}
	if got, _ := os.ReadFile(f3); strings.Contains(string(got), "another") {
		t.Fatal("the edited file was rewritten")
	}
}
