package rank

import (
	"fmt"
	"strings"
	"testing"
)

// tc is one chunk of a test document: its declared name ("" for a line
// window) and its text.
type tc struct{ name, text string }

// doc builds a document without a parser: one chunk per tc, a line each.
func doc(path string, chunks ...tc) *FileDoc {
	d := &FileDoc{Path: path}
	d.Rev.Verified = true
	for i, c := range chunks {
		kind := "function"
		if c.name == "" {
			kind = KindLines
		}
		d.Chunks = append(d.Chunks, Chunk{StartLine: i + 1, EndLine: i + 1, Kind: kind, Name: c.name})
		d.Terms = append(d.Terms, countTerms(path, "", c.text))
	}
	return d
}

// order is "path:line" of each hit, best first.
func order(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, fmt.Sprintf("%s:%d", h.Path, h.Chunk.StartLine))
	}
	return out
}

func scoreOf(hits []Hit, key string) float64 {
	for _, h := range hits {
		if fmt.Sprintf("%s:%d", h.Path, h.Chunk.StartLine) == key {
			return h.Score
		}
	}
	return 0
}

// neutral switches every reranking factor off: plain BM25.
func neutral() Params {
	p := Default
	p.DefineSymbol, p.DefineNatural, p.PathMatch, p.FileEvidence, p.Coverage = 0, 0, 0, 0, 0
	p.Test, p.TestData, p.Vendor, p.Generated, p.Example, p.DocSymbol, p.DocNatural, p.Mentioned = 1, 1, 1, 1, 1, 1, 1, 1
	p.FileDecay = 1
	p.Header = 1
	p.NameEvidence = 0
	p.Abbrev = 0
	p.Compound = 0
	return p
}

// filler are documents that give the test terms a realistic idf.
func filler() []*FileDoc {
	var out []*FileDoc
	for i := 0; i < 20; i++ {
		out = append(out, doc(fmt.Sprintf("z/fill%02d.go", i), tc{"", "unrelated words here and there"}))
	}
	return out
}

func build(docs ...*FileDoc) *Index { return Build(append(docs, filler()...)) }

// BM25: B normalises length — a longer chunk with the same count scores
// lower when B > 0, the same when B = 0; K1 saturates counts.
func TestBM25LengthAndSaturation(t *testing.T) {
	ix := build(
		doc("a/short.go", tc{"", "timeout"}),
		doc("a/long.go", tc{"", "timeout " + strings.Repeat("pad ", 30)}),
	)
	p := neutral()
	hits := ix.Search("timeout", &p, 10)
	if got := order(hits); got[0] != "a/short.go:1" || scoreOf(hits, "a/short.go:1") <= scoreOf(hits, "a/long.go:1") {
		t.Errorf("B=%v: %v", p.B, got)
	}
	p.B, p.BSymbol = 0, 0
	hits = ix.Search("timeout", &p, 10)
	if s, l := scoreOf(hits, "a/short.go:1"), scoreOf(hits, "a/long.go:1"); s != l {
		t.Errorf("B=0: short %v long %v", s, l)
	}
	ix = build(doc("a/one.go", tc{"", "retry"}), doc("a/many.go", tc{"", strings.Repeat("retry ", 20)}))
	p = neutral()
	p.B, p.BSymbol = 0, 0
	hits = ix.Search("retry", &p, 10)
	if r := scoreOf(hits, "a/many.go:1") / scoreOf(hits, "a/one.go:1"); r > p.K1+1 || r <= 1 {
		t.Errorf("20 occurrences score %v× one (K1=%v bounds it by %v)", r, p.K1, p.K1+1)
	}
}

// BSymbol: a symbol query normalises length by BSymbol, not B, so a
// one-line prototype of a name does not outrank its definition by its
// shortness alone (C's header declaration against the source's body).
func TestBSymbol(t *testing.T) {
	body := "secs_to_tm(long long t, struct tm *tm) " + strings.Repeat("days secs years months ", 8)
	ix := build(
		doc("src/time/impl.h", tc{"secs_to_tm", "int secs_to_tm(long long, struct tm *)"}),
		doc("src/time/conv.c", tc{"secs_to_tm", body}),
	)
	p := neutral()
	p.B, p.BSymbol = 0.9, 0.9
	hits := ix.Search("secs_to_tm", &p, 10)
	if got := order(hits); got[0] != "src/time/impl.h:1" {
		t.Fatalf("BSymbol=B=0.9: the prototype should win on length: %v", got)
	}
	p.BSymbol = 0
	hits = ix.Search("secs_to_tm", &p, 10)
	if p, d := scoreOf(hits, "src/time/impl.h:1"), scoreOf(hits, "src/time/conv.c:1"); d < p {
		t.Errorf("BSymbol=0: definition %v below prototype %v", d, p)
	}
	// A natural-language query keeps B.
	p.B = 0.9
	q := ParseQuery("convert seconds to broken down time", &p)
	if q.Symbol || p.lengthNorm(&q) != 0.9 {
		t.Errorf("natural query normalised by %v", p.lengthNorm(&q))
	}
}

// DefineSymbol: for a symbol query, the chunk that declares the name
// beats one that only uses it more often.
func TestDefineSymbol(t *testing.T) {
	ix := build(
		doc("a/def.go", tc{"Walk", "func Walk(root string) error"}),
		doc("a/use.go", tc{"run", "Walk(a) Walk(b) Walk(c) Walk(d)"}),
	)
	p := neutral()
	if got := order(ix.Search("Walk", &p, 2)); got[0] != "a/use.go:1" {
		t.Fatalf("without the boost the more frequent use should lead: %v", got)
	}
	p.DefineSymbol = Default.DefineSymbol
	if got := order(ix.Search("Walk", &p, 2)); got[0] != "a/def.go:1" {
		t.Errorf("DefineSymbol %v: %v", p.DefineSymbol, got)
	}
}

// DefineNatural: the same for an identifier inside a natural-language
// query, with its own (smaller) weight.
func TestDefineNatural(t *testing.T) {
	ix := build(
		doc("a/def.go", tc{"NewReader", "func NewReader returns a reader"}),
		doc("a/use.go", tc{"other", "NewReader NewReader reader"}),
	)
	p := neutral()
	q := "where is NewReader defined"
	base := ix.Search(q, &p, 2)
	p.DefineNatural = 0.5
	boosted := ix.Search(q, &p, 2)
	if r := scoreOf(boosted, "a/def.go:1") / scoreOf(base, "a/def.go:1"); r < 1.499 || r > 1.501 {
		t.Errorf("defining chunk ×%v, want ×1.5", r)
	}
	if scoreOf(boosted, "a/use.go:1") != scoreOf(base, "a/use.go:1") {
		t.Error("a chunk that does not define the name changed")
	}
}

// Coverage: a natural-language query favours the chunk holding all its
// words over one repeating a single word.
func TestCoverage(t *testing.T) {
	ix := build(
		doc("a/both.go", tc{"", "gzip header writer"}),
		doc("a/one.go", tc{"", "gzip gzip gzip gzip gzip gzip"}),
	)
	p := neutral()
	p.B = 0
	q := "gzip header"
	plain := ix.Search(q, &p, 2)
	p.Coverage = 2
	cov := ix.Search(q, &p, 2)
	if r := scoreOf(cov, "a/both.go:1") / scoreOf(plain, "a/both.go:1"); r < 2.999 || r > 3.001 {
		t.Errorf("full coverage ×%v, want ×3", r)
	}
	if r := scoreOf(cov, "a/one.go:1") / scoreOf(plain, "a/one.go:1"); r < 1.499 || r > 1.501 {
		t.Errorf("half coverage ×%v, want ×1.5", r)
	}
}

// PathMatch: the share of query words in a file's path multiplies its
// chunks' scores.
func TestPathMatch(t *testing.T) {
	ix := build(doc("sync/once.go", tc{"", "run only once"}), doc("sync/other.go", tc{"", "run only once"}))
	p := neutral()
	plain := ix.Search("once", &p, 2)
	p.PathMatch = 0.5
	boosted := ix.Search("once", &p, 2)
	if r := scoreOf(boosted, "sync/once.go:1") / scoreOf(plain, "sync/once.go:1"); r < 1.499 || r > 1.501 {
		t.Errorf("path match ×%v, want ×1.5", r)
	}
	if scoreOf(boosted, "sync/other.go:1") != scoreOf(plain, "sync/other.go:1") {
		t.Error("a path without the word changed")
	}
}

// FileEvidence: several matching chunks in one file lift each of them.
func TestFileEvidence(t *testing.T) {
	ix := build(
		doc("a/lone.go", tc{"", "cookie parse cookie"}),
		doc("a/rich.go", tc{"", "cookie parse"}, tc{"", "cookie value"}, tc{"", "cookie jar"}),
	)
	p := neutral()
	if got := order(ix.Search("cookie parse", &p, 1)); got[0] != "a/lone.go:1" {
		t.Fatalf("without file evidence: %v", got)
	}
	p.FileEvidence, p.FileEvidenceCap = 1, 1
	if got := order(ix.Search("cookie parse", &p, 1)); got[0] != "a/rich.go:1" {
		t.Errorf("FileEvidence 1: %v", got)
	}
}

// Path priors: tests, test data, vendored, generated and example files
// and documentation are weighed down, unless the query names the category.
func TestPathPriors(t *testing.T) {
	gen := doc("a/gen.go", tc{"", "marshal the value"})
	gen.Generated = true
	ix := build(
		doc("a/code.go", tc{"", "marshal the value"}),
		doc("a/code_test.go", tc{"", "marshal the value"}),
		doc("a/testdata/x.go", tc{"", "marshal the value"}),
		doc("vendor/x/y.go", tc{"", "marshal the value"}),
		gen,
		doc("examples/m.go", tc{"", "marshal the value"}),
		doc("docs/guide.md", tc{"", "marshal the value"}),
	)
	p := neutral()
	plain := ix.Search("marshal value", &p, 10)
	p = Default
	p.DefineSymbol, p.DefineNatural, p.PathMatch, p.FileEvidence, p.Coverage, p.FileDecay = 0, 0, 0, 0, 0, 1
	pri := ix.Search("marshal value", &p, 10)
	want := map[string]float64{
		"a/code.go:1": 1, "a/code_test.go:1": p.Test, "a/testdata/x.go:1": p.TestData,
		"vendor/x/y.go:1": p.Vendor, "a/gen.go:1": p.Generated, "examples/m.go:1": p.Example, "docs/guide.md:1": p.DocNatural,
	}
	for k, w := range want {
		if r := scoreOf(pri, k) / scoreOf(plain, k); r < w-1e-9 || r > w+1e-9 {
			t.Errorf("%s: prior ×%v, want ×%v", k, r, w)
		}
	}
	if got := order(pri)[0]; got != "a/code.go:1" {
		t.Errorf("code should lead: %v", order(pri))
	}
	// Naming the category lifts the penalty.
	tq := ix.Search("marshal value test", &p, 10)
	if order(tq)[0] != "a/code_test.go:1" {
		t.Errorf("a query that mentions tests: %v", order(tq))
	}
	// Documentation weighs less for a symbol query than for prose.
	if p.DocSymbol >= p.DocNatural {
		t.Fatalf("DocSymbol %v should be below DocNatural %v", p.DocSymbol, p.DocNatural)
	}
	sym := ix.Search("marshal", &p, 10)
	plainSym := func() []Hit { q := neutral(); return ix.Search("marshal", &q, 10) }()
	if r := scoreOf(sym, "docs/guide.md:1") / scoreOf(plainSym, "docs/guide.md:1"); r < p.DocSymbol-1e-9 || r > p.DocSymbol+1e-9 {
		t.Errorf("doc prior for a symbol query ×%v, want ×%v", r, p.DocSymbol)
	}
}

// FileDecay: the n-th chunk of one file counts FileDecay^(n-1), so other
// files reach the top k.
func TestFileDecay(t *testing.T) {
	ix := build(
		doc("a/big.go", tc{"", "tls handshake"}, tc{"", "tls handshake"}, tc{"", "tls handshake"}),
		doc("a/small.go", tc{"", "tls handshake client"}),
	)
	p := neutral()
	if got := order(ix.Search("tls handshake", &p, 3)); strings.Join(got, " ") != "a/big.go:1 a/big.go:2 a/big.go:3" {
		t.Fatalf("without decay: %v", got)
	}
	p.FileDecay = 0.5
	if got := order(ix.Search("tls handshake", &p, 3)); strings.Join(got, " ") != "a/big.go:1 a/small.go:1 a/big.go:2" {
		t.Errorf("FileDecay 0.5: %v", got)
	}
}

// Equal scores are ordered by path, then line, and the same input gives
// the same order every time.
func TestDeterministicTies(t *testing.T) {
	ix := build(
		doc("b/x.go", tc{"", "mutex lock"}, tc{"", "mutex lock"}),
		doc("a/x.go", tc{"", "mutex lock"}),
	)
	p := neutral()
	want := "a/x.go:1 b/x.go:1 b/x.go:2"
	for i := 0; i < 5; i++ {
		if got := strings.Join(order(ix.Search("mutex lock", &p, 3)), " "); got != want {
			t.Fatalf("run %d: %v, want %v", i, got, want)
		}
	}
}

// Related: the chunks most like a given one, itself left out.
func TestRelated(t *testing.T) {
	ix := build(
		doc("a/src.go", tc{"Encode", "encode base64 alphabet padding"}, tc{"", "other stuff entirely"}),
		doc("a/near.go", tc{"Decode", "decode base64 alphabet padding"}),
		doc("a/far.go", tc{"", "network dial timeout"}),
	)
	from, hits, ok := ix.Related("a/src.go", 1, &Default, 5)
	if !ok || from.Chunk.Name != "Encode" {
		t.Fatalf("Related: %v %v", from, ok)
	}
	got := order(hits)
	if len(got) == 0 || got[0] != "a/near.go:1" {
		t.Errorf("related: %v", got)
	}
	for _, g := range got {
		if g == "a/src.go:1" {
			t.Error("the chunk itself was returned")
		}
	}
	if _, _, ok := ix.Related("a/none.go", 1, &Default, 5); ok {
		t.Error("a file not in the index")
	}
}

func TestClassify(t *testing.T) {
	cases := map[string]Category{
		"net/http/server.go": Code, "net/http/server_test.go": Test, "a/testdata/x.go": TestData,
		"vendor/golang.org/x/y.go": Vendor, "x/y.pb.go": Generated, "examples/hello/main.go": Example,
		"strings/example_test.go": Example, "README.md": Doc, "docs/guide.go": Doc, "src/tests/a.py": Test,
		"web/app.spec.ts": Test, "node_modules/x/index.js": Vendor,
		"dist/esm/internal/Observable.js": Generated, "dist/types/index.d.ts": Generated,
		"lib/tar/index.min.js": Generated, "src/admin.js": Code, "scripts/distribute.sh": Code,
		"cmd/dist/build.go": Code, "dist/notes.md": Doc,
		"COPYRIGHT": Doc, "musl/WHATSNEW": Doc, "ChangeLog": Doc, "LICENSE.txt": Doc, "NEWS.rst": Doc,
		"src/license.go": Code, "src/install.c": Code, "Makefile": Code, "src/readme_test.go": Test,
	}
	for p, want := range cases {
		if got := Classify(p, false); got != want {
			t.Errorf("Classify(%q) = %v, want %v", p, got, want)
		}
	}
	if Classify("a/b.go", true) != Generated {
		t.Error("a file that says it is generated")
	}
}

// dropFrame: the closing word of a question's frame ("how does the cache
// work", "where is a timeout handled") is no term, so a chunk that says
// "work" often does not beat the one about the cache; a question that
// does not start so, or is short, keeps its last word.
func TestDropFrame(t *testing.T) {
	p := neutral()
	q := ParseQuery("how does the page cache work", &p)
	for _, qt := range q.Terms {
		if qt.Term == "work" {
			t.Errorf("frame word kept: %+v", q.Terms)
		}
	}
	if q := ParseQuery("schedule the work", &p); len(q.Terms) == 0 || q.Terms[len(q.Terms)-1].Term != "work" {
		t.Errorf("a plain query lost its last word: %+v", q.Terms)
	}
	if q := ParseQuery("where are signals handled", &p); len(q.Terms) != 1 || q.Terms[0].Term != "signal" {
		t.Errorf("where ... handled: %+v", q.Terms)
	}
	ix := build(
		doc("a/cache.go", tc{"", "page cache eviction"}),
		doc("a/worker.go", tc{"", "work work work page queue"}),
	)
	if got := order(ix.Search("how does the page cache work", &p, 2)); got[0] != "a/cache.go:1" {
		t.Errorf("ranking %v", got)
	}
}

// Header: in a C project (headers, no C++ source), a natural-language
// query ranks the source that does a thing over the header that declares
// it; a symbol query, and a C++ project's headers, are left alone.
func TestHeaderPrior(t *testing.T) {
	p := neutral()
	p.Header = 0.5
	cProject := build(
		doc("include/string.h", tc{"", "compare two strings lexically compare"}),
		doc("src/string/strcmp.c", tc{"", "compare two strings byte by byte loop"}),
	)
	if got := order(cProject.Search("compare two strings", &p, 2)); got[0] != "src/string/strcmp.c:1" {
		t.Errorf("C project: %v", got)
	}
	q := neutral()
	if got := order(cProject.Search("compare two strings", &q, 2)); got[0] != "include/string.h:1" {
		t.Errorf("Header=1 should leave the header first (more matches): %v", got)
	}
	cppProject := build(
		doc("include/matchers.h", tc{"", "compare two strings lexically compare"}),
		doc("src/matchers.cc", tc{"", "compare two strings byte by byte loop"}),
	)
	if got := order(cppProject.Search("compare two strings", &p, 2)); got[0] != "include/matchers.h:1" {
		t.Errorf("C++ project's header was lowered: %v", got)
	}
	if isHeader("src/a.c") || !isHeader("inc/a.hpp") || !isCppSource("x/y.cc") || extOf("a.b/c") != "" {
		t.Error("isHeader, isCppSource or extOf")
	}
}

// Header: a C project's header beside its sources (an implementation's
// own types and inline code) is not an API header and keeps its score;
// one in a folder without C sources is lowered.
func TestHeaderBesideSources(t *testing.T) {
	p := neutral()
	p.Header = 0.5
	ix := build(
		doc("include/stdlib.h", tc{"", "malloc free"}),
		doc("src/malloc/meta.h", tc{"", "free slot for a small allocation group meta"}),
		doc("src/malloc/malloc.c", tc{"", "allocate a slot"}),
	)
	q := neutral()
	base := ix.Search("free slot small allocation", &q, 10)
	hits := ix.Search("free slot small allocation", &p, 10)
	if got, want := scoreOf(hits, "src/malloc/meta.h:1"), scoreOf(base, "src/malloc/meta.h:1"); got != want || got == 0 {
		t.Errorf("meta.h beside malloc.c: %v, want %v", got, want)
	}
	if got, want := scoreOf(hits, "include/stdlib.h:1"), scoreOf(base, "include/stdlib.h:1")*0.5; got != want || got == 0 {
		t.Errorf("include/stdlib.h: %v, want %v", got, want)
	}
}
