package pipeline

import (
	"io"
	"syscall"

	"github.com/evgrep/evgrep/internal/input"
)

// rawFile reads a file through its descriptor directly. Walked files are
// opened and read once each, and os.File's bookkeeping (a finalizer, the
// poller's locks, an fstat for the directory check) measurably slows
// searches of many small files. Errors use rg's wording.
type rawFile struct {
	fd   int
	head []byte // bytes read ahead for BOM sniffing, returned first
	eof  bool
	// regular: the file is known to be a regular file, so no open, read
	// or close of it waits for another process; those calls then skip
	// the scheduler's syscall hand-off (rawsys.go).
	regular bool
}

// openRaw opens path read-only and reads its first input.HeadLen bytes.
// regular says that path names a regular file (see rawFile).
func openRaw(path string, headBuf []byte, regular bool) (*rawFile, error) {
	open := syscall.Open
	if regular {
		open = rawOpen
	}
	fd, err := open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	for err == syscall.EINTR {
		fd, err = open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, osErr(err)
	}
	f := &rawFile{fd: fd, regular: regular}
	n, err := f.readFD(headBuf[:input.HeadLen])
	if err != nil {
		f.Close()
		return nil, err
	}
	f.head = headBuf[:n]
	if n < input.HeadLen {
		f.eof = n == 0
	}
	return f, nil
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

// Read returns the head first (as rg's BOM-sniffing reader does), then
// reads the descriptor.
func (f *rawFile) Read(p []byte) (int, error) {
	if len(f.head) > 0 {
		n := copy(p, f.head)
		f.head = f.head[n:]
		return n, nil
	}
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
