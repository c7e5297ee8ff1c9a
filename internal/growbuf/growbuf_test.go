package growbuf

import (
	"bytes"
	"testing"
)

// TestBuffer writes chunks of several sizes past MaxHeap (so the buffer
// moves to a mapping and is remapped several times), checks the content
// after every write, and that Reset empties it and goes back to the heap.
func TestBuffer(t *testing.T) {
	for _, chunk := range []int{1, 7, 4096, MaxHeap - 1, MaxHeap + 1, 3 << 20} {
		var b Buffer
		var want []byte
		for round := 0; round < 2; round++ {
			total := 4 << 20
			if chunk < 4096 {
				total = 3 * MaxHeap // byte by byte: enough to move to a mapping
			}
			for i := 0; len(want) < total; i++ {
				p := bytes.Repeat([]byte{byte('a' + i%26)}, chunk)
				switch i % 3 {
				case 0:
					b.Write(p)
				case 1:
					b.WriteString(string(p))
				default:
					for _, c := range p {
						b.WriteByte(c)
					}
				}
				want = append(want, p...)
				// The new chunk, and the start (moved by every growth).
				if b.Len() != len(want) || !bytes.Equal(b.Bytes()[len(want)-len(p):], p) || !bytes.Equal(b.Bytes()[:min(len(want), 100)], want[:min(len(want), 100)]) {
					t.Fatalf("chunk %d round %d: content differs after %d bytes", chunk, round, len(want))
				}
			}
			if !bytes.Equal(b.Bytes(), want) {
				t.Fatalf("chunk %d round %d: content differs", chunk, round)
			}
			if !b.mapped && runtimeLinux {
				t.Fatalf("chunk %d: a %d-byte buffer is still on the heap", chunk, b.Len())
			}
			b.Reset()
			if b.Len() != 0 || b.mapped {
				t.Fatalf("chunk %d: Reset left %d bytes, mapped %v", chunk, b.Len(), b.mapped)
			}
			want = want[:0]
		}
	}
}

// TestGrow: the searcher's use, growing by doubling with n bytes kept.
func TestGrow(t *testing.T) {
	buf := make([]byte, 1024)
	for i := range buf {
		buf[i] = byte(i)
	}
	want := append([]byte(nil), buf...)
	mapped := false
	for size := 2048; size <= 8<<20; size *= 2 {
		buf, mapped = Grow(buf, len(want), size, mapped)
		if len(buf) != size || !bytes.Equal(buf[:len(want)], want) {
			t.Fatalf("size %d: lost content", size)
		}
		if mapped != (size > MaxHeap && runtimeLinux) {
			t.Fatalf("size %d: mapped = %v", size, mapped)
		}
		for i := len(want); i < size; i += 4093 {
			buf[i] = byte(i) // writable
		}
		want = append(want, buf[len(want):len(want)+100]...)
	}
	if mapped {
		Release(buf)
	}
}

// TestSpill writes through a buffer with a spill function: what it hands
// over followed by what it holds is everything written, in order; it never
// holds much more than the limit, and Reset starts the count again.
func TestSpill(t *testing.T) {
	const limit = 1000
	for _, chunk := range []int{1, 10, 999, 1000, 1001, 5000} {
		var b Buffer
		var got []byte
		b.SetSpill(limit, func(p []byte) { got = append(got, p...) })
		var want []byte
		for i := 0; len(want) < 20000; i++ {
			p := bytes.Repeat([]byte{byte('a' + i%26)}, chunk)
			switch i % 3 {
			case 0:
				b.Write(p)
			case 1:
				b.WriteString(string(p))
			default:
				for _, c := range p {
					b.WriteByte(c)
				}
			}
			want = append(want, p...)
			if b.Len() > max(limit, chunk) {
				t.Fatalf("chunk %d: holds %d bytes", chunk, b.Len())
			}
			if b.Written() != len(want) {
				t.Fatalf("chunk %d: Written %d, want %d", chunk, b.Written(), len(want))
			}
		}
		if all := append(got, b.Bytes()...); !bytes.Equal(all, want) {
			t.Fatalf("chunk %d: spilled+held differs from what was written", chunk)
		}
		b.Reset()
		if b.Written() != 0 {
			t.Fatalf("chunk %d: Written %d after Reset", chunk, b.Written())
		}
	}
}
