package structural

import (
	"errors"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/syntax"
)

// testLang looks a language up for a test: a build without the grammars
// (CGO_ENABLED=0, checked by TestNoCgo) skips, any other failure fails.
func testLang(t testing.TB, name string) *Lang {
	t.Helper()
	l, err := LookupLang(name)
	if errors.Is(err, ErrNoCgo) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatalf("language %s: %v", name, err)
	}
	return l
}

// find runs pattern over src and renders each match as its text and its
// captures (NAME=text, lists as [a|b]).
func find(t *testing.T, lang, pattern, src string) []string {
	t.Helper()
	l := testLang(t, lang)
	p, err := CompilePattern(l, pattern)
	if err != nil {
		t.Fatalf("%q: %v", pattern, err)
	}
	tr, err := syntax.ParseFlat(l.Name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ms, err := FindAll(tr, p)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range ms {
		s := string(tr.Src[m.Start:m.End])
		for _, c := range m.Vars {
			if c.Multi {
				var parts []string
				for _, n := range c.Nodes {
					if tr.Nodes[n].Named() {
						parts = append(parts, string(tr.Text(n)))
					}
				}
				s += " " + c.Name + "=[" + strings.Join(parts, "|") + "]"
			} else {
				s += " " + c.Name + "=" + c.Text(tr)
			}
		}
		out = append(out, s)
	}
	return out
}

// TestPatternSemantics: ast-grep's rules for metavariables, lists,
// repeated names, trivial and comment nodes (the answers are ast-grep's,
// checked with ast-grep 0.51.1 where they are not in its own tests).
func TestPatternSemantics(t *testing.T) {
	cases := []struct {
		lang, pattern, src string
		want               []string
	}{
		{"javascript", "$A($A)", "test(test); test(aaa); foo(bar)", []string{"test(test) A=test"}},
		{"javascript", "foo($$$A, c)", "foo(a, b, c)", []string{"foo(a, b, c) A=[a|b]"}},
		{"javascript", "foo($$$)", "foo(); foo(1, 2)", []string{"foo()", "foo(1, 2)"}},
		{"javascript", "foo($$$A, a, b, c)", "foo(b, c)", nil},
		{"javascript", "foo($A, $B)", "foo(a, b,)", []string{"foo(a, b,) A=a B=b"}},
		{"javascript", "foo($_, $_)", "foo(a, b)", []string{"foo(a, b)"}},
		{"javascript", "const a = 123", "const a=123; var a = 123", []string{"const a=123;"}},
		{"javascript", "'a'", "'a'; 'b'", []string{"'a'"}},
		{"javascript", "$F($$$)", "f(g(x))", []string{"f(g(x)) F=f", "g(x) F=g"}},
		{"javascript", "if ($C) { $$$A } else { $$$A }", "if (x) { a(); b() } else { a(); b() }; if (y) { a() } else { b() }", []string{"if (x) { a(); b() } else { a(); b() } A=[a();|b()] C=x"}},
		{"go", "foo($A, $B)", "package p\nfunc f() { foo(/*c*/ a, b) }\n", []string{"foo(/*c*/ a, b) A=a B=b"}},
		{"go", "if err != nil { return err }", "package p\nfunc f() error {\n\tif err != nil {\n\t\treturn err // c\n\t}\n\treturn nil\n}\n", []string{"if err != nil {\n\t\treturn err // c\n\t}"}},
		{"go", "fmt.Errorf($$$A)", "package p\nvar e = fmt.Errorf(\"x %d\", 1)\n", []string{"fmt.Errorf(\"x %d\", 1) A=[\"x %d\"|1]"}},
		{"go", "$X == $X", "package p\nvar a = b == b\nvar c = b == d\n", []string{"b == b X=b"}},
		{"python", "print($A)", "print(1)\nprint(1, 2)\n", []string{"print(1) A=1"}},
		{"rust", "$X.unwrap()", "fn f() { a.unwrap(); b.c().unwrap(); }", []string{"a.unwrap() X=a", "b.c().unwrap() X=b.c()"}},
	}
	for _, c := range cases {
		got := find(t, c.lang, c.pattern, c.src)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %q:\n got %q\nwant %q", c.lang, c.pattern, got, c.want)
		}
	}
}

// TestPatternErrors: bad patterns and bounds are errors, not panics.
func TestPatternErrors(t *testing.T) {
	l := testLang(t, "go")
	for p, want := range map[string]string{
		"":                          "empty pattern",
		"x := 1\ny := 2":            "more than one syntax node",
		strings.Repeat("a", 70<<10): "over the 64 KiB cap",
	} {
		if _, err := CompilePattern(l, p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%.20q: %v (want %q)", p, err, want)
		}
	}
	if _, err := LookupLang("cobol"); err == nil || !strings.Contains(err.Error(), "unknown language") {
		t.Errorf("cobol: %v", err)
	}
	if _, err := NewKindMatcher(l, "no_such_kind"); err == nil {
		t.Error("unknown kind accepted")
	}
}

// TestPreprocess: `$` becomes the expando character only as a
// metavariable sigil.
func TestPreprocess(t *testing.T) {
	l := &Lang{expando: 'µ'}
	for in, want := range map[string]string{
		"f($A, $$$B, $$$, $_)": "f(µA, µµµB, µµµ, µ_)",
		"x = \"$a\" + $$B":     "x = \"$a\" + µµB",
		"a$":                   "a$",
		"$$$":                  "µµµ",
		"$1 $$":                "$1 $$",
	} {
		if got := l.preprocess(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestRuleErrors: unknown keys are errors naming the key (and its line).
func TestRuleErrors(t *testing.T) {
	testLang(t, "go")
	for doc, want := range map[string]string{
		"id: a\nlanguage: go\nrule:\n  patern: x\n":                                                                `line 4: unknown key "patern" in a rule`,
		"id: a\nlanguage: go\nfixes: x\nrule:\n  pattern: x\n":                                                     `line 3: unknown key "fixes" in a rule document`,
		"id: a\nlanguage: go\nrule:\n  matches: nope\n":                                                            `matches "nope": no such utility rule`,
		"id: a\nlanguage: go\nutils:\n  u: {matches: v}\n  v: {any: [{matches: u}]}\nrule:\n  matches: u\n":        `matches itself with no relational rule between`,
		"id: a\nlanguage: go\nrule:\n  has: {field: nofield, kind: block}\n":                                       `go has no field "nofield"`,
		"id: a\nlanguage: go\nrule:\n  precedes: {field: body, kind: block}\n":                                     `field is only for has and inside`,
		"id: a\nlanguage: go\nrule:\n  nthChild: odd\n":                                                            `nthChild "odd"`,
		"id: a\nlanguage: go\nrule:\n  nthChild: {reverse: true}\n":                                                `nthChild needs a position`,
		"id: a\nlanguage: go\nrule:\n  range: {start: {line: 1}, end: {line: 2, column: 0}}\n":                     `range.start needs line and column`,
		"id: a\nlanguage: go\nrule:\n  kind: block\ntransform:\n  B: {convert: {source: $A, toCase: shout}}\n":     `toCase "shout"`,
		"id: a\nlanguage: go\nrule:\n  kind: block\nfix: {expandEnd: {kind: block}}\n":                             `fix needs a template`,
		"id: a\nlanguage: go\nrule:\n  kind: block\ntransform:\n  B: {rewrite: {source: $A, rewriters: [nope]}}\n": `no rewriter "nope"`,
		"id: a\nlanguage: go\nrule:\n  kind: block\nrewriters:\n  - {id: r, rule: {kind: block}}\n":                `rewriter "r" needs a rule and a fix`,
		"id: a\nlanguage: go\nrule:\n  inside:\n    kind: block\n    stopBy: later\n":                              `stopBy "later"`,
		"language: go\nrule:\n  pattern: x\n":                                                                      "needs an id",
		"id: a\nrule:\n  pattern: x\n":                                                                             "needs a language",
		"id: a\nlanguage: go\nrule:\n  regex: '('\n":                                                               "regex",
		"id: a\nlanguage: go\nrule:\n  all: x\n":                                                                   "must be a list",
		"id: a\nlanguage: go\nseverity: fatal\nrule:\n  kind: block\n":                                             "severity",
		"[": "rule file",
	} {
		if _, err := ParseRules([]byte(doc)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v (want %q)", doc, err, want)
		}
	}
	rules, err := ParseRules([]byte("id: a\nlanguage: go\nrule:\n  pattern: panic($A)\n---\nid: b\nlanguage: go\nrule:\n  kind: block\n"))
	if err != nil || len(rules) != 2 || rules[0].ID != "a" || rules[1].ID != "b" {
		t.Fatalf("two documents: %v %v", rules, err)
	}
	if lits := rules[0].Literals(); len(lits) != 1 || lits[0] != "panic" {
		t.Errorf("literals %q", lits)
	}
}

// TestLiterals: the named tokens of a pattern, longest first.
func TestLiterals(t *testing.T) {
	l := testLang(t, "go")
	p, _ := CompilePattern(l, "strings.HasPrefix($S, \"x\")")
	if got := strings.Join(p.Literals(), ","); got != "HasPrefix,strings" {
		t.Errorf("literals %q", got)
	}
	p, _ = CompilePattern(l, "$F($$$)")
	if len(p.Literals()) != 0 {
		t.Errorf("literals %q", p.Literals())
	}
}

// TestTooManyMatchesSaid: a file with more matches than a file keeps
// says so (ErrTooManyMatches) with the first MaxMatchesPerFile matches,
// instead of ending as if it had no more.
func TestTooManyMatchesSaid(t *testing.T) {
	l := testLang(t, "javascript")
	k, err := NewKindMatcher(l, "number")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{MaxMatchesPerFile, MaxMatchesPerFile + 1} {
		tr, err := syntax.ParseFlat(l.Name, []byte("x = ["+strings.Repeat("1,", n)+"];\n"))
		if err != nil {
			t.Fatal(err)
		}
		ms, err := FindAll(tr, k)
		if len(ms) != MaxMatchesPerFile || (n > MaxMatchesPerFile) != (err != nil && strings.Contains(err.Error(), "more than 100,000 matches")) {
			t.Errorf("%d numbers: %d matches, %v", n, len(ms), err)
		}
	}
}
