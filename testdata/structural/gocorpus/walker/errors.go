package walker

import (
	"errors"
	"os"
	"strconv"
	"syscall"

	"github.com/evgrep/evgrep/internal/oserr"
	"github.com/evgrep/evgrep/walker/ignore"
)

// PathError is a problem with one path met during a walk: a root that does
// not exist, a directory that cannot be read, a symlink (with Follow) that
// points nowhere. Its Error text is what ripgrep prints for it, e.g.
// "foo: No such file or directory (os error 2)", or, in the single-threaded
// walk (which in rg is walkdir's), "foo: IO error for operation on foo:
// Permission denied (os error 13)". ripgrep 15 prints these lines after
// "rg: " (ripgrep 13 without it).
type PathError struct {
	// Path is the path as the walk spelled it.
	Path string
	// Err is the underlying error.
	Err error
	// Walkdir selects the wording of ripgrep's single-threaded walk.
	Walkdir bool
}

// Error returns ripgrep's message.
func (e *PathError) Error() string {
	if e.Walkdir {
		return e.Path + ": IO error for operation on " + e.Path + ": " + oserr.Text(e.Err)
	}
	return e.Path + ": " + oserr.Text(e.Err)
}

// Unwrap returns the underlying error.
func (e *PathError) Unwrap() error { return e.Err }

// LoopError is a symlink that, with Follow, leads back to a directory the
// walk is inside. ripgrep reports it and goes on without descending.
type LoopError struct {
	// Child is the symlink's path.
	Child string
	// Ancestor is the path of the directory it points to.
	Ancestor string
}

// Error returns ripgrep's message.
func (e *LoopError) Error() string {
	return "File system loop found: " + e.Child + " points to an ancestor " + e.Ancestor
}

// IgnoreFileError is a problem with an ignore file: a line that does not
// compile, or an --ignore-file that cannot be read. Its Error text is
// ripgrep's, "PATH: line N: error parsing glob ..." or
// "PATH: No such file or directory (os error 2)". ripgrep prints these
// unless --no-ignore-messages (or --no-messages) is given.
type IgnoreFileError struct {
	// Path is the ignore file's path as the walk spelled it.
	Path string
	// Err is the error: an *ignore.LineError, or an I/O error.
	Err error
}

// Error returns ripgrep's message. A file that fails as a whole because a
// line nests its alternates too deeply (*ignore.NestError) is reported, as
// ripgrep reports it, without the file's path.
func (e *IgnoreFileError) Error() string {
	var errno syscall.Errno
	if errors.As(e.Err, &errno) {
		return e.Path + ": " + oserr.Text(e.Err)
	}
	var ne *ignore.NestError
	if errors.As(e.Err, &ne) {
		return ne.Error()
	}
	return e.Path + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *IgnoreFileError) Unwrap() error { return e.Err }

// errNotUTF8Line is the error of an ignore file line that is not UTF-8;
// ripgrep stops reading the file there.
type errNotUTF8Line struct{ line int }

func (e *errNotUTF8Line) Error() string {
	return "line " + strconv.Itoa(e.line) + ": stream did not contain valid UTF-8"
}

// pathErr wraps err for path in a *PathError.
func pathErr(path string, err error, walkdir bool) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &PathError{Path: path, Err: err, Walkdir: walkdir}
}
