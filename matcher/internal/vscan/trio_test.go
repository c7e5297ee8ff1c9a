package vscan

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func scalarTrio(t *Trio, hay []byte, from int) int {
	for q := max(from, 0); q+t.Span() <= len(hay); q++ {
		if t.at(hay, q) {
			return q
		}
	}
	return -1
}

func TestTrioAgainstScalar(t *testing.T) {
	cases := []struct {
		name string
		off  [Positions]int
		sets [Positions]string
	}{
		{"adjacent", [3]int{0, 1, 2}, [3]string{"N", "e", "w"}},
		{"spread", [3]int{0, 3, 6}, [3]string{"N", "R", "d"}},
		{"case pairs", [3]int{2, 7, 4}, [3]string{"wW", "rR", "aA"}},
		{"repeated offsets", [3]int{4, 4, 1}, [3]string{"x", "x", "N"}},
		{"extreme bytes", [3]int{9, 1, 0}, [3]string{"\x00", "\xff", "\x00\xff"}},
		{"far", [3]int{40, 0, 20}, [3]string{"a", "b", "rR"}},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("NewRrWwXxabdA\x00\xff \n")
	for _, c := range cases {
		var sets [Positions][]byte
		for k := range sets {
			sets[k] = []byte(c.sets[k])
		}
		tr := NewTrio(c.off, sets)
		for trial := 0; trial < 500; trial++ {
			n := rng.IntN(400)
			hay := make([]byte, n)
			for i := range hay {
				hay[i] = alphabet[rng.IntN(len(alphabet))]
			}
			for from := -1; from <= n+1; from += 1 + rng.IntN(9) {
				if got, want := tr.Find(hay, from), scalarTrio(tr, hay, from); got != want {
					t.Fatalf("%s: Find(len %d, from %d) = %d, want %d", c.name, n, from, got, want)
				}
			}
		}
	}
}

// TestTrioLongHaystack puts the only candidate at every distance from the
// start, across double and single rounds and the scalar tail.
func TestTrioLongHaystack(t *testing.T) {
	tr := NewTrio([3]int{0, 2, 3}, [3][]byte{[]byte("q"), []byte("zZ"), []byte("!")})
	hay := bytes.Repeat([]byte("a"), 700)
	for at := 0; at+4 <= len(hay); at++ {
		h := append([]byte(nil), hay...)
		copy(h[at:], "qxZ!")
		if got := tr.Find(h, 0); got != at {
			t.Fatalf("at %d: Find = %d", at, got)
		}
		if got := tr.Find(h, at+1); got != -1 {
			t.Fatalf("at %d from %d: Find = %d", at, at+1, got)
		}
	}
}

func BenchmarkTrio(b *testing.B) {
	hay := bytes.Repeat([]byte("func (r *Reader) Read(p []byte) (n int, err error) {\n\treturn 0, nil\n}\n"), 1<<14)
	tr := NewTrio([3]int{0, 3, 6}, [3][]byte{[]byte("nN"), []byte("rR"), []byte("dD")})
	b.SetBytes(int64(len(hay)))
	for i := 0; i < b.N; i++ {
		if q := tr.Find(hay, 0); q >= 0 {
			b.Fatal("unexpected candidate", q)
		}
	}
}

// BenchmarkTrioCandidates measures the cost of a candidate (a return to
// Go and a new call), one every 100 bytes.
func BenchmarkTrioCandidates(b *testing.B) {
	hay := bytes.Repeat([]byte("a"), 1<<20)
	for i := 0; i+100 < len(hay); i += 100 {
		copy(hay[i:], "N..R")
	}
	tr := NewTrio([3]int{0, 3, 3}, [3][]byte{[]byte("N"), []byte("R"), []byte("R")})
	b.SetBytes(int64(len(hay)))
	for i := 0; i < b.N; i++ {
		for from := 0; ; {
			q := tr.Find(hay, from)
			if q < 0 {
				break
			}
			from = q + 1
		}
	}
}
