// Package oserr holds rg's wording of operating-system errors (the texts
// Rust's std::io::Error displays, e.g. "Permission denied (os error 13)")
// and an error type that shows that wording while keeping its cause, so
// that errors.Is(err, fs.ErrNotExist) holds through every layer that
// reports it.
package oserr

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"syscall"
)

// Error is an error shown in rg's wording that keeps its cause.
type Error struct {
	// Err is the cause: a syscall.Errno, an *fs.PathError, ….
	Err error
	// Msg is rg's text for it.
	Msg string
}

// Error returns rg's text.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Wrap returns err as an *Error whose text is Text(err); nil stays nil and
// an error that already is an *Error is returned as it is.
func Wrap(err error) error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*Error); ok {
		return e
	}
	return &Error{Err: err, Msg: Text(err)}
}

// ehwpoison is Linux's EHWPOISON, which Go's syscall package does not name.
const ehwpoison syscall.Errno = 133

// errnoText holds the glibc strerror texts that differ from Go's error
// strings by more than the capital first letter.
var errnoText = map[syscall.Errno]string{
	syscall.ESTALE: "Stale file handle",
	ehwpoison:      "Memory page has hardware error", // absent from Go's table
}

// Text returns the text rg prints for err: for an operating-system error
// the C library's message followed by " (os error N)"; for an *Error its
// text; for an *fs.PathError without an errno its inner error's text;
// otherwise err's own text.
func Text(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) || errno == 0 {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return pe.Err.Error()
		}
		return err.Error()
	}
	return ErrnoText(errno)
}

// ErrnoText is Text for an errno.
func ErrnoText(errno syscall.Errno) string {
	text, ok := errnoText[errno]
	if !ok {
		text = errno.Error()
		if strings.HasPrefix(text, "errno ") {
			text = "Unknown error " + strconv.Itoa(int(errno)) // glibc's wording
		} else if text != "" && text[0] >= 'a' && text[0] <= 'z' {
			text = string(text[0]-'a'+'A') + text[1:]
		}
	}
	return text + " (os error " + strconv.Itoa(int(errno)) + ")"
}

// Prefix is Wrap with "prefix: " before the text (a path, as rg prints
// "PATH: No such file or directory (os error 2)").
func Prefix(prefix string, err error) error {
	return &Error{Err: err, Msg: prefix + ": " + Text(err)}
}
