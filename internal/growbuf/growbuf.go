// Package growbuf holds the buffers that may grow far beyond their usual
// size: the searcher's line buffer (a 1.4 MB line) and a printer's
// per-file output (the same line, printed). Beyond MaxHeap bytes such a
// buffer moves to an anonymous mapping of its own, grown with mremap
// (pages move instead of being copied) and returned to the system with
// munmap when the file is done, as glibc's realloc does for rg. On the Go
// heap the same growth leaves the old and the new buffer of every doubling
// resident until the GC runs: about 3 MB of peak RSS over GOROOT, whose
// tzdata holds such a line (bench/README.md).
package growbuf

// MaxHeap is the largest buffer kept on the Go heap.
const MaxHeap = 64 << 10

// Grow returns a buffer of size bytes holding buf[:n]; mapped says whether
// buf came from Grow's mapping (and the result's does too). Buffers of at
// most MaxHeap bytes, and any when mapping fails, are on the heap.
func Grow(buf []byte, n, size int, mapped bool) ([]byte, bool) {
	if size > MaxHeap {
		if nb, ok := growMapped(buf, n, size, mapped); ok {
			return nb, true
		}
	}
	nb := make([]byte, size)
	copy(nb, buf[:n])
	if mapped {
		Release(buf)
	}
	return nb, false
}

// Buffer is an append-only byte buffer on Grow (a bytes.Buffer for the
// printers). The zero value is empty and ready.
type Buffer struct {
	b      []byte
	mapped bool
	// spill, when set, takes the content instead of letting the buffer
	// grow past spillAt bytes; spilled counts what it took.
	spill   func([]byte)
	spillAt int
	spilled int
}

// SetSpill makes the buffer hand its content to fn, and empty itself,
// whenever it would otherwise grow past limit bytes, so that a writer
// whose output may be huge (a printer on a 1 GiB line) holds at most about
// limit bytes. A nil fn lets the buffer grow as needed. fn must not keep
// its argument.
func (x *Buffer) SetSpill(limit int, fn func([]byte)) {
	x.spill, x.spillAt = fn, limit
}

// Written is how many bytes were written since the last Reset: those the
// spill function took plus Len.
func (x *Buffer) Written() int { return x.spilled + len(x.b) }

func (x *Buffer) flush() {
	if len(x.b) > 0 {
		x.spill(x.b)
		x.spilled += len(x.b)
		x.b = x.b[:0]
	}
}

func (x *Buffer) grow(extra int) {
	if len(x.b)+extra <= cap(x.b) {
		return
	}
	if x.spill != nil && len(x.b)+extra > x.spillAt {
		x.flush()
		if extra <= cap(x.b) {
			return
		}
	}
	size := max(2*cap(x.b), len(x.b)+extra, 512)
	if x.spill != nil {
		size = max(min(size, x.spillAt), len(x.b)+extra)
	}
	nb, mapped := Grow(x.b[:cap(x.b)], len(x.b), size, x.mapped)
	x.b, x.mapped = nb[:len(x.b)], mapped
}

// Write appends p; it never fails.
func (x *Buffer) Write(p []byte) (int, error) {
	if x.spill != nil && len(p) > x.spillAt {
		// Too large to hold: hand it over as it is.
		x.flush()
		x.spill(p)
		x.spilled += len(p)
		return len(p), nil
	}
	x.grow(len(p))
	x.b = append(x.b, p...)
	return len(p), nil
}

// WriteString appends s; it never fails.
func (x *Buffer) WriteString(s string) (int, error) {
	x.grow(len(s))
	x.b = append(x.b, s...)
	return len(s), nil
}

// Bytes returns the content, valid until the next Reset or write.
func (x *Buffer) Bytes() []byte { return x.b }

// Len is the content's length.
func (x *Buffer) Len() int { return len(x.b) }

// Reset empties the buffer; a mapped one is returned to the system. The
// spill function stays; Written starts again from 0.
func (x *Buffer) Reset() {
	x.spilled = 0
	if x.mapped {
		Release(x.b[:cap(x.b)])
		x.b, x.mapped = nil, false
		return
	}
	x.b = x.b[:0]
}

// WriteByte appends c; it never fails.
func (x *Buffer) WriteByte(c byte) error {
	x.grow(1)
	x.b = append(x.b, c)
	return nil
}
