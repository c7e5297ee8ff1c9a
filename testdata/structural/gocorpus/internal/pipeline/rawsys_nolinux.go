//go:build !linux

package pipeline

import "syscall"

// Elsewhere the calls go through the scheduler as usual (rawsys_linux.go).
var (
	rawRead  = syscall.Read
	rawClose = syscall.Close
)

// rawOpen is syscall.Open (cpath is rawsys_linux.go's buffer).
func rawOpen(_ *[]byte, path string, mode int, perm uint32) (int, error) {
	return syscall.Open(path, mode, perm)
}
