package astsearch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/structural"
)

// TestRulesAgainstAstGrep: every rule file of testdata/structural/rules
// finds the same match set as `ast-grep scan --rule FILE`. A file's first
// line names its corpus, a folder of testdata/structural ("# root: gocorpus").
func TestRulesAgainstAstGrep(t *testing.T) {
	needParsers(t)
	g := openGolden(t, "rules")
	dir := filepath.Join("..", "..", "testdata", "structural", "rules")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	only := os.Getenv("EVGREP_STRUCTURAL_CASES") // a substring of file names: run only those
	n := 0
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".yml") {
			continue
		}
		n++
		if only != "" && !strings.Contains(e.Name(), only) {
			continue
		}
		file, _ := filepath.Abs(filepath.Join(dir, e.Name()))
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		root := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(data), "\n", 2)[0], "# root:"))
		cdir := caseRoot(t, root)
		want, wantSpans := g.reference(t, e.Name(), []string{"scan", "--rule", file, "."}, cdir)
		rules, err := structural.ParseRules(data)
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
			continue
		}
		var got []span
		_, err = Run(context.Background(), &Options{Roots: []string{cdir}, Walk: walkerOptions(), Lang: rules[0].Lang, Rules: rules, Literals: rules[0].Literals()}, func(f *File) {
			if f.Err != nil {
				t.Errorf("%s: %v", f.Path, f.Err)
			}
			rel, _ := filepath.Rel(cdir, f.Path)
			for _, x := range f.Matches {
				got = append(got, span{File: filepath.ToSlash(rel), Start: x.Start, End: x.End})
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if want.Count == 0 {
			t.Errorf("%s: the rule matches nothing in its corpus (a weak case)", e.Name())
		}
		sameAnswer(t, e.Name(), want, wantSpans, got)
	}
	if n < 30 {
		t.Errorf("only %d rule files", n)
	}
}
