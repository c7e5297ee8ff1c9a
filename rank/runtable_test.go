package rank

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/evgrep/evgrep/revisions"
)

// The run table holds what a map holds, through its growth from the
// smallest size, for runs that share prefixes and lengths (differential).
func TestRunTableMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	tab := newRunTable(0)
	want := map[string]uint64{}
	for i := 0; i < 20000; i++ {
		w := fmt.Sprintf("run%d_%x", rng.Intn(9000), rng.Intn(4))
		if i%7 == 0 {
			w = w[:1+rng.Intn(len(w))]
		}
		v, ok := tab.get([]byte(w))
		wv, wok := want[w]
		if ok != wok || v != wv {
			t.Fatalf("get(%q) = %d, %v; want %d, %v", w, v, ok, wv, wok)
		}
		if !ok {
			tab.put([]byte(w), uint64(i)<<32|uint64(len(w)))
			want[w] = uint64(i)<<32 | uint64(len(w))
		}
	}
	if tab.len() != len(want) {
		t.Fatalf("%d runs, want %d", tab.len(), len(want))
	}
	for w, wv := range want {
		if v, ok := tab.get([]byte(w)); !ok || v != wv {
			t.Fatalf("after growth, get(%q) = %d, %v; want %d", w, v, ok, wv)
		}
	}
	if _, ok := tab.get([]byte("absent")); ok {
		t.Fatal("found a run never put")
	}
}

// One DocMaker's documents, file after file, count what NewFileDoc
// counts, and an index of them is the index of NewFileDoc's.
func TestDocMakerMatchesNewFileDoc(t *testing.T) {
	srcs := []string{
		"package a\n\nfunc ParseDuration(s string) (Duration, error) { return parse(s) }\n",
		"package b\n\ntype Server struct{ HTTPServer int }\n\nfunc (s *Server) ServeHTTP() { routeContext() }\n",
		"package a\n\n// Walk walks the tree.\nfunc Walk(root string) error { return walk(root) }\n",
		"plain text with ünïcode ΣΑΣ and route-context routes routing\n",
	}
	dm := NewDocMaker(len(srcs))
	var mine, theirs []*FileDoc
	for round := 0; round < 3; round++ {
		for i, s := range srcs {
			path := fmt.Sprintf("p%d/f%d.go", round, i)
			if i == 3 {
				path = fmt.Sprintf("p%d/notes.txt", round)
			}
			a, b := dm.Doc(path, revisionOf(s), []byte(s)), NewFileDoc(path, revisionOf(s), []byte(s))
			if fmt.Sprint(a.Chunks) != fmt.Sprint(b.Chunks) {
				t.Fatalf("%s: chunks %v, want %v", path, a.Chunks, b.Chunks)
			}
			for c := range a.Chunks {
				if x, y := counts(a.TermCounts(c)), counts(b.TermCounts(c)); x != y {
					t.Errorf("%s chunk %d: %s, want %s", path, c, x, y)
				}
			}
			mine, theirs = append(mine, a), append(theirs, b)
		}
	}
	if x, y := encoded(t, Build(mine)), encoded(t, Build(theirs)); x != y {
		t.Error("the index of a DocMaker's documents differs from NewFileDoc's")
	}
}

// revisionOf is a revision for a test document.
func revisionOf(s string) revisions.Revision {
	return revisions.Revision{Identity: revisions.Identity{Size: int64(len(s))}, Verified: true}
}

// counts is a chunk's term counts in term order, as text.
func counts(tcs []TermCount) string {
	m := map[string]uint32{}
	for _, x := range tcs {
		m[x.Term] += x.N
	}
	return fmt.Sprint(m) // fmt prints maps sorted by key
}

// encoded is ix as its cache holds it.
func encoded(t *testing.T, ix *Index) string {
	t.Helper()
	data, err := Encode("k", ix)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
