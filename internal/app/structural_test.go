package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/syntax"
)

// TestStructuralCLI: --ast prints rg-style path:line:column:text lines in
// path order, --json one object per match, exit codes as rg's, and
// usage errors as one rg-style line with exit 2.
func TestStructuralCLI(t *testing.T) {
	if !syntax.Supported(syntax.Go) {
		t.Skip("no parsers in this build")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "b.go"), []byte("package b\n\nfunc f() {\n\tpanic(\"é\" + x)\n}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a\n\nfunc g() { panic(err); other() }\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "c.txt"), []byte("panic(x)\n"), 0o644)
	rules := filepath.Join(dir, "r.yml")
	os.WriteFile(rules, []byte("id: p\nlanguage: go\nrule:\n  pattern: panic($A)\n  inside:\n    kind: block\n    stopBy: end\n"), 0o644)

	r, errText := runEvgrepErr(t, dir, []string{"--ast", "panic($A)", "--lang", "go"}, "")
	if r.code != 0 || r.stdout != "a.go:3:12:panic(err)\nb.go:4:2:panic(\"é\" + x)\n" {
		t.Fatalf("text: %d %q %s", r.code, r.stdout, errText)
	}
	r, _ = runEvgrepErr(t, dir, []string{"--ast", "panic($A)", "--lang", "go", "--json", "b.go"}, "")
	var m struct {
		Path             string
		Start, End, Line int
		Column           int
		EndColumn        int `json:"end_column"`
		Text             string
		Vars             map[string]struct{ Text string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil || r.code != 0 {
		t.Fatalf("json: %v %q", err, r.stdout)
	}
	// UTF-16 columns: "é" is one code unit, two bytes.
	if m.Path != "b.go" || m.Start != 23 || m.End != 38 || m.Line != 4 || m.Column != 2 || m.EndColumn != 16 || m.Vars["$A"].Text != "\"é\" + x" {
		t.Fatalf("json object %+v", m)
	}
	// Captures are keyed as the pattern spells them: $A one node, $$$A a list.
	r, _ = runEvgrepErr(t, dir, []string{"--ast", "panic($$$ARGS)", "--lang", "go", "--json", "a.go"}, "")
	var multi struct {
		Vars map[string][]struct{ Text string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &multi); err != nil || len(multi.Vars["$$$ARGS"]) != 1 || multi.Vars["$$$ARGS"][0].Text != "err" {
		t.Fatalf("list capture: %v %q", err, r.stdout)
	}
	r, _ = runEvgrepErr(t, dir, []string{"--rule", rules}, "")
	if r.code != 0 || r.stdout != "a.go:3:12:[p] panic(err)\nb.go:4:2:[p] panic(\"é\" + x)\n" {
		t.Fatalf("rule: %d %q", r.code, r.stdout)
	}
	if r, _ = runEvgrepErr(t, dir, []string{"--ast", "nothere($A)", "--lang", "go"}, ""); r.code != 1 || r.stdout != "" {
		t.Fatalf("no match: %d %q", r.code, r.stdout)
	}
	for args, want := range map[string]string{
		"--ast\x00panic($A)":                      "need --lang",
		"--ast\x00panic($A)\x00--lang\x00cobol":   "unknown language",
		"--kind\x00nokind\x00--lang\x00go":        "no node kind",
		"--rule\x00" + filepath.Join(dir, "none"): "no such file",
	} {
		r, e := runEvgrepErr(t, dir, strings.Split(args, "\x00"), "")
		if r.code != 2 || !strings.HasPrefix(e, "rg: ") || !strings.Contains(e, want) || strings.Count(e, "\n") != 1 {
			t.Errorf("%q: %d %q", args, r.code, e)
		}
	}
	// --rewrite prints a diff and writes nothing; --apply writes.
	r, _ = runEvgrepErr(t, dir, []string{"--ast", "panic($A)", "--lang", "go", "--rewrite", "log.Fatal($A)", "a.go"}, "")
	if r.code != 0 || !strings.Contains(r.stdout, "-func g() { panic(err); other() }\n+func g() { log.Fatal(err); other() }\n") {
		t.Fatalf("diff: %q", r.stdout)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.go")); strings.Contains(string(b), "log.Fatal") {
		t.Fatal("the diff wrote")
	}
	r, _ = runEvgrepErr(t, dir, []string{"--ast", "panic($A)", "--lang", "go", "--rewrite", "log.Fatal($A)", "--apply", "a.go"}, "")
	if b, _ := os.ReadFile(filepath.Join(dir, "a.go")); r.code != 0 || !strings.Contains(string(b), "log.Fatal(err)") {
		t.Fatalf("apply: %d %q %s", r.code, r.stdout, b)
	}
}

// TestStructuralRuleFix: --rule with --apply (no --rewrite) writes each
// rule's fix, with its transform, and leaves a rule without one alone.
func TestStructuralRuleFix(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.py"), []byte("def getUser(x):\n    print(x)\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "r.yml"), []byte("id: snake\nlanguage: python\nrule:\n  pattern: $N\n  kind: identifier\n  inside: {kind: function_definition, field: name}\ntransform:\n  S: {convert: {source: $N, toCase: snakeCase}}\nfix: $S\n---\nid: prints\nlanguage: python\nrule:\n  pattern: print($A)\n"), 0o644)
	r, e := runEvgrepErr(t, dir, []string{"--rule", "r.yml", "--apply", "a.py"}, "")
	b, _ := os.ReadFile(filepath.Join(dir, "a.py"))
	if r.code != 0 || string(b) != "def get_user(x):\n    print(x)\n" {
		t.Fatalf("%d %q %q: %s", r.code, r.stdout, e, b)
	}
}
