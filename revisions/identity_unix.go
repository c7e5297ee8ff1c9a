//go:build linux || darwin

package revisions

import (
	"os"
	"syscall"
)

// openFlags are added when Check opens a file: O_NONBLOCK keeps a FIFO that
// replaced the file from blocking the open; it has no effect on regular files.
const openFlags = syscall.O_NONBLOCK

func identityOf(fi os.FileInfo) Identity {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return Identity{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
	}
	return statIdentity(st)
}

// lstatRegular is LstatRegular by one lstat call, without the
// os.FileInfo that os.Lstat allocates.
func lstatRegular(path string) (Identity, bool, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Lstat(path, &st)
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return Identity{}, false, &os.PathError{Op: "lstat", Path: path, Err: err}
		}
	}
	return statIdentity(&st), st.Mode&syscall.S_IFMT == syscall.S_IFREG, nil
}
