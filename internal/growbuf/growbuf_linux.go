package growbuf

import "golang.org/x/sys/unix"

// growMapped moves or extends buf[:n] into an anonymous mapping of size
// bytes; ok is false when the system refuses.
func growMapped(buf []byte, n, size int, mapped bool) ([]byte, bool) {
	if mapped {
		nb, err := unix.Mremap(buf, size, unix.MREMAP_MAYMOVE)
		return nb, err == nil
	}
	nb, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return nil, false
	}
	copy(nb, buf[:n])
	return nb, true
}

// Release returns a mapped buffer from Grow to the system.
func Release(buf []byte) { _ = unix.Munmap(buf) }
