package input

import (
	"errors"
	"strings"
	"syscall"

	"github.com/evgrep/evgrep/internal/oserr"
)

// Error is the error returned by Open and NewReader and by reads from the
// readers they return. Its Error method returns exactly the text rg 13
// prints after "<path>: " for the same failure, so a caller reports it as
//
//	fmt.Fprintf(stderr, "%s: %s\n", path, err)
//
// For a failing decompression the text starts with a newline and wraps the
// decompressor's message in dashed rules, as rg shows a failing
// decompression program's stderr.
type Error struct {
	// Path is the path given to Open or NewReader.
	Path string
	// Err is the underlying cause: a syscall.Errno, a decompression
	// library's error, and so on. errors.Is and errors.As see through it.
	Err error
	// Msg is the rg-style text returned by Error.
	Msg string
}

// Error returns rg's text for the failure, without the path prefix.
func (e *Error) Error() string { return e.Msg }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// osError wraps an operating-system error for path in rg's wording.
func osError(path string, err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Path: path, Err: err, Msg: OSErrorText(err)}
}

// decompressError builds the error rg prints when its decompression
// program fails: the program's stderr between two dashed rules, or
// "<stderr is empty>" when the program printed nothing.
func decompressError(path string, cause error, stderr string) *Error {
	var e *Error
	if errors.As(cause, &e) {
		return e // a read error of the file itself: report it as such
	}
	stderr = strings.TrimSpace(stderr)
	if stderr == "" {
		return &Error{Path: path, Err: cause, Msg: "<stderr is empty>"}
	}
	rule := strings.Repeat("-", errorRuleWidth)
	return &Error{Path: path, Err: cause, Msg: "\n" + rule + "\n" + stderr + "\n" + rule}
}

// OSErrorText maps a Go error to the text rg (through Rust's io::Error)
// prints for it, e.g. "No such file or directory (os error 2)",
// "Permission denied (os error 13)", "Is a directory (os error 21)".
// Errors that carry no errno (and errors of this package, which already
// hold rg's text) are returned by their own text.
func OSErrorText(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Msg
	}
	var errno syscall.Errno
	if errors.As(err, &errno) && errno != 0 {
		return oserr.ErrnoText(errno) // one errno table for the project
	}
	return err.Error()
}
