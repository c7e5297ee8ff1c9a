package rank

import (
	"fmt"
	"math/rand"
	"reflect"
	"sync"
	"testing"
)

// Build's postings are, term by term, the chunks holding the term in
// chunk order with their counts, as a plain map gives them; terms are
// sorted (differential over random documents, enough chunks for
// buildParts to use two workers where there are two cores).
func TestBuildPostingsMatchMap(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	vocab := []string{"alpha", "beta", "gamma", "delta", "Walk", "parseURL", "http_server", "x1", "zeta", "eta"}
	var docs []*FileDoc
	for f := 0; f < 1500; f++ {
		var cs []tc
		for c := 0; c < 1+rng.Intn(5); c++ {
			text := ""
			for w := 0; w < rng.Intn(12); w++ {
				text += vocab[rng.Intn(len(vocab))] + " "
			}
			cs = append(cs, tc{"", text})
		}
		docs = append(docs, doc(fmt.Sprintf("d%04d/f.txt", 1499-f), cs...)) // given out of path order
	}
	ix := Build(docs)
	type post struct{ chunk, n uint32 }
	want := map[string][]post{}
	for c := 0; c < ix.Chunks(); c++ {
		fd := ix.Doc(ix.files[ix.chunkFile[c]].path)
		for _, tcnt := range fd.TermCounts(int(int32(c) - ix.files[ix.chunkFile[c]].first)) {
			want[tcnt.Term] = append(want[tcnt.Term], post{uint32(c), tcnt.N})
		}
	}
	got := map[string][]post{}
	for id := 0; id < ix.terms(); id++ {
		term := ix.term(uint32(id))
		if id > 0 && ix.term(uint32(id-1)) >= term {
			t.Fatalf("terms not sorted at %q", term)
		}
		ix.postings(uint32(id), func(c, n uint32) { got[term] = append(got[term], post{c, n}) })
		if ix.df(uint32(id)) != len(got[term]) {
			t.Errorf("%q: df %d, %d postings", term, ix.df(uint32(id)), len(got[term]))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("postings differ:\n got %v\nwant %v", got, want)
	}
	// Independent of the index: every chunk's source terms are there.
	for _, d := range docs {
		f, _ := ix.Lookup(d.Path)
		if f.Chunks != len(d.Chunks) {
			t.Fatalf("%s: %d chunks, want %d", d.Path, f.Chunks, len(d.Chunks))
		}
		back := ix.Doc(d.Path)
		for ci := range d.Terms {
			m := map[string]uint32{}
			for _, x := range d.Terms[ci] {
				m[x.Term] = x.N
			}
			mb := map[string]uint32{}
			for _, x := range back.TermCounts(ci) {
				mb[x.Term] = x.N
			}
			if !reflect.DeepEqual(m, mb) {
				t.Errorf("%s chunk %d: %v, want %v", d.Path, ci, mb, m)
			}
		}
	}
}

// A view with a path prefix shows the prefix everywhere a path is shown
// or taken, and ranks exactly as the index itself.
func TestWithPathPrefix(t *testing.T) {
	ix := sampleIndex()
	v := ix.WithPathPrefix("/abs/tree")
	for _, q := range []string{"Walk", "parse url", "tree"} {
		a, b := ix.Search(q, &Default, 10), v.Search(q, &Default, 10)
		if len(a) != len(b) || len(a) == 0 {
			t.Fatalf("%q: %d vs %d hits", q, len(a), len(b))
		}
		for i := range a {
			if b[i].Path != "/abs/tree/"+a[i].Path || b[i].Score != a[i].Score || b[i].Chunk != a[i].Chunk {
				t.Errorf("%q #%d: %+v vs %+v", q, i, a[i], b[i])
			}
		}
	}
	if f, ok := v.Lookup("/abs/tree/a/x.go"); !ok || f.Path != "/abs/tree/a/x.go" {
		t.Errorf("Lookup: %+v %v", f, ok)
	}
	if _, ok := v.Lookup("a/x.go"); ok {
		t.Error("Lookup found a path without the prefix")
	}
	from, hits, ok := v.Related("/abs/tree/a/x.go", 1, &Default, 5)
	if !ok || from.Path != "/abs/tree/a/x.go" || len(hits) == 0 {
		t.Errorf("Related: %+v %v %v", from, hits, ok)
	}
	if v.File(0).Path != "/abs/tree/"+ix.File(0).Path {
		t.Errorf("File: %q", v.File(0).Path)
	}
}

// LookupNear finds a file with a right, wrong or out-of-range hint.
func TestLookupNear(t *testing.T) {
	ix := sampleIndex()
	for _, hint := range []int{-1, 0, 1, 99} {
		f, at, ok := ix.LookupNear("b/y.go", hint)
		if !ok || f.Path != "b/y.go" || ix.File(at).Path != "b/y.go" {
			t.Errorf("hint %d: %+v %d %v", hint, f, at, ok)
		}
	}
	if _, at, ok := ix.LookupNear("zz/none.go", 0); ok || at != -1 {
		t.Errorf("a missing file: %d %v", at, ok)
	}
}

// A file's category is classified on first use, as Classify does, and
// kept.
func TestCategoryLazy(t *testing.T) {
	gen := doc("a/gen.go", tc{"", "x"})
	gen.Generated = true
	ix := Build([]*FileDoc{doc("a/b.go", tc{"", "x"}), doc("a/b_test.go", tc{"", "x"}), doc("vendor/v/c.go", tc{"", "x"}), gen})
	for round := 0; round < 2; round++ {
		for i := range ix.files {
			f := &ix.files[i]
			if got, want := ix.category(int32(i)), Classify(f.path, f.generated); got != want {
				t.Errorf("round %d: category(%s) = %v, want %v", round, f.path, got, want)
			}
		}
	}
}

// Searches at once on one index classify its files once between them
// and rank alike (run with -race).
func TestConcurrentSearch(t *testing.T) {
	docs := func() *Index {
		return build(doc("a/b.go", tc{"", "cookie parse"}), doc("a/b_test.go", tc{"", "cookie parse"}), doc("vendor/v/c.go", tc{"", "cookie jar"}))
	}
	p := Default
	want := fmt.Sprint(order(docs().Search("cookie parse", &p, 10)))
	ix := docs() // its files not classified yet
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := fmt.Sprint(order(ix.Search("cookie parse", &p, 10))); got != want {
				t.Errorf("%s, want %s", got, want)
			}
		}()
	}
	wg.Wait()
}
