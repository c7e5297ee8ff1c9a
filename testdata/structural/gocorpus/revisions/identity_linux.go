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
