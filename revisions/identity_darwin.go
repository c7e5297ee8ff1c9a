//go:build darwin

package revisions

import (
	"os"
	"syscall"
)

// statIdentity is the identity a stat result gives.
func statIdentity(st *syscall.Stat_t) Identity {
	return Identity{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Mtime: st.Mtimespec.Nano(), Ctime: st.Ctimespec.Nano()}
}

// statRegular is the identity of the file at path, symbolic links
// followed, and whether it is a regular file, without an os.FileInfo.
func statRegular(path string) (Identity, bool, error) {
	var st syscall.Stat_t
	for {
		err := syscall.Stat(path, &st)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return Identity{}, false, &os.PathError{Op: "stat", Path: path, Err: err}
		}
		return statIdentity(&st), st.Mode&syscall.S_IFMT == syscall.S_IFREG, nil
	}
}
