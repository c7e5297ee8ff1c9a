package snapshot

import (
	"errors"
	"fmt"
)

// Code is a stable error code of a cursor or of the snapshot store.
type Code string

// The stable codes of DESIGN.md, plus CodeUnavailable for a state folder
// that cannot be used.
const (
	// CodeMalformed: the token is not a cursor token at all.
	CodeMalformed Code = "E_CURSOR_MALFORMED"
	// CodeExpired: the cursor existed but its snapshot was evicted (idle
	// expiry or LRU).
	CodeExpired Code = "E_CURSOR_EXPIRED"
	// CodeNotFound: no such cursor (forged, or forgotten long ago).
	CodeNotFound Code = "E_CURSOR_NOT_FOUND"
	// CodeWrongKind: a cursor asked for a page of another kind than its
	// own (Resolve with a kind); the agent lets a summary cursor list
	// match lines, never a matches cursor a summary.
	CodeWrongKind Code = "E_CURSOR_WRONG_KIND"
	// CodeOptionsConflict: the request restates options (or a root) that
	// differ from the cursor's search.
	CodeOptionsConflict Code = "E_CURSOR_OPTIONS_CONFLICT"
	// CodeOffsetInvalid: the offset is outside the snapshot.
	CodeOffsetInvalid Code = "E_CURSOR_OFFSET_INVALID"
	// CodeUnavailable: the state folder cannot be written or read, or a
	// snapshot file is corrupt; the search itself is unaffected, only the
	// cursor cannot be offered or followed.
	CodeUnavailable Code = "E_CURSOR_UNAVAILABLE"
)

// Error is the error of cursor and store operations. Code is stable; Msg is
// a short human explanation; Err, when set, is the underlying cause.
type Error struct {
	Code Code
	Msg  string
	Err  error
}

// Error returns "CODE: message[: cause]".
func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// CodeOf returns the Code of err when it is (or wraps) an *Error, else "".
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func newError(code Code, err error, format string, args ...any) *Error {
	return &Error{Code: code, Msg: fmt.Sprintf(format, args...), Err: err}
}
