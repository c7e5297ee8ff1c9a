package astsearch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/structural"
)

// TestRuleFixAgainstAstGrep: a rule file's fix (with its transforms and
// expandStart/expandEnd) rewrites its fixture as `ast-grep scan --rule
// FILE -U` does, byte for byte. Each file of testdata/structural/fixes
// names its fixture on its first line ("# file: pyweb/routes.py").
func TestRuleFixAgainstAstGrep(t *testing.T) {
	needParsers(t)
	g := openGolden(t, "fix")
	fixtures, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "structural"))
	dir := filepath.Join(fixtures, "fixes")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".yml") {
			continue
		}
		n++
		ruleFile := filepath.Join(dir, e.Name())
		data, err := os.ReadFile(ruleFile)
		if err != nil {
			t.Fatal(err)
		}
		file := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(data), "\n", 2)[0], "# file:"))
		src, err := os.ReadFile(filepath.Join(fixtures, file))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		key := e.Name()
		var want string
		if g.live != "" {
			tmp := filepath.Join(t.TempDir(), filepath.Base(file))
			if err := os.WriteFile(tmp, src, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(g.live, "scan", "--rule", ruleFile, "-U", tmp).CombinedOutput(); err != nil {
				t.Errorf("%s: ast-grep: %v: %s", key, err, out)
				continue
			}
			res, _ := os.ReadFile(tmp)
			if string(res) == string(src) {
				t.Errorf("%s: ast-grep changes nothing (a weak case)", key)
			}
			want = digest(res)
			g.mu.Lock()
			g.Answers[key] = answer{Digest: want, Count: len(res)}
			g.mu.Unlock()
		} else if a, ok := g.Answers[key]; ok {
			want = a.Digest
		} else {
			t.Errorf("%s: not recorded", key)
			continue
		}
		rules, err := structural.ParseRules(data)
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		var got []byte
		var diff string
		if _, err := Run(context.Background(), &Options{Roots: []string{filepath.Join(fixtures, file)}, Walk: walkerOptions(), Lang: rules[0].Lang, Rules: rules, Literals: rules[0].Literals()}, func(f *File) {
			edits := FixEdits(f, rules)
			got = Apply(f.Src, edits)
			diff = UnifiedDiff("f", f.Src, edits)
		}); err != nil {
			t.Fatal(err)
		}
		if digest(got) != want {
			t.Errorf("%s: evgrep's fix differs from ast-grep's:\n%s", key, diff)
		}
	}
	if n < 13 {
		t.Errorf("only %d fix cases", n)
	}
}
