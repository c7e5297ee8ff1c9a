//go:build !unix

package credpolicy

import (
	"errors"
	"io"
	"os"
)

// errNotRegular refuses a file that is not a regular file.
var errNotRegular = errors.New("not a regular file")

// readBounded reads at most n bytes of the regular file at path, not
// through a link.
func readBounded(path string, n int64) ([]byte, error) {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return nil, &os.PathError{Op: "open", Path: path, Err: errNotRegular}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}
