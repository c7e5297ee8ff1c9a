package rank

import (
	"bytes"
	"math/rand"
	"testing"
)

// A term's bytes read back from the block chains are the bytes appended
// to it, for appends that cross blocks and pages (differential against
// a slice per term).
func TestPostListsMatchSlices(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	const terms = 3000
	var p postLists
	p.reserve(10)
	want := make([][]byte, terms)
	for i := 0; i < 400_000; i++ {
		id := uint32(rng.Intn(terms))
		if i%3 == 0 {
			id = uint32(rng.Intn(8)) // a few long lists (blocks up to postBlockMax)
		}
		b := make([]byte, 1+rng.Intn(10))
		rng.Read(b)
		p.grow(int(id) + 1)
		p.add(&p.terms[id], b)
		want[id] = append(want[id], b...)
	}
	if len(p.pages) < 2 {
		t.Fatalf("%d pages: the test should cross pages", len(p.pages))
	}
	for id := range want {
		if got := p.appendTo([]byte("x"), &p.terms[id]); !bytes.Equal(got[1:], want[id]) || got[0] != 'x' {
			t.Fatalf("term %d: %d bytes back, want %d", id, len(got)-1, len(want[id]))
		}
		if int(p.terms[id].total) != len(want[id]) {
			t.Fatalf("term %d: total %d, want %d", id, p.terms[id].total, len(want[id]))
		}
	}
}
