package structural

import (
	"fmt"
	"testing"

	"github.com/evgrep/evgrep/syntax"
)

// TestNeighborSeparators: with stopBy neighbor, precedes and follows look
// at the very next (previous) sibling, a separator such as Go's `;` or a
// `,` included, but not Go's newline terminator, which ast-grep's grammar
// leaves out of the tree (answers checked with ast-grep 0.51.1).
func TestNeighborSeparators(t *testing.T) {
	testLang(t, "go")
	src := "package p\nfunc f() bool {\n\tn.Add(1); return true\n}\nfunc g() bool {\n\tn.Add(2)\n\treturn true\n}\n"
	for _, c := range []struct {
		lang, rule, src, want string
	}{
		{"go", "kind: expression_statement\n  precedes:\n    kind: return_statement", src, "n.Add(2)"},
		{"go", "kind: return_statement\n  follows:\n    kind: expression_statement", src, "return true@78"},
		{"javascript", "kind: identifier\n  precedes:\n    kind: identifier", "f(a, b);\n", ""},
		{"javascript", "kind: identifier\n  precedes:\n    kind: identifier\n    stopBy: end", "f(a, b);\n", "a"},
	} {
		l := testLang(t, c.lang)
		rules, err := ParseRules([]byte("id: r\nlanguage: " + c.lang + "\nrule:\n  " + c.rule + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := syntax.ParseFlat(l.Name, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		ms, err := FindAll(tr, rules[0])
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, m := range ms {
			s := string(tr.Src[m.Start:m.End])
			if s == "return true" {
				s = fmt.Sprintf("%s@%d", s, m.Start)
			}
			if got != "" {
				got += ","
			}
			got += s
		}
		if got != c.want {
			t.Errorf("%s %q: got %q, want %q", c.lang, c.rule, got, c.want)
		}
	}
}
