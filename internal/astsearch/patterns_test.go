package astsearch

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/structural"
)

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

// caseRoot returns the folder of testdata/structural a case searches (the
// Go cases' larger corpus is "gocorpus", a snapshot of evgrep's own
// packages, so that every machine searches the same files). A root that
// is not a folder there fails the test.
func caseRoot(t *testing.T, root string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("..", "..", "testdata", "structural", root))
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() || root == "" || strings.Contains(root, "..") {
		t.Fatalf("case root %q is not a folder of testdata/structural", root)
	}
	return abs
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
		dir := caseRoot(t, c.root)
		want, wantSpans := g.reference(t, key, []string{"run", "--pattern", c.pattern, "--lang", c.lang, "."}, dir)
		lang := mustLang(t, c.lang)
		p, err := structural.CompilePattern(lang, c.pattern)
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		got := evgrepSpans(t, lang, p, p.Literals(), dir)
		sameAnswer(t, key, want, wantSpans, got)
	}
}

// astGrepMisreads are patterns that ast-grep's own parse gets wrong, so
// that it matches nothing (or less than meant); evgrep does what the
// pattern means. Each is checked against an ast-grep rule that says the
// same thing in a form ast-grep reads right.
var astGrepMisreads = map[string]struct{ root, reason, rule string }{
	"go\tfmt.Errorf($$$A)": {
		root:   "gocorpus",
		reason: "Go's grammar reads `fmt.Errorf(x)` alone as a conversion to the type fmt.Errorf, not a call, so ast-grep matches no call",
		rule:   "id: r\nlanguage: go\nrule:\n  pattern: $F($$$A)\nconstraints:\n  F:\n    regex: ^fmt\\.Errorf$\n",
	},
	"go\terrors.New($A)": {
		root:   "gocorpus",
		reason: "the same conversion reading of a one-argument call of a package's function",
		rule:   "id: r\nlanguage: go\nrule:\n  pattern: $F($A)\nconstraints:\n  F:\n    regex: ^errors\\.New$\n",
	},
	"go\tt.Fatalf($$$A)": {
		root:   "gocorpus",
		reason: "`t.Fatalf(x)` alone reads as a conversion to the type t.Fatalf, as `fmt.Errorf`",
		rule:   "id: r\nlanguage: go\nrule:\n  pattern: $F($$$A)\nconstraints:\n  F:\n    regex: ^t\\.Fatalf$\n",
	},
	"go\tos.Getenv($K)": {
		root:   "gocorpus",
		reason: "the same conversion reading of a one-argument call of a package's function",
		rule:   "id: r\nlanguage: go\nrule:\n  pattern: $F($K)\nconstraints:\n  F:\n    regex: ^os\\.Getenv$\n",
	},
	// The misreads that structural's bodyReading settles in every
	// language: a text that reads as a call in a function body is that
	// call; a text with a syntax error alone that reads clean as a body's
	// statement is that statement.
	"c\tfree($P)": {
		root:   "c",
		reason: "C's grammar reads `free(x)` alone as a macro type specifier inside an ERROR, not a call, so ast-grep matches no call",
		rule:   "id: r\nlanguage: c\nrule:\n  kind: call_expression\n  regex: ^free\\(\n",
	},
	"c\tmalloc($S)": {
		root:   "c",
		reason: "the same macro-type reading of a one-argument call alone",
		rule:   "id: r\nlanguage: c\nrule:\n  kind: call_expression\n  regex: ^malloc\\(\n",
	},
	"c\tprintf($$$A)": {
		root:   "c",
		reason: "C's grammar reads `printf(x)` alone as a macro type specifier (without an ERROR), not a call",
		rule:   "id: r\nlanguage: c\nrule:\n  kind: call_expression\n  regex: ^printf\\(\n",
	},
	"cpp\tstd::move($A)": {
		root:   "cpp",
		reason: "C++'s grammar reads `std::move(a)` alone as a declaration of `a` with the type std::move, not a call",
		rule:   "id: r\nlanguage: cpp\nrule:\n  kind: call_expression\n  regex: ^std::move\\(\n",
	},
	"csharp\tif ($A == null) { $$$B }": {
		root:   "csharp",
		reason: "C#'s grammar takes no bare name as a statement, so `{ $$$B }` alone reads as an initializer inside an ERROR and ast-grep matches nothing",
		rule:   "id: r\nlanguage: csharp\nrule:\n  kind: if_statement\n  all:\n    - has: {kind: binary_expression, regex: '^[^=]+ == null$'}\n    - has: {kind: block}\n",
	},
}

// TestAstGrepMisreads: for each pattern ast-grep misreads, evgrep finds
// what ast-grep finds for the equivalent rule (and ast-grep's own run of
// the pattern finds less, which is why the case is listed).
func TestAstGrepMisreads(t *testing.T) {
	needParsers(t)
	g := openGolden(t, "misreads")
	for k, c := range astGrepMisreads {
		lang, pat, _ := strings.Cut(k, "\t")
		dir := caseRoot(t, c.root)
		want, wantSpans := g.reference(t, "rule\t"+k, []string{"scan", "--inline-rules", c.rule, "."}, dir)
		plain, _ := g.reference(t, "run\t"+k, []string{"run", "--pattern", pat, "--lang", lang, "."}, dir)
		if plain.Count >= want.Count {
			t.Errorf("%s: ast-grep's run finds %d, its rule %d: no longer a misreading (%s)", k, plain.Count, want.Count, c.reason)
		}
		l := mustLang(t, lang)
		p, err := structural.CompilePattern(l, pat)
		if err != nil {
			t.Fatal(err)
		}
		got := evgrepSpans(t, l, p, p.Literals(), dir)
		if want.Count == 0 {
			t.Errorf("%s: the rule finds nothing in the corpus", k)
		}
		sameAnswer(t, k, want, wantSpans, got)
	}
}
