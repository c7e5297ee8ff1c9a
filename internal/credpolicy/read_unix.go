//go:build unix

package credpolicy

import (
	"errors"
	"io"
	"os"
	"syscall"
)

// errNotRegular refuses a file that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// readBounded reads at most n bytes of the regular file at path, not
// through a link in its last component and without blocking on a FIFO
// put in its place.
func readBounded(path string, n int64) ([]byte, error) {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, &os.PathError{Op: "open", Path: path, Err: errNotRegular}
	}
	return io.ReadAll(io.LimitReader(f, n))
}
