package vscan

import (
	"bytes"
	"testing"
)

func TestIndexHigh(t *testing.T) {
	for n := 0; n < 300; n++ {
		b := bytes.Repeat([]byte{'a'}, n)
		if got := IndexHigh(b); got != -1 {
			t.Fatalf("len %d, all ASCII: %d", n, got)
		}
		for at := 0; at < n; at++ {
			c := append([]byte(nil), b...)
			c[at] = 0x80 + byte(at%128)
			if at+1 < n {
				c[n-1] = 0xff // a later high byte must not win
			}
			if got := IndexHigh(c); got != at {
				t.Fatalf("len %d, high byte at %d: %d", n, at, got)
			}
		}
	}
}

func BenchmarkIndexHigh(b *testing.B) {
	hay := bytes.Repeat([]byte("func (r *Reader) Read(p []byte) (n int, err error) {\n"), 1<<14)
	b.SetBytes(int64(len(hay)))
	for i := 0; i < b.N; i++ {
		if IndexHigh(hay) >= 0 {
			b.Fatal("high byte")
		}
	}
}
