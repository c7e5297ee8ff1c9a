package oserr

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
	"testing"
)

// TestText checks rg's (glibc's) wording for errors Go words differently.
func TestText(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{syscall.ENOENT, "No such file or directory (os error 2)"},
		{syscall.EACCES, "Permission denied (os error 13)"},
		{syscall.ESTALE, "Stale file handle (os error 116)"},
		{ehwpoison, "Memory page has hardware error (os error 133)"},
		{syscall.Errno(4000), "Unknown error 4000 (os error 4000)"},
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.EISDIR}, "Is a directory (os error 21)"},
		{&fs.PathError{Op: "open", Path: "x", Err: errors.New("plain")}, "plain"},
		{errors.New("no errno"), "no errno"},
		{&Error{Err: syscall.ENOENT, Msg: "kept"}, "kept"},
	} {
		if got := Text(tc.err); got != tc.want {
			t.Errorf("Text(%#v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestWrapKeepsCause checks that the wrapped errors show rg's text and are
// still their cause for errors.Is.
func TestWrapKeepsCause(t *testing.T) {
	_, err := os.Open("/nonexistent/evgrep")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{Wrap(err), "No such file or directory (os error 2)"},
		{Prefix("f", err), "f: No such file or directory (os error 2)"},
		{Wrap(Wrap(err)), "No such file or directory (os error 2)"},
	} {
		if tc.err.Error() != tc.want {
			t.Errorf("text %q, want %q", tc.err, tc.want)
		}
		if !errors.Is(tc.err, fs.ErrNotExist) || !errors.Is(tc.err, syscall.ENOENT) {
			t.Errorf("%v: the cause is lost", tc.err)
		}
	}
	if Wrap(nil) != nil {
		t.Error("Wrap(nil) is not nil")
	}
}
