package rank

import "testing"

// NameEvidence: of two files whose best chunks score alike, the one whose
// declarations are named with the query's words comes first, by its best
// chunk only; symbol queries are left alone.
func TestNameEvidence(t *testing.T) {
	ix := build(
		doc("a/alpha.go", tc{"", "invoke the command"}, tc{"other", "unrelated body"}),
		doc("b/zeta.go", tc{"", "invoke the command"}, tc{"invokeCommand", "unrelated body"}, tc{"", "invoke"}),
	)
	p := neutral()
	if got := order(ix.Search("invoke command", &p, 10)); got[0] != "a/alpha.go:1" {
		t.Fatalf("without NameEvidence a tie goes by path: %v", got)
	}
	p.NameEvidence = 0.4
	hits := ix.Search("invoke command", &p, 10)
	if got := order(hits); got[0] != "b/zeta.go:1" {
		t.Errorf("NameEvidence: %v", got)
	}
	if a, z := scoreOf(hits, "a/alpha.go:1"), scoreOf(hits, "b/zeta.go:1"); z < 1.39*a || z > 1.41*a {
		t.Errorf("zeta %.3f, alpha %.3f: want 1.4 times", z, a)
	}
	q := neutral()
	if s, plain := scoreOf(hits, "b/zeta.go:3"), scoreOf(ix.Search("invoke command", &q, 10), "b/zeta.go:3"); s != plain {
		t.Errorf("a second chunk of the file moved: %.3f, %.3f", s, plain)
	}
}
