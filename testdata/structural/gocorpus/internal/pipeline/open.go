package pipeline

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// Errors of OpenChecked, wrapped in an *fs.PathError (errors.Is finds them).
var (
	// ErrNotRegular: the path names a folder, a FIFO, a socket or a device.
	ErrNotRegular = errors.New("not a regular file; not read")
	// ErrLinkNotFollowed: the last component of the path is a symlink.
	ErrLinkNotFollowed = errors.New("a symbolic link; not followed")
	// ErrSwapped: the file changed between its open and the check of
	// its real path.
	ErrSwapped = errors.New("changed while it was opened; not read")
)

// SpecialKind names a file type that OpenChecked never opens for reading,
// or "" for a regular file or a folder.
func SpecialKind(m fs.FileMode) string {
	switch {
	case m.IsRegular(), m.IsDir():
		return ""
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// OpenChecked opens path for reading without following a symlink in its
// last component and without blocking (O_NONBLOCK), then checks the
// opened file: it must be a regular file, and refuse (when not nil) must
// accept its real path. The real path is path itself when openat2 could
// open it with no symlink in any component (the common case, one
// syscall); otherwise it is read back from the descriptor, or resolved and
// compared by identity. A file swapped for a symlink or a FIFO between a
// walk and the open is therefore never read, and a refusal is returned
// wrapped in an *fs.PathError.
func OpenChecked(path string, refuse func(real string) error) (*os.File, error) {
	if err := preOpenCheck(path); err != nil {
		return nil, err
	}
	f := openLinkFree(path)
	linkFree := f != nil
	if !linkFree {
		var err error
		f, err = os.OpenFile(path, os.O_RDONLY|openFlags, 0)
		if err != nil {
			if isLoop(err) {
				return nil, &fs.PathError{Op: "open", Path: path, Err: ErrLinkNotFollowed}
			}
			return nil, err
		}
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if k := SpecialKind(fi.Mode()); k != "" || !fi.Mode().IsRegular() {
		f.Close()
		if k == "" {
			k = "a folder"
		}
		return nil, &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%s, %w", k, ErrNotRegular)}
	}
	if refuse == nil {
		return f, nil
	}
	real, err := filepath.Abs(path)
	if !linkFree || err != nil {
		if real, err = openedPath(f, fi, path); err != nil {
			f.Close()
			return nil, err
		}
	}
	if err := refuse(filepath.Clean(real)); err != nil {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return f, nil
}

// openedPath returns the real path of the opened file f: the kernel's
// name for the descriptor when /proc is there, else path resolved, which
// must then be the same file as f.
func openedPath(f *os.File, fi os.FileInfo, path string) (string, error) {
	if real, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd()))); err == nil && filepath.IsAbs(real) {
		return real, nil
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", err
	}
	if real, err = filepath.Abs(real); err != nil {
		return "", err
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !os.SameFile(st, fi) {
		return "", &fs.PathError{Op: "open", Path: path, Err: ErrSwapped}
	}
	return real, nil
}
