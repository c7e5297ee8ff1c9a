//go:build linux || darwin

package astsearch

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/evgrep/evgrep/revisions"
)

// writeAt writes content over real, in the folder realDir, as WriteFile
// says.
func writeAt(realDir, real string, rev revisions.Revision, content []byte) error {
	base := filepath.Base(real)
	dfd, err := unix.Open(realDir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: realDir, Err: err}
	}
	defer unix.Close(dfd)
	if err := sameFolder(dfd, realDir); err != nil {
		return err
	}
	var st unix.Stat_t
	if err := unix.Fstatat(dfd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return &os.PathError{Op: "stat", Path: real, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return errors.New("not a regular file; not rewritten")
	}
	if st.Nlink > 1 {
		return ErrLinked
	}
	if s, err := revisions.Check(real, rev); err != nil {
		return err
	} else if s != revisions.Same {
		return ErrChanged
	}
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return err
	}
	tmpName := "." + base + ".evgrep-" + hex.EncodeToString(rnd[:])
	tfd, err := unix.Openat(dfd, tmpName, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return &os.PathError{Op: "create", Path: filepath.Join(realDir, tmpName), Err: err}
	}
	tmp := os.NewFile(uintptr(tfd), filepath.Join(realDir, tmpName))
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			unix.Unlinkat(dfd, tmpName, 0)
		}
	}()
	half := len(content) / 2
	if _, err := tmp.Write(content[:half]); err != nil {
		return err
	}
	if midWrite != nil {
		midWrite()
	}
	if _, err := tmp.Write(content[half:]); err != nil {
		return err
	}
	// The owner first: a change of owner clears setuid and setgid.
	if err := unix.Fchown(tfd, int(st.Uid), int(st.Gid)); err != nil {
		return fmt.Errorf("%w (%d:%d: %v)", ErrOwner, st.Uid, st.Gid, err)
	}
	if err := unix.Fchmod(tfd, uint32(st.Mode&0o7777)); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	// The last check before the rename: an edit made meanwhile wins.
	if s, err := revisions.Check(real, rev); err != nil || s != revisions.Same {
		if err == nil {
			err = ErrChanged
		}
		return err
	}
	if err := unix.Renameat(dfd, tmpName, dfd, base); err != nil {
		return &os.LinkError{Op: "rename", Old: tmpName, New: real, Err: err}
	}
	ok = true
	tmp.Close()
	if err := unix.Fsync(dfd); err != nil {
		return &os.PathError{Op: "sync", Path: realDir, Err: err}
	}
	return nil
}

// sameFolder checks that the folder opened as dfd is realDir: by the
// kernel's name of the descriptor where /proc has it, else by identity.
func sameFolder(dfd int, realDir string) error {
	if name, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(dfd)); err == nil {
		if filepath.Clean(name) != filepath.Clean(realDir) {
			return ErrMoved
		}
		return nil
	}
	var a, b unix.Stat_t
	if unix.Fstat(dfd, &a) != nil || unix.Stat(realDir, &b) != nil || a.Dev != b.Dev || a.Ino != b.Ino {
		return ErrMoved
	}
	return nil
}
