package gittest

import "syscall"

// ChildPeakBound is the peak RSS bound to hold a child process of this
// test process to: bound, plus this process's own peak when that is not
// small beside it. Linux charges a child started with vfork (as os/exec
// does) the peak of its parent's memory at exec, so a child of a test
// binary that grew (a whole package's tests in one process) reports at
// least that much whatever it used itself; the blow-ups the hostile-Git
// tests guard against are gigabytes.
func ChildPeakBound(bound int64) int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return bound
	}
	if self := ru.Maxrss << 10; self > bound/2 {
		return bound + self
	}
	return bound
}
