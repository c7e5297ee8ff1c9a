package rank

import (
	"fmt"
	"testing"
)

// Abbrev: a natural-language query's word meets the index's contraction
// of it (cmp for comparison) when the project writes the contraction
// more often than the word and the two share chunks more than chance;
// without the factor the chunk that holds only the contraction ranks
// below one that holds only the other word.
func TestAbbrev(t *testing.T) {
	ix := build(
		doc("a/qsort.c", tc{"qsort", "qsort cmp routine"}),
		doc("a/other.c", tc{"", "routine here"}),
		doc("a/doc.c", tc{"", "cmp comparison"}),
		doc("a/x.c", tc{"", "cmp"}),
	)
	p := neutral()
	rank := func(p *Params) map[string]int {
		at := map[string]int{}
		for i, k := range order(ix.Search("comparison routine", p, 10)) {
			at[k] = i
		}
		return at
	}
	if at := rank(&p); at["a/qsort.c:1"] < at["a/other.c:1"] {
		t.Fatalf("Abbrev=0: qsort.c already first: %v", at)
	}
	p.Abbrev = 0.5
	if at := rank(&p); at["a/qsort.c:1"] > at["a/other.c:1"] {
		t.Errorf("Abbrev=0.5: qsort.c (cmp routine) below other.c (routine): %v", at)
	}
	// A symbol query is not expanded.
	q := ParseQuery("comparisonRoutine", &p)
	n := len(q.Terms)
	ix.abbreviations(&q, &p)
	if len(q.Terms) != n {
		t.Errorf("symbol query expanded: %v", q.Terms)
	}
}

// A contraction that shares no chunk with its word's family (exp, the
// math function, for expression) is not added.
func TestAbbrevCooccurrence(t *testing.T) {
	ix := build(
		doc("m/exp.c", tc{"exp", "exp exp"}),
		doc("m/expl.c", tc{"expl", "exp"}),
		doc("r/regcomp.c", tc{"", "regular expression compile"}),
	)
	if terms, ok := expandedWith(ix, "regular expression compiled", "exp"); ok {
		t.Errorf("exp added without co-occurrence: %v", terms)
	}
}

// expandedWith expands query with ix's contractions (Abbrev 0.5) and
// reports whether term is among its terms then.
func expandedWith(ix *Index, query, term string) ([]QueryTerm, bool) {
	p := neutral()
	p.Abbrev = 0.5
	q := ParseQuery(query, &p)
	ix.abbreviations(&q, &p)
	for _, qt := range q.Terms {
		if qt.Term == term {
			return q.Terms, true
		}
	}
	return q.Terms, false
}

func TestContraction(t *testing.T) {
	for _, c := range []struct {
		a, w string
		want bool
	}{
		{"cmp", "comparison", true},
		{"buf", "buffer", true},
		{"msg", "messag", true},
		{"ctx", "context", true},
		{"alloc", "allocation", true},
		{"pars", "parser", false}, // a long prefix is a variant, not a contraction
		{"cmpx", "comparison", false},
		{"xmp", "comparison", false},
		{"coa", "comparison", false}, // a vowel after the first letter: not a skeleton
		{"co", "comparison", false},  // too short
	} {
		if got := contraction([]byte(c.a), c.w); got != c.want {
			t.Errorf("contraction(%q, %q) = %v, want %v", c.a, c.w, got, c.want)
		}
	}
}

// A word that maxAbbrevWordDF chunks or more hold is not expanded.
func TestAbbrevCommonWord(t *testing.T) {
	var docs []*FileDoc
	for i := 0; i < maxAbbrevWordDF; i++ {
		docs = append(docs, doc(fmt.Sprintf("w/f%02d.c", i), tc{"", "comparison cmp"}))
	}
	docs = append(docs, doc("w/g.c", tc{"", "cmp"}))
	for i := 0; i < 200; i++ { // enough chunks for cmp to pass the lift
		docs = append(docs, doc(fmt.Sprintf("w/h%03d.c", i), tc{"", "other text"}))
	}
	if terms, ok := expandedWith(build(docs...), "comparison routine", "cmp"); ok {
		t.Errorf("a common word expanded: %v", terms)
	}
}

// Contractions and compounds never take a query past MaxQueryTerms.
func TestExpansionBound(t *testing.T) {
	ix := build(
		doc("a/doc.c", tc{"", "cmp comparison"}),
		doc("a/x.c", tc{"", "cmp"}),
		doc("a/y.c", tc{"", "cmp strcmp"}),
	)
	p := Default
	for _, full := range []bool{false, true} {
		q := ParseQuery("comparison strings", &p)
		n := len(q.Terms)
		for len(q.Terms) < MaxQueryTerms-1 {
			q.Terms = append(q.Terms, QueryTerm{fmt.Sprintf("pad%d", len(q.Terms)), 1})
			q.termBits = append(q.termBits, 0)
		}
		if full {
			q.Terms = append(q.Terms, QueryTerm{"padlast", 1})
			q.termBits = append(q.termBits, 0)
		}
		ix.compounds(&q, &p)
		ix.abbreviations(&q, &p)
		if len(q.Terms) > MaxQueryTerms || len(q.termBits) != len(q.Terms) {
			t.Errorf("%d terms, %d bits", len(q.Terms), len(q.termBits))
		}
		if !full && len(q.Terms) == MaxQueryTerms-1 {
			t.Errorf("nothing added with room for one (from %d terms): %v", n, q.Terms[len(q.Terms)-1])
		}
	}
}
