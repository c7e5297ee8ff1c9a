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
}

// openRaw opens path read-only and reads its first input.HeadLen bytes.
func openRaw(path string, headBuf []byte) (*rawFile, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	for err == syscall.EINTR {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, osErr(err)
	}
	f := &rawFile{fd: fd}
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
	for {
		n, err := syscall.Read(f.fd, p)
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
	err := syscall.Close(f.fd)
	f.fd = -1
	return err
}
