package structural

import (
	"strings"
	"testing"
)

// TestBodyReading: a pattern means what its text means in a function body
// (bodyReading): calls that a grammar reads alone as a type, a declaration
// or a conversion are calls, a statement with a syntax error alone is the
// statement; other patterns keep ast-grep's reading.
func TestBodyReading(t *testing.T) {
	for _, c := range []struct {
		lang, pattern, src string
		want               []string
	}{
		{"c", "free($P)", "void f(char *p) { free(p); }\n", []string{"free(p) P=p"}},
		{"c", "malloc($S)", "void f(void) { char *q = malloc(10); }\n", []string{"malloc(10) S=10"}},
		{"c", "printf($$$A)", "void f(int n) { printf(\"%d\", n); }\n", []string{"printf(\"%d\", n) A=[\"%d\"|n]"}},
		{"cpp", "std::move($A)", "void f() { auto b = std::move(a); g(std::move(b)); }\n", []string{"std::move(a) A=a", "std::move(b) A=b"}},
		{"csharp", "if ($A == null) { $$$B }", "class C { void M(object a) { if (a == null) { return; } } }\n", []string{"if (a == null) { return; } A=a B=[return;]"}},
		{"go", "fmt.Errorf($$$A)", "package p\nvar e = fmt.Errorf(\"x\")\n", []string{"fmt.Errorf(\"x\") A=[\"x\"]"}},
		// Kept as ast-grep reads them: a declaration is not a call.
		{"c", "int $X = $Y;", "void f(void) { int a = 1; a = 2; }\n", []string{"int a = 1; X=a Y=1"}},
		{"javascript", "function $F() { $$$B }", "function a() { return 1 }\nconst b = function c() {}\n", []string{"function a() { return 1 } B=[return 1] F=a"}},
	} {
		got := find(t, c.lang, c.pattern, c.src)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %q:\n got %q\nwant %q", c.lang, c.pattern, got, c.want)
		}
	}
}
