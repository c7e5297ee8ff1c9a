package input

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/iotest"
)

func TestOSErrorText(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{syscall.ENOENT, "No such file or directory (os error 2)"},
		{syscall.EACCES, "Permission denied (os error 13)"},
		{syscall.EISDIR, "Is a directory (os error 21)"},
		{syscall.ENOTDIR, "Not a directory (os error 20)"},
		{syscall.ELOOP, "Too many levels of symbolic links (os error 40)"},
		{syscall.EIO, "Input/output error (os error 5)"},
		{syscall.EMFILE, "Too many open files (os error 24)"},
		{syscall.ENAMETOOLONG, "File name too long (os error 36)"},
		{syscall.Errno(41), "Unknown error 41 (os error 41)"},
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}, "No such file or directory (os error 2)"},
		{fmt.Errorf("wrapped: %w", &fs.PathError{Op: "read", Path: "x", Err: syscall.EISDIR}), "Is a directory (os error 21)"},
		{errors.New("plain"), "plain"},
		{&Error{Msg: "already rg text", Err: syscall.ENOENT}, "already rg text"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := OSErrorText(tt.err); got != tt.want {
			t.Errorf("OSErrorText(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("loop", filepath.Join(dir, "loop")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want string
		is   error
	}{
		{"missing", filepath.Join(dir, "missing"), "No such file or directory (os error 2)", fs.ErrNotExist},
		{"directory", dir, "Is a directory (os error 21)", syscall.EISDIR},
		{"symlink loop", filepath.Join(dir, "loop"), "Too many levels of symbolic links (os error 40)", syscall.ELOOP},
		{"not a directory", filepath.Join(fixtureDir, "plain.txt", "x"), "Not a directory (os error 20)", syscall.ENOTDIR},
	}
	for _, tt := range tests {
		for _, opts := range []Options{{}, {SearchZip: true}, {Encoding: "none"}} {
			_, err := Open(tt.path, opts)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%s: error %T %v", tt.name, err, err)
			}
			if e.Error() != tt.want || e.Path != tt.path || !errors.Is(err, tt.is) {
				t.Errorf("%s: got %q (path %q), want %q", tt.name, e.Error(), e.Path, tt.want)
			}
		}
	}
	if _, err := Open(fixture("plain.txt"), Options{Encoding: "bogus"}); err == nil ||
		err.Error() != "grep config error: unknown encoding: bogus" {
		t.Errorf("Open with a bad label: %v", err)
	}
}

func TestOpenPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files whatever their mode")
	}
	p := writeTemp(t, "secret.txt", []byte("x"))
	if err := os.Chmod(p, 0); err != nil {
		t.Fatal(err)
	}
	_, err := Open(p, Options{})
	if err == nil || err.Error() != "Permission denied (os error 13)" {
		t.Fatalf("got %v", err)
	}
}

// closeTracker records Close calls.
type closeTracker struct {
	io.Reader
	closed int
}

func (c *closeTracker) Close() error { c.closed++; return nil }

func TestNewReaderReadErrorsAndClose(t *testing.T) {
	src := &closeTracker{Reader: io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(syscall.EIO))}
	rc, err := NewReader(src, "dev.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	var e *Error
	if string(got) != "abc" || !errors.As(err, &e) || e.Error() != "Input/output error (os error 5)" || e.Path != "dev.txt" {
		t.Fatalf("got %q, %v", got, err)
	}
	for i := 0; i < 2; i++ {
		if err := rc.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if src.closed != 1 {
		t.Fatalf("source closed %d times, want 1", src.closed)
	}
	// A read error inside a compressed stream is the file's error, not
	// a decompression failure.
	gz := readFixture(t, "plain.txt.gz")
	rc, err = NewReader(io.MultiReader(strings.NewReader(string(gz[:40])), iotest.ErrReader(syscall.EIO)), "x.gz", Options{SearchZip: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(rc)
	if err == nil || err.Error() != "Input/output error (os error 5)" {
		t.Fatalf("got %v", err)
	}
	_ = rc.Close()
}
