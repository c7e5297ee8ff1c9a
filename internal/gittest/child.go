package gittest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The hostile-repository tests run their work in a child: the test binary
// again, with -test.run naming the helper test and an environment
// variable carrying what it is to do. The child caps its own address
// space (LimitAddressSpace) so that a blow-up is an allocation failure,
// and the parent (RunChild) bounds its time and reads its peak RSS.

// LimitAddressSpace caps this process's address space at its present size
// plus headroom bytes.
func LimitAddressSpace(t testing.TB, headroom uint64) {
	t.Helper()
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	var vm uint64
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			fmt.Sscan(strings.TrimSpace(v), &vm)
		}
	}
	if vm == 0 {
		t.Fatal("no VmSize in /proc/self/status")
	}
	var st syscall.Rlimit
	syscall.Getrlimit(syscall.RLIMIT_AS, &st)
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: vm<<10 + headroom, Max: st.Max}); err != nil {
		t.Fatal(err)
	}
}

// Child is the outcome of RunChild.
type Child struct {
	// Output is the child's stdout and stderr together.
	Output string
	// Err is the error of its wait (nil: exit 0).
	Err error
	// PeakRSS is its peak resident memory in bytes.
	PeakRSS int64
	// TimedOut is set when it was killed at the timeout.
	TimedOut bool
}

// RunChild runs the test named helper of this test binary as a child
// with env added, and waits at most timeout for it.
func RunChild(t testing.TB, helper string, timeout time.Duration, env ...string) Child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var c Child
	select {
	case c.Err = <-done:
	case <-time.After(timeout):
		cmd.Process.Kill()
		c.Err = <-done
		c.TimedOut = true
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		c.PeakRSS = ru.Maxrss << 10
	}
	c.Output = b.String()
	return c
}
