//go:build linux

package timerslack

import (
	"runtime"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSlack: the threads of a process that imports the package sleep with
// a one-nanosecond timer slack (a new thread inherits it).
func TestSlack(t *testing.T) {
	done := make(chan uintptr)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		r, _ := unix.PrctlRetInt(unix.PR_GET_TIMERSLACK, 0, 0, 0, 0)
		done <- uintptr(r)
	}()
	if got := <-done; got != 1 {
		t.Fatalf("timer slack %d ns, want 1", got)
	}
}
