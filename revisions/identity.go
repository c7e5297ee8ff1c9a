package revisions

import (
	"os"

	"github.com/cespare/xxhash/v2"
)

// Identity is what the filesystem says about a file: device and inode
// numbers, size, and modification and status-change times in nanoseconds
// since the Unix epoch. Two equal identities are taken to be the same
// revision unless a content hash says otherwise. On systems without inode
// numbers Dev, Ino and Ctime are zero.
type Identity struct {
	Dev, Ino uint64
	Size     int64
	Mtime    int64
	Ctime    int64
}

// Revision is one revision of a file as a search saw it: the identity when
// the file was opened and the xxhash (xxhash/v2, 64 bits) of exactly the
// bytes that were read. Verified is true only when the identity after the
// read equalled the identity before and the bytes read were the whole file,
// so Hash is the hash of the file's content at Identity.
type Revision struct {
	Identity
	Hash     uint64
	Verified bool
}

// Hash returns the content hash of b, the same function a Tracker applies to
// the bytes it sees. Use it for inputs already in memory.
func Hash(b []byte) uint64 {
	return xxhash.Sum64(b)
}

// IdentityOf returns the identity of an open file (fstat).
func IdentityOf(f *os.File) (Identity, error) {
	fi, err := f.Stat()
	if err != nil {
		return Identity{}, err
	}
	return identityOf(fi), nil
}

// StatIdentity returns the identity of the file at path, following symbolic
// links as opening it would.
func StatIdentity(path string) (Identity, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Identity{}, err
	}
	return identityOf(fi), nil
}

// LstatRegular returns the identity of the file at path without following
// a final symbolic link, as FileInfoIdentity of os.Lstat's result would,
// and whether it is a regular file: one system call and no allocation
// where the system allows (a warm index checks every file of its tree
// so).
func LstatRegular(path string) (id Identity, regular bool, err error) {
	return lstatRegular(path)
}

// FileInfoIdentity returns the identity described by fi, for callers that
// already hold a stat result (fi.Sys() supplies device, inode and ctime).
func FileInfoIdentity(fi os.FileInfo) Identity {
	return identityOf(fi)
}
