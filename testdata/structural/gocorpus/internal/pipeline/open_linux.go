//go:build linux

package pipeline

import (
	"os"

	"golang.org/x/sys/unix"
)

// openLinkFree opens path with openat2(RESOLVE_NO_SYMLINKS): the open
// succeeds only when no component of path is a symlink, so the opened
// file is the one path names lexically and its real path needs no second
// look (reading /proc/self/fd costs as much as the open itself). It
// returns nil on any failure (a link anywhere, a kernel without openat2,
// a seccomp filter); OpenChecked then takes the slow, portable way.
func openLinkFree(path string) *os.File {
	how := unix.OpenHow{
		Flags:   uint64(unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC),
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	}
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &how)
	if err != nil {
		return nil
	}
	return os.NewFile(uintptr(fd), path)
}
