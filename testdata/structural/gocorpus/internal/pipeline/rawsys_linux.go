//go:build linux

package pipeline

import (
	"strings"
	"syscall"
	"unsafe"
)

// Open, read and close of regular files without the scheduler's syscall
// bookkeeping. syscall.Read tells the Go runtime that the goroutine may
// block: the runtime's monitor thread then wakes every 20 µs while
// searches run, and hands the processor of a call that takes longer to
// another thread (a futex wake-up, and later a hand-back). Over GOROOT
// that was 14,000 sleeps and 2,500 futex calls for 45,000 reads of
// files in the page cache. A regular file's calls end without waiting
// for another process, so they are made as raw system calls, which keep
// the processor (as rg's worker threads do).

// rawOpen is syscall.Open as a raw system call (openat from the working
// directory), with the path's C string built in *cpath (kept by the caller
// for the next file: no allocation per open).
func rawOpen(cpath *[]byte, path string, mode int, perm uint32) (int, error) {
	if strings.IndexByte(path, 0) >= 0 {
		return -1, syscall.EINVAL // as syscall.BytePtrFromString
	}
	b := append(append((*cpath)[:0], path...), 0)
	*cpath = b
	atFDCWD := -0x64
	fd, _, errno := syscall.RawSyscall6(syscall.SYS_OPENAT, uintptr(atFDCWD), uintptr(unsafe.Pointer(&b[0])), uintptr(mode|syscall.O_LARGEFILE), uintptr(perm), 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// rawRead is syscall.Read as a raw system call.
func rawRead(fd int, b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n, _, errno := syscall.RawSyscall(syscall.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// rawClose is syscall.Close as a raw system call.
func rawClose(fd int) error {
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOSE, uintptr(fd), 0, 0); errno != 0 {
		return errno
	}
	return nil
}
