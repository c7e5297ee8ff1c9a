package pipeline

import (
	"io"
	"sync"
	"syscall"
)

// rawFile reads a file through its descriptor directly. Walked files are
// opened and read once each, and os.File's bookkeeping (a finalizer, the
// poller's locks, an fstat for the directory check) measurably slows
// searches of many small files. Errors use rg's wording.
type rawFile struct {
	fd  int
	eof bool
	// regular: the file is known to be a regular file, so no open, read
	// or close of it waits for another process; those calls then skip
	// the scheduler's syscall hand-off (rawsys.go).
	regular bool
	cpath   []byte // the path as a C string (rawOpen's buffer)
}

// rawFiles keeps rawFiles, with their buffers, from one file to the next
// (release): a rawFile and its path's C string per file were
// most of a tree search's garbage, resident under the GC target (peak
// RSS, bench/README.md).
var rawFiles = sync.Pool{New: func() any { return &rawFile{fd: -1} }}

// openRaw opens path read-only. regular says that path names a regular
// file (see rawFile). The caller releases the file when done. Its head is
// not read ahead: the search's first read sniffs it (sniffReader).
func openRaw(path string, regular bool) (*rawFile, error) {
	f := rawFiles.Get().(*rawFile)
	fd, err := f.open(path, regular)
	if err != nil {
		rawFiles.Put(f)
		return nil, osErr(err)
	}
	f.fd, f.regular, f.eof = fd, regular, false
	return f, nil
}

// open opens path read-only, again after EINTR.
func (f *rawFile) open(path string, regular bool) (int, error) {
	const mode = syscall.O_RDONLY | syscall.O_CLOEXEC
	for {
		var fd int
		var err error
		if regular {
			fd, err = rawOpen(&f.cpath, path, mode, 0)
		} else {
			fd, err = syscall.Open(path, mode, 0)
		}
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func (f *rawFile) readFD(p []byte) (int, error) {
	read := syscall.Read
	if f.regular {
		read = rawRead
	}
	for {
		n, err := read(f.fd, p)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, osErr(err)
		}
		return n, nil
	}
}

// Read reads the descriptor.
func (f *rawFile) Read(p []byte) (int, error) {
	if f.eof {
		return 0, io.EOF
	}
	n, err := f.readFD(p)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		f.eof = true
		return 0, io.EOF
	}
	return n, nil
}

// Close closes the descriptor.
func (f *rawFile) Close() error {
	if f.fd < 0 {
		return nil
	}
	var err error
	if f.regular {
		err = rawClose(f.fd)
	} else {
		err = syscall.Close(f.fd)
	}
	f.fd = -1
	return err
}

// release closes f and gives it back to rawFiles; f is not used after.
func (f *rawFile) release() {
	_ = f.Close()
	rawFiles.Put(f)
}
