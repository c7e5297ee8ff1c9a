//go:build !unix

package pipeline

import (
	"io/fs"
	"os"
)

// openFlags: no portable flags; preOpenCheck refuses links and special
// files before the open, and OpenChecked checks the opened file.
const openFlags = 0

func isLoop(error) bool { return false }

// preOpenCheck refuses a symlink or a special file before it is opened.
func preOpenCheck(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return &fs.PathError{Op: "open", Path: path, Err: ErrLinkNotFollowed}
		}
		return &fs.PathError{Op: "open", Path: path, Err: ErrNotRegular}
	}
	return nil
}
