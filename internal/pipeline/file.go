package pipeline

import (
	"io"
	"io/fs"
	"os"
)

// File is a file an Opener opened for the pipeline to read: an *os.File,
// or the plain descriptor that OpenCheckedFile returns on Linux.
type File interface {
	io.Reader
	io.Closer
	// Fd is the descriptor (to map the file).
	Fd() uintptr
	// Name is the path the file was opened by.
	Name() string
	// Stat is the file's fstat.
	Stat() (fs.FileInfo, error)
}

// OpenCheckedFile is OpenCheckedStat for a file the pipeline reads: the
// same checks and errors, but where openat2 opens the path with no
// symlink in it (Linux), the file is its bare descriptor, read and closed
// by plain system calls, without os.File's flag query, poller
// registration and finalizer (two system calls and a finalizer per file
// of an agent's search).
func OpenCheckedFile(path string, refuse func(real string) error) (File, fs.FileInfo, error) {
	if f, fi, err, ok := openCheckedFD(path, refuse); ok {
		if err != nil {
			return nil, nil, err
		}
		return f, fi, nil
	}
	f, fi, err := OpenCheckedStat(path, refuse)
	if err != nil {
		return nil, nil, err
	}
	return f, fi, nil
}

// openStat is os.Open with the file's fstat.
func openStat(path string) (File, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}
