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
			g.mu.Lock()
			g.Answers[key] = answer{Digest: want, Count: len(res)}
			g.mu.Unlock()
			if string(res) == string(src) {
				t.Errorf("%s: ast-grep changes nothing (a weak case)", key)
			}
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
		if digest(got) != want {
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
