//go:build unix

package rankindex

import (
	"math"
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only; release unmaps them.
// A blob is replaced by a rename, never truncated in place, so the
// mapping stays whole while it is in use.
func mapFile(f *os.File, size int64) (data []byte, release func(), err error) {
	if size <= 0 || size > math.MaxInt32 {
		return nil, nil, errNoMap
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return b, func() { syscall.Munmap(b) }, nil
}
