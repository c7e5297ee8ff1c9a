package astsearch

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
	"github.com/evgrep/evgrep/structural"
)

// goCorpus are the GOROOT/src folders the "goroot" cases search (all of
// GOROOT/src takes ast-grep a minute a pattern on a loaded machine).
var goCorpus = []string{"fmt", "strings", "bytes", "errors", "sort", "bufio", "encoding/json",
	"go/parser", "net/url", "os/exec", "sync", "context", "text/template"}

type patternCase struct{ lang, root, pattern string }

func loadCases(t *testing.T, name string) []patternCase {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "testdata", "structural", "cases", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []patternCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			t.Fatalf("bad case line %q", line)
		}
		out = append(out, patternCase{parts[0], parts[1], parts[2]})
	}
	return out
}

// caseRoot returns the folder a case's paths are relative to and the
// paths searched.
func caseRoot(t *testing.T, root string) (dir string, paths []string, goroot bool) {
	switch root {
	case "goroot-all":
		return filepath.Join(testref.GoRoot(t), "src"), []string{"."}, true
	case "goroot":
		return filepath.Join(testref.GoRoot(t), "src"), goCorpus, true
	}
	abs, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "structural", root))
	return abs, []string{"."}, false
}

// TestPatternsAgainstAstGrep: every pattern of cases/patterns.txt finds
// the same match set (file, start byte, end byte) as ast-grep's run.
func TestPatternsAgainstAstGrep(t *testing.T) {
	needParsers(t)
	g := openGolden(t, "patterns")
	cases := loadCases(t, "patterns.txt")
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	only := os.Getenv("EVGREP_STRUCTURAL_CASES") // a substring: run only those cases
	for _, c := range cases {
		if only != "" && !strings.Contains(c.lang+"\t"+c.root+"\t"+c.pattern, only) {
			continue
		}
		if _, misread := astGrepMisreads[c.lang+"\t"+c.pattern]; misread {
			t.Errorf("%s %q is listed as misread by ast-grep; test it in TestAstGrepMisreads", c.lang, c.pattern)
			continue
		}
		key := c.lang + "\t" + c.root + "\t" + c.pattern
		dir, paths, goroot := caseRoot(t, c.root)
		want, wantSpans, ok := g.reference(t, key, goroot, append([]string{"run", "--pattern", c.pattern, "--lang", c.lang}, paths...), dir)
		if !ok {
			t.Logf("%s: no recorded answer (Go %s recorded, this is %s)", key, g.GoVer, "another version")
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
		sameAnswer(t, key, want, wantSpans, got)
	}
}

// astGrepMisreads are patterns that ast-grep's own parse gets wrong, so
// that it matches nothing (or less than meant); evgrep does what the
// pattern means. Each is checked against an ast-grep rule that says the
// same thing in a form ast-grep reads right.
var astGrepMisreads = map[string]struct{ reason, rule string }{
	"go\tfmt.Errorf($$$A)": {
		reason: "Go's grammar reads `fmt.Errorf(x)` alone as a conversion to the type fmt.Errorf, not a call, so ast-grep matches no call",
		rule:   "id: r\nlanguage: go\nrule:\n  pattern: $F($$$A)\nconstraints:\n  F:\n    regex: ^fmt\\.Errorf$\n",
	},
	"go\terrors.New($A)": {
		reason: "the same conversion reading of a one-argument call of a package's function",
		rule:   "id: r\nlanguage: go\nrule:\n  pattern: $F($A)\nconstraints:\n  F:\n    regex: ^errors\\.New$\n",
	},
	"go\tt.Fatalf($$$A)": {
		reason: "`t.Fatalf(x)` alone reads as a conversion to the type t.Fatalf, as `fmt.Errorf`",
		rule:   "id: r\nlanguage: go\nrule:\n  pattern: $F($$$A)\nconstraints:\n  F:\n    regex: ^t\\.Fatalf$\n",
	},
	"go\tos.Getenv($K)": {
		reason: "the same conversion reading of a one-argument call of a package's function",
		rule:   "id: r\nlanguage: go\nrule:\n  pattern: $F($K)\nconstraints:\n  F:\n    regex: ^os\\.Getenv$\n",
	},
}

// TestAstGrepMisreads: for each pattern ast-grep misreads, evgrep finds
// what ast-grep finds for the equivalent rule (and ast-grep's own run of
// the pattern finds less, which is why the case is listed).
func TestAstGrepMisreads(t *testing.T) {
	needParsers(t)
	g := openGolden(t, "misreads")
	dir, paths, _ := caseRoot(t, "goroot")
	for k, c := range astGrepMisreads {
		lang, pat, _ := strings.Cut(k, "\t")
		want, wantSpans, ok := g.reference(t, "rule\t"+k, true, append([]string{"scan", "--inline-rules", c.rule}, paths...), dir)
		if !ok {
			continue
		}
		plain, _, _ := g.reference(t, "run\t"+k, true, append([]string{"run", "--pattern", pat, "--lang", lang}, paths...), dir)
		if plain.Count >= want.Count {
			t.Errorf("%s: ast-grep's run finds %d, its rule %d: no longer a misreading (%s)", k, plain.Count, want.Count, c.reason)
		}
		l, _ := structural.LookupLang(lang)
		p, err := structural.CompilePattern(l, pat)
		if err != nil {
			t.Fatal(err)
		}
		var got []span
		for _, sub := range paths {
			for _, s := range evgrepSpans(t, l, p, p.Literals(), filepath.Join(dir, sub)) {
				s.File = filepath.ToSlash(filepath.Join(sub, s.File))
				got = append(got, s)
			}
		}
		if want.Count == 0 {
			t.Errorf("%s: the rule finds nothing in the corpus", k)
		}
		sameAnswer(t, k, want, wantSpans, got)
	}
}
