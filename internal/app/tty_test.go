package app

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens the two ends of a pseudo-terminal, or skips the test.
func openPTY(t *testing.T) (master, slave *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("open pts: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// TestIsTTY checks rg's rule for "stdout is a terminal": a terminal, and
// not a character device such as /dev/null, a pipe or a file.
func TestIsTTY(t *testing.T) {
	t.Setenv("TERM", "xterm")
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pr.Close()
	defer pw.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	cases := []struct {
		name string
		f    *os.File
	}{{"/dev/null", devnull}, {"pipe", pw}, {"file", file}}
	for _, c := range cases {
		if isTTY(c.f) {
			t.Errorf("isTTY(%s) = true, want false", c.name)
		}
	}
	if isTTY(&nopWriter{}) {
		t.Error("isTTY(non-file writer) = true, want false")
	}
	_, slave := openPTY(t)
	if !isTTY(slave) {
		t.Error("isTTY(pseudo-terminal) = false, want true")
	}
	t.Setenv("TERM", "dumb")
	if isTTY(slave) {
		t.Error("isTTY(pseudo-terminal) with TERM=dumb = true, want false")
	}
}

type nopWriter struct{}

func (*nopWriter) Write(p []byte) (int, error) { return len(p), nil }
