package rank

import (
	"slices"
	"testing"
)

// Compound: the index's term that joins two of a natural-language
// query's words, one contracted (strcmp: str of strings, cmp of
// compare), is scored for both; without the factor the file that holds
// only the compound is not found at all.
func TestCompound(t *testing.T) {
	ix := build(
		doc("s/strcmp.c", tc{"strcmp", "int strcmp l r"}),
		doc("s/other.c", tc{"", "two other things"}),
		doc("s/tokenbuffer.c", tc{"", "tokenbuffer"}),
	)
	p := neutral()
	found := func(p *Params, query, key string) bool {
		return slices.Contains(order(ix.Search(query, p, 10)), key)
	}
	if found(&p, "compare two strings", "s/strcmp.c:1") {
		t.Fatalf("Compound=0: strcmp.c found")
	}
	p.Compound = 0.3
	if !found(&p, "compare two strings", "s/strcmp.c:1") {
		t.Errorf("Compound=0.3: strcmp.c not found for compare two strings")
	}
	// Two whole words are not joined.
	if found(&p, "token buffer", "s/tokenbuffer.c:1") {
		t.Errorf("token buffer joined into tokenbuffer")
	}
	// A compound stands for both words.
	q := ParseQuery("compare two strings", &p)
	ix.compounds(&q, &p)
	i := slices.IndexFunc(q.Terms, func(qt QueryTerm) bool { return qt.Term == "strcmp" })
	if i < 0 || q.termBits[i] != 1|4 {
		t.Errorf("strcmp: %v %v", q.Terms, q.termBits)
	}
}

func TestWordForms(t *testing.T) {
	f := wordForms("compar")
	for _, want := range []string{"compar", "com", "cmp", "cpr"} {
		if !slices.Contains(f, want) {
			t.Errorf("wordForms(compar) = %v, no %q", f, want)
		}
	}
	for _, not := range []string{"co", "cm", "comp", "coa"} {
		if slices.Contains(f, not) {
			t.Errorf("wordForms(compar) = %v, has %q", f, not)
		}
	}
	if f := wordForms("str"); !slices.Equal(f, []string{"str"}) {
		t.Errorf("wordForms(str) = %v", f)
	}
}
