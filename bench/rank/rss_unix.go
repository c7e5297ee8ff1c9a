//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSS is the finished child's peak resident set in bytes, from its
// rusage (ru_maxrss: kilobytes on Linux, bytes on Darwin).
func peakRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss
	}
	return ru.Maxrss << 10
}
