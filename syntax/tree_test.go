//go:build cgo

package syntax

import (
	"errors"
	"strings"
	"testing"
)

// TestParseTree: every language's grammar parses a snippet of it into a
// tree whose root has the grammar's root kind and no error, and the
// grammar is the one LanguageByName gives for the name.
func TestParseTree(t *testing.T) {
	cases := map[Language]struct{ src, root string }{
		Go:         {"package p\n\nfunc f() {}\n", "source_file"},
		Python:     {"def f():\n    pass\n", "module"},
		Rust:       {"fn f() {}\n", "source_file"},
		JavaScript: {"function f() {}\n", "program"},
		TypeScript: {"function f(x: number): void {}\n", "program"},
		TSX:        {"const a = <div>{x}</div>;\n", "program"},
		Java:       {"class A { void f() {} }\n", "program"},
		C:          {"int f(void) { return 0; }\n", "translation_unit"},
		Cpp:        {"namespace n { int f(); }\n", "translation_unit"},
		Ruby:       {"def f\nend\n", "program"},
		Bash:       {"f() { echo hi; }\n", "program"},
		CSharp:     {"class A { void F() {} }\n", "compilation_unit"},
		CSS:        {"a { color: red; }\n", "stylesheet"},
		HTML:       {"<p>hi</p>\n", "document"},
		Kotlin:     {"fun f() {}\n", "source_file"},
		Lua:        {"local function f() end\n", "chunk"},
		PHP:        {"<?php function f() {}\n", "program"},
		Scala:      {"object A { def f = 1 }\n", "compilation_unit"},
		Swift:      {"func f() {}\n", "source_file"},
		YAML:       {"a: 1\n", "stream"},
	}
	for _, l := range Languages() {
		c, ok := cases[l]
		if !ok {
			t.Errorf("no case for %s", l)
			continue
		}
		tree, err := ParseTree(l, []byte(c.src))
		if err != nil {
			t.Errorf("ParseTree(%s): %v", l, err)
			continue
		}
		root := tree.RootNode()
		if root.Type() != c.root || root.HasError() {
			t.Errorf("%s: root %s (errors %v), want %s:\n%s", l, root.Type(), root.HasError(), c.root, root.String())
		}
		g, ok := LanguageByName(string(l))
		if !ok {
			t.Errorf("LanguageByName(%q) failed", l)
		} else if g.SymbolName(root.Symbol()) != c.root {
			t.Errorf("LanguageByName(%q) is another grammar", l)
		}
		tree.Close()
	}
}

// TestParseTreeErrors: unknown languages and oversized sources are refused
// with the package's errors.
func TestParseTreeErrors(t *testing.T) {
	if _, err := ParseTree("cobol", []byte("x")); !errors.Is(err, ErrNoParser) {
		t.Errorf("cobol: %v", err)
	}
	if _, ok := LanguageByName("cobol"); ok {
		t.Error("LanguageByName(cobol) succeeded")
	}
	if _, ok := Grammar("cobol"); ok {
		t.Error("Grammar(cobol) succeeded")
	}
	big := []byte(strings.Repeat("a", MaxSource+1))
	if _, err := ParseTree(Go, big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized: %v", err)
	}
}
