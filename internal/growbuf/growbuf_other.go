//go:build !linux

package growbuf

// growMapped is not used on this system: buffers stay on the heap.
func growMapped(buf []byte, n, size int, mapped bool) ([]byte, bool) { return nil, false }

// Release does nothing here (nothing is mapped).
func Release(buf []byte) {}
