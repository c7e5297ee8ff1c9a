package astsearch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
	"github.com/evgrep/evgrep/structural"
)

// TestLangCasesAgainstAstGrep: every pattern of cases/langs.txt finds the
// same match set (file, start byte, end byte) as ast-grep's run over its
// fixture folder: PHP read as ast-grep reads it (code without `<?php`,
// its newer grammar's tree), script and style blocks of HTML files
// searched with the embedded language, JSX element ranges, and the
// one-off tree differences of issue 21.
func TestLangCasesAgainstAstGrep(t *testing.T) {
	needParsers(t)
	if _, err := os.Stat(filepath.Join(testref.Dir(), "structural", "langs.json")); err != nil && astGrep() == "" {
		t.Fatalf("no ast-grep and no recorded answers: %v", err)
	}
	g := openGolden(t, "langs")
	cases := loadCases(t, "langs.txt")
	if len(cases) < 15 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		key := c.lang + "\t" + c.root + "\t" + c.pattern
		dir := caseRoot(t, c.root)
		want, wantSpans := g.reference(t, key, []string{"run", "--pattern", c.pattern, "--lang", c.lang, "."}, dir)
		lang := mustLang(t, c.lang)
		p, err := structural.CompilePattern(lang, c.pattern)
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		got := evgrepSpans(t, lang, p, p.Literals(), dir)
		if want.Count == 0 {
			t.Errorf("%s: ast-grep finds nothing in the fixture; the case tests nothing", key)
		}
		sameAnswer(t, key, want, wantSpans, got)
	}
}

// langRewrites: a fixture file, a pattern and a template, over the
// fixtures of cases/langs.txt.
var langRewrites = []struct{ lang, file, pattern, template string }{
	// Each element keeps its line: the match starts at its `<`.
	{"tsx", "tsx/TodoList.tsx", "<$E $$$A />", "<$E $$$A></$E>"},
	{"tsx", "tsx/TodoList.tsx", "<span>$$$C</span>", "<em>$$$C</em>"},
	{"php", "php/SessionCache.php", "isset($A)", "array_key_exists($A)"},
	{"php", "php/routes.php", "return null;", "return response(404);"},
	{"kotlin", "kotlin/UserStats.kt", "$A ?: return emptyMap()", "$A ?: return mapOf()"},
	// In the blocks of an HTML file, at the file's offsets.
	{"javascript", "html/dashboard.html", "console.log($$$A)", "logger.info($$$A)"},
	{"javascript", "html/settings.htm", "const $A = $B", "let $A = $B"},
	{"typescript", "html/dashboard.html", "const $A: number = $B", "const $A = $B"},
}

// TestLangRewritesAgainstAstGrep: the file evgrep's rewrite gives is the
// file `ast-grep run -p P -r T -U` writes, byte for byte.
func TestLangRewritesAgainstAstGrep(t *testing.T) {
	needParsers(t)
	if _, err := os.Stat(filepath.Join(testref.Dir(), "structural", "langs-rewrite.json")); err != nil && astGrep() == "" {
		t.Fatalf("no ast-grep and no recorded answers: %v", err)
	}
	g := openGolden(t, "langs-rewrite")
	fixtures, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "structural"))
	for _, c := range langRewrites {
		key := c.lang + "\t" + c.file + "\t" + c.pattern + "\t" + c.template
		src, err := os.ReadFile(filepath.Join(fixtures, c.file))
		if err != nil {
			t.Fatal(err)
		}
		var want string
		if g.live != "" {
			tmp := filepath.Join(t.TempDir(), filepath.Base(c.file))
			if err := os.WriteFile(tmp, src, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(g.live, "run", "-p", c.pattern, "-r", c.template, "-l", c.lang, "-U", tmp).CombinedOutput()
			if err != nil {
				t.Fatalf("%s: ast-grep: %v: %s", key, err, out)
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
		lang, err := structural.LookupLang(c.lang)
		if err != nil {
			t.Fatal(err)
		}
		p, err := structural.CompilePattern(lang, c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		got := src
		var diff string
		_, err = Run(context.Background(), &Options{Roots: []string{filepath.Join(fixtures, c.file)}, Walk: walkerOptions(), Lang: lang, Matcher: p, Literals: p.Literals()}, func(f *File) {
			edits := Edits(f, c.template)
			got = Apply(f.Src, edits)
			diff = UnifiedDiff("f", f.Src, edits)
		})
		if err != nil {
			t.Fatal(err)
		}
		if digest(got) != want {
			t.Errorf("%s: evgrep's rewrite differs from ast-grep's:\n%s", key, diff)
		}
	}
}
