//go:build linux

package revisions

import (
	"os"
	"syscall"
	"unsafe"
)

// statIdentity is the identity a stat result gives.
func statIdentity(st *syscall.Stat_t) Identity {
	return Identity{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}
}

// statRegular is the identity of the file at path, symbolic links
// followed, and whether it is a regular file: one raw system call (the
// end of every tracked file's read; a stat of a path does not wait for
// another process) and no allocation but the path's C string.
func statRegular(path string) (Identity, bool, error) {
	p, err := syscall.BytePtrFromString(path)
	if err != nil {
		return Identity{}, false, err
	}
	var st syscall.Stat_t
	atFDCWD := -0x64
	for {
		_, _, errno := syscall.RawSyscall6(syscall.SYS_NEWFSTATAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(&st)), 0, 0, 0)
		if errno == syscall.EINTR {
			continue
		}
		if errno != 0 {
			return Identity{}, false, &os.PathError{Op: "stat", Path: path, Err: errno}
		}
		return statIdentity(&st), st.Mode&syscall.S_IFMT == syscall.S_IFREG, nil
	}
}
