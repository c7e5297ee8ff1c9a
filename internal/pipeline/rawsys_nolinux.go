//go:build !linux

package pipeline

import "syscall"

// Elsewhere the calls go through the scheduler as usual (rawsys_linux.go).
var (
	rawOpen  = syscall.Open
	rawRead  = syscall.Read
	rawClose = syscall.Close
)
