package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// childPeakRSSKiB is the exited child's peak RSS in KiB (Linux reports
// ru_maxrss in KiB), or -1 when unknown.
func childPeakRSSKiB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || ru == nil {
		return -1
	}
	return ru.Maxrss
}

// selfPeakRSSKiB is the harness's own peak RSS (VmHWM) in KiB, or 0 when
// unknown. Go starts children with vfork, and exec records the parent's
// high-water mark in the child's maxrss, so this is the floor under every
// child's Maxrss.
func selfPeakRSSKiB() int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(data, []byte{'\n'}) {
		rest, ok := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) == 0 {
			return 0
		}
		n, err := strconv.ParseInt(string(f[0]), 10, 64)
		if err != nil {
			return 0
		}
		return n
	}
	return 0
}

// resetPeakRSS lowers the harness's high-water mark to its current RSS
// (Linux 4.0+), so that the floor under the next child's Maxrss is what
// the harness holds now, not the most it ever held. Best effort.
func resetPeakRSS() {
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}
