//go:build cgo

package structural

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/syntax"
)

// fuzzLangs are the languages the fuzz targets pick from (by a byte).
var fuzzLangs = []string{"go", "python", "javascript", "rust", "c", "java", "typescript", "ruby"}

// fuzzSrc is a source each fuzzed matcher is run over, per language (the
// pattern's own text is run over too).
var fuzzSrc = map[string]string{
	"go":         "package p\n\nfunc f() error {\n\tif err != nil { return err }\n\tpanic(fmt.Errorf(\"x %d\", 1, 2))\n\tx := a + b + c\n\treturn nil\n}\n",
	"python":     "def f(a, b=1):\n    print(a, b)\n    return [x for x in (1, (2, (3)))]\n",
	"javascript": "const a = 123; foo(a, b, c); if (x) { y() } else { y() }\nlet z = [[[1]], 2];\n",
	"rust":       "fn main() { let x = a.unwrap(); if let Some(y) = x { y.unwrap() } }\n",
	"c":          "int main(void) { int x = f(1, 2); return x + 1; }\n",
	"java":       "class A { void f() { System.out.println(1 + 2); } }\n",
	"typescript": "function f(a: number): string { return `${a}`; }\n",
	"ruby":       "def f(a)\n  puts a\n  require 'x'\nend\n",
}

// checkMatches runs m over src of lang: no panic, and every match and
// capture lies within the source, in order; a template expands.
func checkMatches(t *testing.T, lang *Lang, m Matcher, src string) {
	tr, err := syntax.ParseFlat(lang.Name, []byte(src))
	if err != nil {
		return
	}
	ms, _ := FindAll(tr, m)
	if len(ms) > MaxMatchesPerFile {
		t.Fatalf("%d matches", len(ms))
	}
	for i := range ms {
		mt := &ms[i]
		if mt.Start < 0 || mt.End < mt.Start || mt.End > len(src) {
			t.Fatalf("match [%d,%d) out of a %d-byte source", mt.Start, mt.End, len(src))
		}
		for _, c := range mt.Vars {
			if c.Start >= 0 && (c.Start < mt.Start || c.End > mt.End || c.End < c.Start) {
				t.Fatalf("capture %s [%d,%d) outside its match [%d,%d)", c.Name, c.Start, c.End, mt.Start, mt.End)
			}
			for _, sp := range c.List {
				if sp.Start < c.Start || sp.End > c.End {
					t.Fatalf("list item [%d,%d) outside its capture [%d,%d)", sp.Start, sp.End, c.Start, c.End)
				}
			}
		}
		Expand(tr, mt, "<$A|$$$A|$B|$$$>")
	}
}

// FuzzCompilePattern: any pattern text in any language compiles or fails
// with an error, never a panic; what compiles matches within bounds over
// its own text and a fixed source.
func FuzzCompilePattern(f *testing.F) {
	for _, s := range []struct {
		lang    uint8
		pattern string
	}{
		{0, "foo($A, $B)"}, {0, "if err != nil { return err }"}, {0, "fmt.Errorf($$$A)"}, {0, "$X == $X"},
		{0, "func $F($$$) error { $$$ }"}, {0, "$A + $B"}, {0, "µA"}, {0, "$$$$A"}, {0, "{"},
		{1, "print($A)"}, {1, "($A)"}, {1, "[$$$A]"}, {1, "def $F($$$P): $$$B"}, {1, "$"},
		{2, "foo($$$A, c)"}, {2, "[$$$A]"}, {2, "if ($C) { $$$A } else { $$$A }"}, {2, "$$A"}, {2, "$_"},
		{3, "$X.unwrap()"}, {4, "$A + 1"}, {5, "System.out.println($$$)"}, {6, "function $F($$$) { $$$ }"},
		{7, "require $A"}, {2, strings.Repeat("[", 200) + strings.Repeat("]", 200)},
	} {
		f.Add(s.lang, s.pattern)
	}
	f.Fuzz(func(t *testing.T, sel uint8, pattern string) {
		name := fuzzLangs[int(sel)%len(fuzzLangs)]
		lang := testLang(t, name)
		p, err := CompilePattern(lang, pattern)
		if err != nil {
			if len(pattern) > MaxPattern && !strings.Contains(err.Error(), "cap") {
				t.Fatalf("a %d-byte pattern: %v", len(pattern), err)
			}
			return
		}
		if len(pattern) > MaxPattern {
			t.Fatalf("a %d-byte pattern compiled", len(pattern))
		}
		for _, lit := range p.Literals() {
			if lit == "" {
				t.Fatal("an empty literal")
			}
		}
		checkMatches(t, lang, p, pattern)
		checkMatches(t, lang, p, fuzzSrc[name])
	})
}

// FuzzParseRules: any rule file is read or refused with an error, never a
// panic nor a hang (aliases, deep nesting, huge documents); the rules
// read match within bounds over a fixed source of their language.
func FuzzParseRules(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "structural", "rules", "*.yml"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"id: a\nlanguage: go\nrule:\n  pattern: panic($A)\n",
		"id: a\nlanguage: python\nrule:\n  all:\n    - pattern: print($A)\n    - not: {inside: {kind: function_definition, stopBy: end}}\n",
		"id: a\nlanguage: javascript\nrule:\n  any: [{kind: call_expression}, {regex: '^foo'}]\nconstraints:\n  A: {regex: x}\n",
		"id: a\nlanguage: go\nrule:\n  has: {kind: identifier, stopBy: {kind: block}}\n---\nid: b\nlanguage: go\nrule: {precedes: {kind: return_statement}}\n",
		"a: &x [*x, *x]\n",
		"id: a\nlanguage: go\nrule: &r\n  not: *r\n",
		"id: a\nlanguage: go\nrule:\n" + strings.Repeat("  not:\n", 80) + "  kind: block\n",
		"id: a\nlanguage: cobol\nrule: {kind: x}\n",
		"---\n---\n",
		"id: [1]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		testLang(t, "go")
		rules, err := ParseRules(data)
		if err != nil {
			if len(data) > MaxRuleFile && !strings.Contains(err.Error(), "cap") {
				t.Fatalf("a %d-byte rule file: %v", len(data), err)
			}
			return
		}
		if len(rules) == 0 || len(rules) > MaxRules {
			t.Fatalf("%d rules", len(rules))
		}
		for _, r := range rules {
			if r.ID == "" || r.Lang == nil {
				t.Fatalf("a rule without id or language: %+v", r)
			}
			if src, ok := fuzzSrc[string(r.Lang.Name)]; ok {
				checkMatches(t, r.Lang, r, src)
			}
		}
	})
}
