package rank

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand"
	"sort"
	"sync"
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

// Documents of a Builder's DocMakers, made by goroutines at once (so
// their terms are numbered in any order) and some never added, make the
// index Build makes of NewFileDoc's documents, byte for byte.
func TestBuilderDocMakersMatchBuild(t *testing.T) {
	var srcs []string
	words := []string{"Parse", "walkTree", "http_server", "Routes", "ünïcode", "x1", "ctx", "deadline", "TLS13"}
	rng := rand.New(rand.NewSource(11))
	for f := 0; f < 300; f++ {
		s := fmt.Sprintf("package p%d\n\n", f%7)
		for d := 0; d < 1+rng.Intn(4); d++ {
			s += fmt.Sprintf("func F%d_%s() {\n", d, words[rng.Intn(len(words))])
			for l := 0; l < rng.Intn(6); l++ {
				s += "\t" + words[rng.Intn(len(words))] + "(" + words[rng.Intn(len(words))] + ")\n"
			}
			s += "}\n\n"
		}
		srcs = append(srcs, s)
	}
	path := func(i int) string { return fmt.Sprintf("d%02d/f%03d.go", i%13, i) }
	var plain []*FileDoc
	for i, s := range srcs {
		plain = append(plain, NewFileDoc(path(i), revisionOf(s), []byte(s)))
	}
	want := encoded(t, Build(plain))

	b := NewBuilderFor(len(srcs))
	docs := make([]*FileDoc, len(srcs))
	var wg sync.WaitGroup
	for w := 0; w < 3; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dm := b.DocMaker(len(srcs) / 3)
			dm.Doc("zz/never-added.go", revisionOf("x"), []byte("package never\n\nfunc OnlyHereNeverIndexed() {}\n"))
			for i := len(srcs) - 1 - w; i >= 0; i -= 3 {
				docs[i] = dm.Doc(path(i), revisionOf(srcs[i]), []byte(srcs[i]))
			}
		}()
	}
	wg.Wait()
	sorted := append([]*FileDoc(nil), docs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for _, d := range sorted {
		b.Add(d)
	}
	if got := encoded(t, b.Index()); got != want {
		t.Error("the index of a Builder's DocMakers' documents differs from Build's")
	}
}

// sortTerms orders as strings.Compare does, for terms that share their
// first eight bytes, are shorter, hold NUL bytes or are not ASCII, by
// comparisons (few terms) and by its radix sort (many).
func TestSortTermsMatchesCompare(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	alpha := []string{"a", "b", "\x00", "ü", "z", "_", "1"}
	for _, n := range []int{0, 1, 50, radixSortTerms + 77, 40000} {
		seen := map[string]bool{}
		var terms []string
		for len(terms) < n {
			s := []string{"", "abcdefgh", "abcdefg", "abc\x00"}[rng.Intn(4)]
			for k := rng.Intn(6); k > 0; k-- {
				s += alpha[rng.Intn(len(alpha))]
			}
			if !seen[s] {
				seen[s] = true
				terms = append(terms, s)
			}
		}
		ids := make([]uint32, n)
		for i := range ids {
			ids[i] = uint32(i)
		}
		rng.Shuffle(n, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		sortTerms(terms, ids)
		for i := 1; i < n; i++ {
			if terms[ids[i-1]] >= terms[ids[i]] {
				t.Fatalf("n=%d: %q before %q", n, terms[ids[i-1]], terms[ids[i]])
			}
		}
	}
}

// A Builder's layout in several parts at once is its layout in one, and
// the postings it lays out are the ones added (differential).
func TestLayoutPartsMatchOne(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	var docs []*FileDoc
	for f := 0; f < 200; f++ {
		s := "package p\n\n"
		for l := 0; l < 1+rng.Intn(30); l++ {
			s += fmt.Sprintf("func F%d() { w%d(x%d) }\n", rng.Intn(500), rng.Intn(2000), rng.Intn(50))
		}
		docs = append(docs, NewFileDoc(fmt.Sprintf("d/f%03d.go", f), revisionOf(s), []byte(s)))
	}
	b := NewBuilder()
	for _, d := range docs {
		b.Add(d)
	}
	terms := b.nb.dict.snapshot()
	var order []uint32
	for id := range b.post.terms {
		if b.post.terms[id].df > 0 {
			order = append(order, uint32(id))
		}
	}
	sortTerms(terms, order)
	to1, po1, tb1, pb1 := b.layout(terms, order, 1)
	for _, parts := range []int{2, 3, 7, len(order) + 5} {
		to, po, tb, pb := b.layout(terms, order, parts)
		if !bytes.Equal(to, to1) || !bytes.Equal(po, po1) || !bytes.Equal(tb, tb1) || !bytes.Equal(pb, pb1) {
			t.Errorf("%d parts: the layout differs from one part's", parts)
		}
	}
	// Each term's postings are its document frequency and pairs.
	for k, id := range order {
		p := po1.span(pb1, k)
		df, n := binary.Uvarint(p)
		if n <= 0 || uint32(df) != b.post.terms[id].df || len(p)-n != int(b.post.terms[id].total) {
			t.Fatalf("term %q: postings %x", terms[id], p)
		}
	}
}

// written clears a table in place (all of it, the same array).
func TestWritten(t *testing.T) {
	a := []uint64{1, 2, 3}
	if b := written(a); &b[0] != &a[0] || len(b) != 3 || a[0]|a[1]|a[2] != 0 {
		t.Errorf("written: %v", a)
	}
}

// A shared dictionary, looked up by goroutines at once, gives each term
// one id and no two terms the same, and reads them back by id (term,
// snapshot) as a map would.
func TestSharedDictMatchesMap(t *testing.T) {
	d := newTermDict(100, true)
	words := make([]string, 5000)
	for i := range words {
		words[i] = fmt.Sprintf("w%d_%x", i%2500, i%3) // each word twice or more
	}
	ids := make([][]uint32, 4)
	var wg sync.WaitGroup
	for g := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, w := range words {
				if g%2 == 0 {
					ids[g] = append(ids[g], d.lookup([]byte(w), ""))
				} else {
					ids[g] = append(ids[g], d.idOf(w))
				}
			}
		}()
	}
	wg.Wait()
	byTerm := map[string]uint32{}
	byID := map[uint32]string{}
	for g := range ids {
		for i, id := range ids[g] {
			w := words[i]
			if prev, ok := byTerm[w]; ok && prev != id {
				t.Fatalf("%q: ids %d and %d", w, prev, id)
			}
			if prev, ok := byID[id]; ok && prev != w {
				t.Fatalf("id %d: %q and %q", id, prev, w)
			}
			byTerm[w], byID[id] = id, w
		}
	}
	if d.size() != len(byTerm) {
		t.Errorf("size %d, want %d", d.size(), len(byTerm))
	}
	snap := d.snapshot()
	for id, w := range byID {
		if d.term(id) != w || snap[id] != w {
			t.Errorf("id %d: term %q, snapshot %q, want %q", id, d.term(id), snap[id], w)
		}
	}
}

// A term counter's cache of token ids gives each token its own id in
// the dictionary, for more tokens than the cache holds (so that they
// evict each other), looked up again and again, in its own dictionary
// and in a Builder's shared one.
func TestCounterTokenCache(t *testing.T) {
	for _, shared := range []bool{false, true} {
		var c termCounter
		if shared {
			c.shared = newTermDict(100, true)
		}
		c.init("p/x.go")
		for round := 0; round < 3; round++ {
			for i := 0; i < 3*counterTokens; i++ {
				tok := fmt.Sprintf("tok%d", (i*7919)%(3*counterTokens))
				if got := c.dict.term(c.id([]byte(tok))); got != tok {
					t.Fatalf("shared %v: token %q has the id of %q", shared, tok, got)
				}
			}
		}
		if n := c.dict.size(); n < 3*counterTokens {
			t.Errorf("shared %v: %d terms, want at least %d", shared, n, 3*counterTokens)
		}
	}
}
