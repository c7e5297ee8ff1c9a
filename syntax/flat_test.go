//go:build cgo

package syntax

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
)

// TestParseTreeMatchesBindings: the flattened tree has exactly the nodes
// that go-tree-sitter's own walk finds, in pre-order, with their kinds,
// ranges, flags, parents and sibling links.
func TestParseFlatMatchesBindings(t *testing.T) {
	srcs := map[Language]string{
		Go:         "package p\n\nfunc f(a int) error { if a > 0 { return nil }; return fmt.Errorf(\"x\") // c\n}\n",
		Python:     "def f(x):\n    return [i for i in x if i]\n",
		JavaScript: "const a = (b) => b + 1; // c\nclass K { m() { return this.a } }\n",
		Rust:       "fn f() -> u32 { let x = v.unwrap(); x }\n",
		C:          "int main(void) { return 0 }\n", // a syntax error: MISSING
	}
	for lang, src := range srcs {
		tr, err := ParseFlat(lang, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := sameAsBindings(lang, []byte(src), tr); err != nil {
			t.Fatal(err)
		}
		if id, ok := KindID(lang, tr.Kind(0)); !ok || id != tr.Nodes[0].Kind {
			t.Errorf("%s: KindID(%s) = %d, %v", lang, tr.Kind(0), id, ok)
		}
	}
}

// sameAsBindings compares a flattened tree with go-tree-sitter's own walk
// of a parse of src (on the C library's heap, outside any arena).
func sameAsBindings(lang Language, src []byte, tr *Tree) error {
	g := grammars()[lang]
	p := sitter.NewParser()
	p.SetLanguage(g.lang)
	st, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		return err
	}
	var ref []*sitter.Node
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		ref = append(ref, n)
		for i := 0; i < int(n.ChildCount()); i++ {
			walk(n.Child(i))
		}
	}
	walk(st.RootNode())
	if len(ref) != len(tr.Nodes) {
		return fmt.Errorf("%s: %d nodes, bindings %d", lang, len(tr.Nodes), len(ref))
	}
	var kids []int32
	for i, n := range ref {
		f := &tr.Nodes[i]
		if int(f.Start) != int(n.StartByte()) || int(f.End) != int(n.EndByte()) || f.Kind != uint16(n.Symbol()) ||
			f.Named() != n.IsNamed() || f.Missing() != n.IsMissing() || f.Extra() != n.IsExtra() ||
			int(f.NumChildren) != int(n.ChildCount()) || tr.Kind(int32(i)) != n.Type() {
			return fmt.Errorf("%s: node %d: %+v %s, bindings %s [%d,%d)", lang, i, *f, tr.Kind(int32(i)), n.Type(), n.StartByte(), n.EndByte())
		}
		kids = tr.Children(int32(i), kids[:0])
		if len(kids) != int(n.ChildCount()) {
			return fmt.Errorf("%s: node %d: %d children linked", lang, i, len(kids))
		}
		for _, c := range kids {
			if tr.Nodes[c].Parent != int32(i) {
				return fmt.Errorf("%s: child %d of %d has parent %d", lang, c, i, tr.Nodes[c].Parent)
			}
		}
	}
	if tr.HasError != st.RootNode().HasError() {
		return fmt.Errorf("%s: HasError %v", lang, tr.HasError)
	}
	return nil
}

// TestParseFlatArenas: parses in arenas (arena.c) give the bindings' trees
// for small sources (all in the arena), for a source whose tree outgrows
// its arena's budget (the rest from the C library, then deleted), with
// syntax errors, and with many parses at once reusing a few arenas.
func TestParseFlatArenas(t *testing.T) {
	var big strings.Builder
	for i := 0; big.Len() < 1<<20; i++ {
		fmt.Fprintf(&big, "def f%d(a, b=%d):\n    if a > b:\n        return [x * %d for x in range(a) if x]\n    return {'k': (a, b)}\n\n", i, i, i)
	}
	srcs := []struct {
		lang Language
		src  string
	}{
		{Python, big.String()},
		{Go, "package p\n\nfunc f() { x := []int{1, 2, 3}; for _, v := range x { println(v) } }\n"},
		{C, "int f(int a) { if (a) { return g(a, 1 } return 0; }\n"}, // errors
		{JavaScript, "let a = [1, 2, 3].map((x) => x * 2);\nfunction g() { return a }\n"},
		{Rust, "fn f(v: Vec<u32>) -> u32 { v.iter().map(|x| x + 1).sum() }\n"},
	}
	spills := arenaSpills.Load()
	for _, c := range srcs {
		tr, err := ParseFlat(c.lang, []byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if err := sameAsBindings(c.lang, []byte(c.src), tr); err != nil {
			t.Fatal(err)
		}
	}
	if got := arenaSpills.Load() - spills; got != 1 {
		t.Fatalf("%d parses outgrew their arena; the large source's alone should", got)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 12; i++ {
				c := srcs[1+(g+i)%(len(srcs)-1)]
				// Distinct sources, so that the parse cache does not answer.
				src := []byte(c.src + strings.Repeat("\n", g*16+i+1))
				tr, err := ParseFlat(c.lang, src)
				if err == nil {
					err = sameAsBindings(c.lang, src, tr)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestParseTreeCache: the same source is parsed once; a large source
// beyond the cap is refused.
func TestParseFlatCache(t *testing.T) {
	src := []byte("package p\n\nfunc cached() {}\n")
	_, _, before := defaultTrees.stats()
	a, err := ParseFlat(Go, src)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ParseFlat(Go, append([]byte(nil), src...))
	_, nodes, after := defaultTrees.stats()
	if a != b || after != before+1 || nodes == 0 {
		t.Fatalf("parses %d -> %d, same tree %v", before, after, a == b)
	}
	big := make([]byte, MaxSource+1)
	if _, err := ParseFlat(Go, big); err == nil {
		t.Fatal("over the cap parsed")
	}
	// A real file parses into the tree its size suggests.
	data, err := os.ReadFile(filepath.Join("..", "structural", "match.go"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ParseFlat(Go, data)
	if err != nil || tr.HasError || len(tr.Nodes) < 500 {
		t.Fatalf("match.go: %v, %d nodes, error %v", err, len(tr.Nodes), tr != nil && tr.HasError)
	}
}

// TestFlatFields: each node carries the field it stands in under its
// parent, named as the grammar names it.
func TestFlatFields(t *testing.T) {
	tr, err := ParseFlat(Go, []byte("package p\n\nfunc f() { g(1) }\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for i := range tr.Nodes {
		if f := tr.Field(int32(i)); f != "" {
			got[string(tr.Text(int32(i)))+"/"+tr.Kind(int32(i))] = f
		}
	}
	for k, want := range map[string]string{"f/identifier": "name", "g/identifier": "function", "(1)/argument_list": "arguments", "{ g(1) }/block": "body"} {
		if got[k] != want {
			t.Errorf("%s: field %q, want %q", k, got[k], want)
		}
	}
	id, ok := FieldID(Go, "function")
	if !ok || id == 0 {
		t.Fatalf("FieldID(go, function) = %d, %v", id, ok)
	}
	if _, ok := FieldID(Go, "no_such_field"); ok {
		t.Error("FieldID found a field the grammar lacks")
	}
}

// TestParseBudget: large sources parsed from several goroutines at once
// never have more than parseBudget bytes in parse together; here each is
// over half the budget, so they are parsed one at a time (without the
// budget, the cgo calls run side by side whatever GOMAXPROCS is).
func TestParseBudget(t *testing.T) {
	var src strings.Builder
	for i := 0; src.Len() <= parseBudget/2; i++ {
		fmt.Fprintf(&src, "func f%d(a int) int { if a > %d { return a * 2 }; return a }\n", i, i)
	}
	big := []byte("package p\n" + src.String())
	largeParsing.mu.Lock()
	largeParsing.peak = largeParsing.now
	largeParsing.mu.Unlock()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			if _, err := ParseFlatOnce(Go, big); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	largeParsing.mu.Lock()
	peak := largeParsing.peak
	largeParsing.mu.Unlock()
	if peak > parseBudget || peak < len(big) {
		t.Fatalf("%d bytes of large sources in parse at once, budget %d (each %d)", peak, parseBudget, len(big))
	}
}
