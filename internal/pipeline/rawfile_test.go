package pipeline

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenRawReads checks that a rawFile returns the whole file, for
// sizes around the head's length, regular or not, and that a
// released rawFile reused for the next file returns that file's bytes.
func TestOpenRawReads(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 2, 3, 4, 5000} {
		for _, regular := range []bool{true, false} {
			want := bytes.Repeat([]byte("abcdefg\n"), size/8+1)[:size]
			path := filepath.Join(dir, strings.Repeat("f", size%7+1))
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := openRaw(path, regular)
			if err != nil {
				t.Fatalf("size %d regular %v: %v", size, regular, err)
			}
			got, err := io.ReadAll(f)
			f.release()
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("size %d regular %v: read %q, %v; want %q", size, regular, got, err, want)
			}
		}
	}
}

// TestOpenRawErrors checks the errors of openRaw: a missing file in rg's
// words, and a path with a NUL byte refused as syscall.Open refuses it.
func TestOpenRawErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "missing"), "No such file or directory"},
		{filepath.Join(dir, "a\x00b"), "invalid argument"},
	} {
		for _, regular := range []bool{true, false} {
			f, err := openRaw(c.path, regular)
			if err == nil {
				f.release()
				t.Errorf("openRaw(%q, %v) succeeded", c.path, regular)
				continue
			}
			if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(c.want)) {
				t.Errorf("openRaw(%q, %v) = %v, want %q", c.path, regular, err, c.want)
			}
		}
	}
}

// TestOpenRawAllocs checks that opening and releasing a regular file
// allocates nothing once a rawFile is pooled
// (this ran once per searched file).
func TestOpenRawAllocs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "some", "deeper", "name.go")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("package p\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	n := testing.AllocsPerRun(100, func() {
		f, err := openRaw(path, true)
		if err != nil {
			t.Fatal(err)
		}
		f.release()
	})
	if n != 0 {
		t.Errorf("%v allocations per open and release, want 0", n)
	}
}
