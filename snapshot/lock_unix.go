//go:build unix

package snapshot

import (
	"errors"
	"os"
	"syscall"
)

// lockDir takes a flock on the lock file at path (created if missing),
// shared or exclusive, and returns its release.
func lockDir(path string, exclusive bool) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		// A read-only folder can still be read under a shared lock.
		var err2 error
		if f, err2 = os.Open(path); err2 != nil {
			return nil, err
		}
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// ownedBySelf reports whether the state folder belongs to this user: a
// folder another user controls could feed forged snapshots to the agent.
func ownedBySelf(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}
