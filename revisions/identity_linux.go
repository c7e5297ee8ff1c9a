//go:build linux

package revisions

import "syscall"

// statIdentity is the identity a stat result gives.
func statIdentity(st *syscall.Stat_t) Identity {
	return Identity{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano()}
}
