package vscan

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// scalarFind is Find one position at a time: the reference for the
// vectorised scan (both read the same tables, so they must agree exactly).
func scalarFind(s *Teddy, hay []byte, from int) (int, uint8) {
	for p := max(from, 0); p+s.Span() <= len(hay); p++ {
		if b := s.At(hay, p); b != 0 {
			return p, b
		}
	}
	return -1, 0
}

// build makes a scanner for lits (literal i in bucket i%Buckets) testing
// offsets off.
func build(lits [][]byte, off [Positions]int) *Teddy {
	s := NewTeddy(off)
	for i, l := range lits {
		for k, o := range off {
			s.Add(i%Buckets, k, l[o])
		}
	}
	return s
}

func TestFindAgainstScalar(t *testing.T) {
	cases := []struct {
		name string
		lits []string
		off  [Positions]int
	}{
		{"one literal, first bytes", []string{"NewReader"}, [3]int{0, 1, 2}},
		{"one literal, spread", []string{"NewReader"}, [3]int{0, 3, 8}},
		{"repeated offset", []string{"ab"}, [3]int{0, 1, 1}},
		{"single byte", []string{"x"}, [3]int{0, 0, 0}},
		{"five alternatives", []string{"NewReader", "NewWriter", "ReadAll", "WriteString", "ErrUnexpectedEOF"}, [3]int{0, 3, 5}},
		{"nine alternatives share buckets", []string{"alpha", "bravo", "charl", "delta", "echoo", "foxtr", "golfx", "hotel", "india"}, [3]int{0, 2, 4}},
		{"late offsets", []string{"0123456789abcdefghijklmnopqrstuvwxyz0123456789"}, [3]int{10, 33, 45}},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("abcdeNRWErrAdilnorstuvwx0123456789 \n\x00\xff")
	for _, c := range cases {
		var lits [][]byte
		for _, l := range c.lits {
			lits = append(lits, []byte(l))
		}
		s := build(lits, c.off)
		for trial := 0; trial < 400; trial++ {
			n := rng.IntN(300)
			hay := make([]byte, n)
			for i := range hay {
				hay[i] = alphabet[rng.IntN(len(alphabet))]
			}
			// Plant some literals.
			for k := rng.IntN(4); k > 0 && n > 0; k-- {
				l := lits[rng.IntN(len(lits))]
				if at := rng.IntN(n); at+len(l) <= n {
					copy(hay[at:], l)
				}
			}
			for from := -1; from <= n+1; from += 1 + rng.IntN(7) {
				gp, gb := s.Find(hay, from)
				wp, wb := scalarFind(s, hay, from)
				if gp != wp || gb != wb {
					t.Fatalf("%s: Find(len %d, from %d) = %d,%08b; want %d,%08b", c.name, n, from, gp, gb, wp, wb)
				}
			}
			// Every real occurrence is reported when searching from it.
			for i, l := range lits {
				for at := 0; ; at++ {
					j := bytes.Index(hay[at:], l)
					if j < 0 {
						break
					}
					at += j
					p, b := s.Find(hay, at)
					if p != at || b&(1<<(i%Buckets)) == 0 {
						t.Fatalf("%s: occurrence of %q at %d: Find = %d,%08b", c.name, l, at, p, b)
					}
				}
			}
		}
	}
}

// TestFindLongHaystack crosses many blocks, double and single rounds, with
// the only candidate at every possible distance from the start.
func TestFindLongHaystack(t *testing.T) {
	lit := []byte("zqx")
	s := build([][]byte{lit}, [3]int{0, 1, 2})
	hay := bytes.Repeat([]byte("a"), 1000)
	for at := 0; at+len(lit) <= len(hay); at++ {
		h := append([]byte(nil), hay...)
		copy(h[at:], lit)
		for _, from := range []int{0, at / 2, at} {
			if p, b := s.Find(h, from); p != at || b != 1 {
				t.Fatalf("literal at %d, from %d: Find = %d,%d", at, from, p, b)
			}
		}
		if p, _ := s.Find(h, at+1); p != -1 {
			t.Fatalf("literal at %d, from %d: Find = %d, want -1", at, at+1, p)
		}
	}
}

func BenchmarkFind(b *testing.B) {
	hay := bytes.Repeat([]byte("func (r *Reader) Read(p []byte) (n int, err error) {\n\treturn 0, nil\n}\n"), 1<<14)
	s := build([][]byte{[]byte("NewWriter"), []byte("NewReadeX"), []byte("ReadAlX"), []byte("WriteStrinX"), []byte("ErrUnexpectedEOX")}, [3]int{0, 3, 6})
	b.SetBytes(int64(len(hay)))
	for i := 0; i < b.N; i++ {
		if p, _ := s.Find(hay, 0); p >= 0 {
			b.Fatal("unexpected candidate", p)
		}
	}
}
