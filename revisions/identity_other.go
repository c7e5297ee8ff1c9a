//go:build !linux && !darwin

package revisions

import "os"

// openFlags are added when Check opens a file; none are portable.
const openFlags = 0

// identityOf falls back to what os.FileInfo offers everywhere: size and
// modification time. Device, inode and ctime stay zero, so identities are
// weaker and the content hash carries more of the check.
func identityOf(fi os.FileInfo) Identity {
	return Identity{Size: fi.Size(), Mtime: fi.ModTime().UnixNano()}
}

// lstatRegular is LstatRegular through os.Lstat.
func lstatRegular(path string) (Identity, bool, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return Identity{}, false, err
	}
	return identityOf(fi), fi.Mode().IsRegular(), nil
}

// statRegular is the identity of the file at path through os.Stat, and
// whether it is a regular file.
func statRegular(path string) (Identity, bool, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Identity{}, false, err
	}
	return identityOf(fi), fi.Mode().IsRegular(), nil
}
