//go:build unix

package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Flags of every open in the state folder: a final symbolic link is not
// followed (ELOOP) and a FIFO does not block the open.
const safeOpenFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC

// lockDir takes a flock on the lock file at path (created if missing),
// shared or exclusive, and returns its release. The lock file is opened
// like every state file (a regular file of this user, no link followed)
// and the lock is tried without blocking until maxLockWait has passed, so
// a process that holds it forever cannot hang this one.
func lockDir(path string, exclusive bool) (func(), error) {
	return lockFile(path, exclusive, maxLockWait, nil)
}

// lockFile is lockDir waiting up to wait.
func lockFile(path string, exclusive bool, wait time.Duration, done <-chan struct{}) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|safeOpenFlags, 0o600)
	if err != nil && !errors.Is(err, syscall.ELOOP) {
		// A read-only folder can still be read under a shared lock.
		var err2 error
		if f, err2 = os.OpenFile(path, os.O_RDONLY|safeOpenFlags, 0); err2 != nil {
			return nil, err
		}
		err = nil
	}
	if err != nil {
		return nil, linkError(path, err)
	}
	if _, err := checkFile(f, path, 0); err != nil {
		f.Close()
		return nil, err
	}
	how := syscall.LOCK_SH | syscall.LOCK_NB
	if exclusive {
		how = syscall.LOCK_EX | syscall.LOCK_NB
	}
	deadline := time.Now().Add(wait)
	for delay := time.Millisecond; ; {
		err = syscall.Flock(int(f.Fd()), how)
		if err == nil {
			break
		}
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, fmt.Errorf("%s: held by another process for over %v", path, wait)
			}
			return nil, err
		}
		select {
		case <-done:
			f.Close()
			return nil, errLockCancelled
		case <-time.After(delay):
		}
		delay = min(2*delay, 50*time.Millisecond)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// openState opens the state file at path for reading: without following
// a symbolic link, without blocking on a FIFO, and only if it is a regular
// file of this user of at most limit bytes (checked on the opened file).
func openState(path string, limit int64) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|safeOpenFlags, 0)
	if err != nil {
		return nil, nil, linkError(path, err)
	}
	fi, err := checkFile(f, path, limit)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// linkError names the refusal of a symbolic link (ELOOP under O_NOFOLLOW).
func linkError(path string, err error) error {
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("%s: a symbolic link, not followed", path)
	}
	return err
}

// checkFile checks an opened state file: a regular file of this user, of
// at most limit bytes when limit > 0.
func checkFile(f *os.File, path string, limit int64) (fs.FileInfo, error) {
	fi, err := f.Stat()
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file (%v)", path, fi.Mode().Type())
	case !ownedBySelf(fi):
		return nil, fmt.Errorf("%s: owned by another user", path)
	case limit > 0 && fi.Size() > limit:
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a state file may have", path, fi.Size(), limit)
	}
	return fi, nil
}

// setMtime sets the modification (and access) time of an open file, so
// that no path is followed to set it.
func setMtime(f *os.File, t time.Time) error {
	tv := syscall.NsecToTimeval(t.UnixNano())
	return syscall.Futimes(int(f.Fd()), []syscall.Timeval{tv, tv})
}

// ownedBySelf reports whether a state file or folder belongs to this
// user: one another user controls could feed forged snapshots to the agent.
func ownedBySelf(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Geteuid()
}

// checkAncestors refuses a state folder that another user could swap: each
// folder above it (as written and as resolved) must belong to this user or
// to root and be writable by no one else, unless it is sticky (as /tmp is,
// where only the owner may rename the state folder).
func checkAncestors(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	parent := filepath.Dir(abs)
	real, err := filepath.EvalSymlinks(parent)
	if err != nil {
		return err
	}
	for _, start := range []string{parent, real} {
		for p := start; ; p = filepath.Dir(p) {
			fi, err := os.Stat(p)
			if err != nil {
				return err
			}
			st, ok := fi.Sys().(*syscall.Stat_t)
			if ok && st.Uid != 0 && int(st.Uid) != os.Geteuid() {
				return fmt.Errorf("%s: owned by another user", p)
			}
			if fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0 {
				return fmt.Errorf("%s: writable by other users", p)
			}
			if filepath.Dir(p) == p {
				break
			}
		}
	}
	return nil
}

// writeInPlace overwrites the state file at path with data (created if
// missing, no link followed): one write at the start, then the file cut to
// its length. Only the eviction mark is written so: it is read and written
// under the exclusive lock alone, it is one line written by one call, and
// what a crash between the write and the cut leaves is that line followed
// by the end of the longer one before it, which parses as the new mark (a
// mark that does not parse means a scan). (A temporary file and a rename,
// as writeAtomic does, cost as much as the rest of a write that fits, and
// so did truncating the file to nothing first: ext4 frees its block and
// allocates one again, 0.5 ms of an agent call.)
func writeInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|safeOpenFlags, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(data, 0)
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
