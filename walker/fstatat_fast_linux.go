//go:build linux && (amd64 || arm64)

package walker

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// fstatat is unix.Fstatat(fd, name, st, AT_SYMLINK_NOFOLLOW) without its
// copy of name: buf is the caller's scratch for the NUL-terminated name
// (unix.Fstatat allocates one per call, once per file of a warm rank
// query's walk).
func fstatat(fd int, name string, st *unix.Stat_t, buf []byte) ([]byte, error) {
	buf = append(append(buf[:0], name...), 0)
	for {
		_, _, e := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])),
			uintptr(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
		switch e {
		case 0:
			return buf, nil
		case unix.EINTR:
			continue
		}
		return buf, e
	}
}
