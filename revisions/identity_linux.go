//go:build linux

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
	return Identity{
		Dev:   uint64(st.Dev),
		Ino:   uint64(st.Ino),
		Size:  st.Size,
		Mtime: st.Mtim.Nano(),
		Ctime: st.Ctim.Nano(),
	}
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
	id := Identity{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}
	return id, st.Mode&syscall.S_IFMT == syscall.S_IFREG, nil
}
