//go:build cgo

package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalysisForms: --impact FILE:LINE and --impact-symbol NAME [PATH],
// as text and --json, with rg's exit codes (0 found, 1 none, 2 error).
func TestAnalysisForms(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod":          "module x\n",
		"a/a.go":          "package a\n\n// Run runs.\nfunc Run() {}\n",
		"b/b.go":          "package b\n\nimport \"x/a\"\n\nfunc f() { a.Run() }\n",
		"b/b_test.go":     "package b\n\nfunc g() { a.Run() }\n",
		"notes/readme.md": "Run it.\n",
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	t.Setenv("RIPGREP_CONFIG_PATH", "")
	tests := []struct {
		args     []string
		code     int
		out, err []string
	}{
		{[]string{"--impact", "a/a.go:4"}, 0, []string{
			`evgrep impact of "Run" (function Run at a/a.go:3-4): 5 occurrences in 4 files`,
			"binding is not proven",
			"#1 a/a.go:3:4  comment", "#2 a/a.go:4:6  definition", "#3 b/b.go:5:14  call",
			"#4 notes/readme.md:1:1  unclassified", "#5 b/b_test.go:3:14  test/call",
			`Test files mentioning "Run" (1): b/b_test.go 1 (call 1)`}, nil},
		{[]string{"--impact-symbol", "a.Run", "b", "--json"}, 0, []string{
			`{"type":"occurrence","data":{"index":1,"path":"b.go","line":5,"col":14,`,
			`"role":"call","label":"call: call_expression.function selector_expression.field","text":"func f() { a.Run() }"}}`,
			`{"type":"summary","data":{"name":"Run","target":"symbol a.Run (its last part \"Run\" is searched; the qualifier is not checked)"`,
			`"occurrences":2,"roles":{"call":1,"test":1}`}, nil},
		{[]string{"--impact-symbol", "Nope", "--parse-budget", "5"}, 1, []string{"0 occurrences in 0 files", "No occurrences."}, nil},
		{[]string{"--impact", "a/a.go:1"}, 2, nil, []string{"evgrep: a/a.go:1 lies in no declaration"}},
		{[]string{"--impact", "a/a.go"}, 2, nil, []string{"evgrep: --impact takes FILE:LINE"}},
		{[]string{"--impact", "missing.go:3"}, 2, nil, []string{"missing.go: no such file or directory"}},
		{[]string{"--impact-symbol", "Run", "--parse-budget", "0"}, 2, nil, []string{"parseBudget 0: expected 1-2000"}},
		{[]string{"--impact-symbol", "Run", "a", "b"}, 2, nil, []string{"at most one PATH"}},
		{[]string{"--imports", "b/b.go"}, 0, []string{
			"evgrep imports of b/b.go (go): imports 1 (workspace 1), imported by 0",
			"#1 b/b.go:3  imports  [workspace]  x/a → a/"}, nil},
		{[]string{"--imports", "a/a.go", "--json"}, 0, []string{
			`{"type":"link","data":{"index":1,"path":"b/b.go","line":3,"start":18,"end":23,"role":"imported-by","label":"import","text":"x/a"}}`,
			`{"type":"summary","data":{"file":"a/a.go","language":"go","groups":{"imported-by":1}`}, nil},
		{[]string{"--tests", "b/b.go"}, 0, []string{"#1 b/b_test.go:1  name  [Go test file (_test.go)]  named for b.go"}, nil},
		{[]string{"--tests", "a/a.go"}, 1, []string{"0 test files", "Nothing found."}, nil},
		{[]string{"--tests", "notes/readme.md"}, 2, nil, []string{"no parser for this file type"}},
		{[]string{"--imports", "a/a.go", "b"}, 2, nil, []string{"takes no paths"}},
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	for _, tt := range tests {
		var out, errb bytes.Buffer
		code := Main(tt.args, devnull, &out, &errb)
		if code != tt.code {
			t.Errorf("%q: exit %d, want %d (stderr %q)", tt.args, code, tt.code, errb.String())
		}
		rest := out.String()
		for _, w := range tt.out {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%q: stdout lacks (in order) %q:\n%s", tt.args, w, out.String())
				break
			}
			rest = rest[i+len(w):]
		}
		for _, w := range tt.err {
			if !strings.Contains(errb.String(), w) {
				t.Errorf("%q: stderr %q lacks %q", tt.args, errb.String(), w)
			}
		}
		if contains(tt.args, "--json") {
			for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				if !json.Valid([]byte(l)) {
					t.Errorf("%q: not a JSON line: %s", tt.args, l)
				}
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
