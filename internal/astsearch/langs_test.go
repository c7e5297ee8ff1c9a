package astsearch

import (
	"os"
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
		dir, paths, goroot := caseRoot(t, c.root)
		if goroot {
			t.Fatalf("%s: the cases of langs.txt search fixtures only", key)
		}
		want, wantSpans, ok := g.reference(t, key, false, append([]string{"run", "--pattern", c.pattern, "--lang", c.lang}, paths...), dir)
		if !ok {
			t.Errorf("%s: no recorded answer (record with EVGREP_UPDATE_GOLDEN=1)", key)
			continue
		}
		lang, err := structural.LookupLang(c.lang)
		if err != nil {
			t.Fatal(err)
		}
		p, err := structural.CompilePattern(lang, c.pattern)
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		var got []span
		for _, sub := range paths {
			for _, s := range evgrepSpans(t, lang, p, p.Literals(), filepath.Join(dir, sub)) {
				s.File = filepath.ToSlash(filepath.Join(sub, s.File))
				got = append(got, s)
			}
		}
		if want.Count == 0 {
			t.Errorf("%s: ast-grep finds nothing in the fixture; the case tests nothing", key)
		}
		sameAnswer(t, key, want, wantSpans, got)
	}
}
