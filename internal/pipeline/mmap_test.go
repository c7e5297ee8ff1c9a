package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadWhole: -U's and --mmap's files come back whole from one open:
// small ones from the pooled buffer (also after a bigger file used it),
// oversized ones and --mmap's mapped, empty ones empty; a FIFO is read
// from its one open (a second open would wait for a writer that is gone);
// a folder and a missing file are errors.
func TestReadWhole(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := bytes.Repeat([]byte("x\n"), 300000)
	small := []byte("one\ntwo\n")
	huge := bytes.Repeat([]byte("y"), maxReadWhole+1)
	for _, c := range []struct {
		path string
		mmap bool
		want []byte
	}{
		{write("big", big), false, big},
		{write("small", small), false, small},
		{write("small", small), true, small},
		{write("huge", huge), false, huge},
		{write("empty", nil), false, nil},
	} {
		data, release, err := readWhole(c.path, true, c.mmap)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if !bytes.Equal(data, c.want) || data == nil {
			t.Fatalf("%s (mmap %v): %d bytes, want %d", c.path, c.mmap, len(data), len(c.want))
		}
		release()
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		go func() {
			if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				w.Write(small)
				w.Close()
			}
		}()
		data, release, err := readWhole(fifo, false, false)
		if err != nil || !bytes.Equal(data, small) {
			t.Fatalf("fifo: %q, %v", data, err)
		}
		release()
	}
	for _, p := range []string{dir, filepath.Join(dir, "missing")} {
		if _, _, err := readWhole(p, p != dir, false); err == nil {
			t.Errorf("%s: no error", p)
		}
	}
}
