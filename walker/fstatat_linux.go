//go:build linux && !(amd64 || arm64)

package walker

import "golang.org/x/sys/unix"

// fstatat is unix.Fstatat(fd, name, st, AT_SYMLINK_NOFOLLOW), retried on
// EINTR (buf is unused here).
func fstatat(fd int, name string, st *unix.Stat_t, buf []byte) ([]byte, error) {
	for {
		err := unix.Fstatat(fd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return buf, err
		}
	}
}
