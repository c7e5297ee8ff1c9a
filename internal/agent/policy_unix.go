//go:build linux || darwin

package agent

import (
	"os"
	"syscall"
)

// linkInfo returns a file's device, inode and link count.
func linkInfo(fi os.FileInfo) (dev, ino, links uint64, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), uint64(st.Nlink), true
}
