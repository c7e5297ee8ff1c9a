package astsearch

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/structural"
	"github.com/evgrep/evgrep/syntax"
)

// rewriteCases: a fixture file, a pattern and a template.
var rewriteCases = []struct{ lang, file, pattern, template string }{
	{"python", "python/app.py", "print($A)", "log.info($A)"},
	{"python", "python/app.py", "print($$$A)", "emit($$$A)"},
	{"python", "python/util.py", "log.info($A, $$$B)", "log.debug($A, $$$B)"},
	{"python", "python/app.py", "$A == $A", "True"},
	{"rust", "rust/lib.rs", "$X.unwrap()", "$X.expect(\"checked\")"},
	{"rust", "rust/lib.rs", "println!($$$A)", "eprintln!($$$A)"},
	{"rust", "rust/lib.rs", "Ok($X)", "Result::Ok($X)"},
	{"javascript", "javascript/app.js", "console.log($$$A)", "logger.info($$$A)"},
	{"javascript", "javascript/app.js", "var $X = $Y", "let $X = $Y"},
	{"javascript", "javascript/app.js", "$A == $B", "$A === $B"},
	{"javascript", "javascript/app.js", "require($M)", "import($M)"},
	{"typescript", "typescript/service.ts", "console.log($$$A)", "debug($$$A)"},
	{"typescript", "typescript/service.ts", "$A = $A + 1", "$A += 1"},
	{"java", "java/App.java", "System.out.println($A)", "LOG.info($A)"},
	{"java", "java/App.java", "$X.add($Y)", "$X.append($Y)"},
	{"ruby", "ruby/app.rb", "puts $A", "logger.info $A"},
	{"c", "c/main.c", "$P->next = $V", "set_next($P, $V)"},
	{"c", "c/main.c", "printf($A, $B)", "log_printf($A, $B)"},
	{"go", "go/sample.go", "fmt.Println($A, $B)", "log.Println($A, $B)"},
	{"go", "go/sample.go", "if err != nil { return err }", "if err != nil {\n\treturn fmt.Errorf(\"wrap: %w\", err)\n}"},
	{"go", "go/sample.go", "$A = append($A, $B)", "$A = append($A, $B, $B)"},
	// Multi-line templates and captures, re-indented as ast-grep does.
	{"python", "pyweb/routes.py", "@app.get($$$A)\ndef $F($$$P):\n    $$$B", "@app.get($$$A)\ndef $F($$$P):\n    with timer(\"$F\"):\n        $$$B"},
	{"python", "pyweb/api.py", "@router.get($$$A)\nasync def $F($$$P):\n    $$$B", "@router.get($$$A)\nasync def $F($$$P):\n    with timer(\"$F\"):\n        $$$B"},
	{"python", "pyweb/api.py", "@$R.get($$$A)\nasync def $F($$$P):\n    $$$B", "@$R.get($$$A)\nasync def $F($$$P):\n    try:\n        $$$B\n    finally:\n        log.debug(\"done\")"},
	{"python", "pyweb/api.py", "with open($$$A) as $F:\n    $$$B", "$F = open($$$A)\ntry:\n    $$$B\nfinally:\n    $F.close()"},
	{"python", "pyweb/routes.py", "def $F($$$P):\n    $$$B", "def $F($$$P):\n    log.debug(\"$F\")\n    $$$B"},
	{"python", "pyweb/routes.py", "try:\n    $$$B\nexcept $E:\n    $$$H\nelse:\n    $$$C", "try:\n    $$$B\nexcept $E as exc:\n    log.warning(\"failed: %s\", exc)\n    $$$H\nelse:\n    $$$C"},
	{"rust", "rsnet/server.rs", "$X.unwrap()", "match $X {\n    Ok(v) => v,\n    Err(e) => panic!(\"{e}\"),\n}"},
	{"rust", "rsnet/server.rs", "fn $F($$$P) -> io::Result<()> { $$$B }", "fn $F($$$P) -> io::Result<()> {\n    let _span = trace(\"$F\");\n    {\n        $$$B\n    }\n}"},
	{"rust", "rsnet/server.rs", "impl Store { $$$B }", "impl Store {\n    $$$B\n}\n\nimpl Drop for Store {\n    fn drop(&mut self) {}\n}"},
	{"rust", "rsnet/server.rs", "assert_eq!($A, $B)", "assert!(\n    $A == $B,\n    \"left {:?}\",\n    $A,\n)"},
	{"rust", "rsnet/server.rs", "if let Err($E) = $X { $$$B }", "match $X {\n    Err($E) => {\n        $$$B\n    }\n    Ok(_) => {}\n}"},
	{"rust", "rsnet/server.rs", "match $E { $$$A }", "match $E {\n    $$$A\n}"},
	{"typescript", "tsapp/cart.ts", "if ($C) { $$$B }", "if ($C) {\n  try {\n    $$$B\n  } finally {\n    done();\n  }\n}"},
	{"typescript", "tsapp/cart.ts", "for (const $X of $Y) { $$$B }", "$Y.forEach(($X) => {\n  $$$B\n});"},
	{"go", "goapp/store.go", "for $K, $V := range $M { $$$B }", "for $K, $V := range $M {\n\tif $V == nil {\n\t\tcontinue\n\t}\n\t$$$B\n}"},
}

// rewriteDifferences are the cases where evgrep's rewrite is meant to
// differ from ast-grep's, and why. In each, ast-grep re-indents lines
// inside a multi-line string literal of a capture, which changes the
// literal's value; evgrep keeps every such literal byte for byte (checked
// below), and otherwise re-indents as ast-grep does.
var rewriteDifferences = map[string]string{
	"python\tpyweb/routes.py\t@app.get($$$A)\ndef $F($$$P):\n    $$$B":   "ast-grep indents the docstring of list_items by 4 more spaces (its blank line gains trailing spaces)",
	"python\tpyweb/api.py\t@$R.get($$$A)\nasync def $F($$$P):\n    $$$B": "ast-grep indents the lines of search's SQL string, changing the query text",
	"rust\trsnet/server.rs\tfn $F($$$P) -> io::Result<()> { $$$B }":      "ast-grep adds 4 spaces inside the byte string b\"OK\\n\" of handle",
	"rust\trsnet/server.rs\tmatch $E { $$$A }":                           "ast-grep adds 8 spaces inside the byte string b\"OK\\n\" of handle",
}

func digest(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// TestRewriteAgainstAstGrep: the file evgrep's rewrite writes is the file
// `ast-grep run -p P -r T -U` writes, byte for byte; and the unified diff
// evgrep prints, applied by patch(1), gives the same file.
func TestRewriteAgainstAstGrep(t *testing.T) {
	needParsers(t)
	g := openGolden(t, "rewrite")
	if len(rewriteCases) < 20 {
		t.Fatalf("only %d cases", len(rewriteCases))
	}
	fixtures, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "structural"))
	for _, c := range rewriteCases {
		key := c.lang + "\t" + c.file + "\t" + c.pattern + "\t" + c.template
		src, err := os.ReadFile(filepath.Join(fixtures, c.file))
		if err != nil {
			t.Fatal(err)
		}
		var want string
		var wantLines []string
		if g.live != "" {
			dir := t.TempDir()
			tmp := filepath.Join(dir, filepath.Base(c.file))
			if err := os.WriteFile(tmp, src, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(g.live, "run", "-p", c.pattern, "-r", c.template, "-l", c.lang, "-U", tmp).CombinedOutput()
			if err != nil {
				t.Errorf("%s: ast-grep: %v: %s", key, err, out)
				continue
			}
			res, _ := os.ReadFile(tmp)
			want = digest(res)
			a := answer{Digest: want, Count: len(res)}
			if _, listed := rewriteDifferences[c.lang+"\t"+c.file+"\t"+c.pattern]; listed {
				// ast-grep's file itself, to compare line by line.
				a.Matches = strings.SplitAfter(string(res), "\n")
			}
			g.mu.Lock()
			g.Answers[key] = a
			g.mu.Unlock()
			if string(res) == string(src) {
				t.Errorf("%s: ast-grep changes nothing (a weak case)", key)
			}
		} else if a, ok := g.Answers[key]; ok {
			want, wantLines = a.Digest, a.Matches
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
		var got []byte
		var diff string
		_, err = Run(context.Background(), &Options{Roots: []string{filepath.Join(fixtures, c.file)}, Walk: walkerOptions(), Lang: lang, Matcher: p, Literals: p.Literals()}, func(f *File) {
			edits := Edits(f, c.template)
			got = Apply(f.Src, edits)
			diff = UnifiedDiff("f", f.Src, edits)
		})
		if err != nil {
			t.Fatal(err)
		}
		if reason, listed := rewriteDifferences[c.lang+"\t"+c.file+"\t"+c.pattern]; listed {
			if digest(got) == want {
				t.Errorf("%s: listed as differing from ast-grep (%s), but the files are the same", key, reason)
			}
			if g.live != "" {
				wantLines = g.Answers[key].Matches
			}
			onlyInLiterals(t, key, lang, got, wantLines)
		} else if digest(got) != want {
			t.Errorf("%s: evgrep's rewrite differs from ast-grep's:\n%s", key, diff)
			continue
		}
		// patch(1) applies the printed diff to the same result.
		if _, err := exec.LookPath("patch"); err == nil {
			dir := t.TempDir()
			f := filepath.Join(dir, "f")
			os.WriteFile(f, src, 0o644)
			cmd := exec.Command("patch", "-s", "-p1", "f")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader(diff)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: patch: %v: %s\n%s", key, err, out, diff)
				continue
			}
			patched, _ := os.ReadFile(f)
			if string(patched) != string(got) {
				t.Errorf("%s: patch(1) of the diff gives another file", key)
			}
		}
	}
}

// onlyInLiterals checks a listed difference: evgrep's file (got) has
// ast-grep's lines (want) but for some that begin inside a multi-line
// string literal of got, and differs in at least one.
func onlyInLiterals(t *testing.T, key string, lang *structural.Lang, got []byte, want []string) {
	t.Helper()
	tr, err := syntax.ParseFlat(lang.Name, got)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(got), "\n")
	// inLit[k]: line k (0-based) begins inside a string literal.
	inLit := make([]bool, len(lines))
	for i := range tr.Nodes {
		n := &tr.Nodes[i]
		k := tr.Kind(int32(i))
		if !strings.Contains(k, "string") || k == "concatenated_string" {
			continue
		}
		first := strings.Count(string(got[:n.Start]), "\n")
		last := strings.Count(string(got[:n.End]), "\n")
		for l := first + 1; l <= last && l < len(lines); l++ {
			inLit[l] = true
		}
	}
	if len(lines) != len(want) {
		t.Errorf("%s: evgrep's file has %d lines, ast-grep's %d", key, len(lines), len(want))
		return
	}
	differ := 0
	for k := range lines {
		if lines[k] == want[k] {
			continue
		}
		differ++
		if !inLit[k] {
			t.Errorf("%s: line %d differs from ast-grep's outside a string literal:\n evgrep:   %q\n ast-grep: %q", key, k+1, lines[k], want[k])
		}
	}
	if differ == 0 {
		t.Errorf("%s: no line differs from ast-grep's", key)
	}
}

// TestRewritePythonCompiles: every Python file evgrep's rewrite cases
// write is still Python (`python3 -m py_compile`), the re-indented
// multi-line ones included.
func TestRewritePythonCompiles(t *testing.T) {
	needParsers(t)
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	fixtures, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "structural"))
	lang, err := structural.LookupLang("python")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range rewriteCases {
		if c.lang != "python" || !strings.HasPrefix(c.file, "pyweb/") {
			continue
		}
		p, err := structural.CompilePattern(lang, c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		if _, err := Run(context.Background(), &Options{Roots: []string{filepath.Join(fixtures, c.file)}, Walk: walkerOptions(), Lang: lang, Matcher: p, Literals: p.Literals()}, func(f *File) {
			got = Apply(f.Src, Edits(f, c.template))
		}); err != nil {
			t.Fatal(err)
		}
		if got == nil {
			t.Errorf("%s %q: no match", c.file, c.pattern)
			continue
		}
		n++
		f := filepath.Join(t.TempDir(), filepath.Base(c.file))
		if err := os.WriteFile(f, got, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(py, "-m", "py_compile", f).CombinedOutput(); err != nil {
			t.Errorf("%s %q: the rewritten file does not compile: %v\n%s", c.file, c.pattern, err, out)
		}
	}
	if n < 6 {
		t.Errorf("only %d multi-line Python rewrites compiled", n)
	}
}
