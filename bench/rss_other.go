//go:build !linux

package main

import "os"

// childPeakRSSKiB is unknown off Linux (ru_maxrss units differ by system).
func childPeakRSSKiB(*os.ProcessState) int64 { return -1 }

// selfPeakRSSKiB is unknown off Linux.
func selfPeakRSSKiB() int64 { return 0 }

// resetPeakRSS does nothing off Linux.
func resetPeakRSS() {}
