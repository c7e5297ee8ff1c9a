//go:build !unix

package snapshot

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// lockDir has no portable file lock to take outside Unix: writes stay
// atomic (temporary file and rename) but eviction may race with another
// process, which then reports the cursor expired or unavailable.
func lockDir(path string, exclusive bool) (func(), error) {
	return func() {}, nil
}

// lockFile is lockDir: no lock here.
func lockFile(path string, exclusive bool, wait time.Duration, done <-chan struct{}) (func(), error) {
	return func() {}, nil
}

// openState opens the state file at path for reading if it is a regular
// file of at most limit bytes (links cannot be refused portably).
func openState(path string, limit int64) (*os.File, fs.FileInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && (!fi.Mode().IsRegular() || limit > 0 && fi.Size() > limit) {
		err = fmt.Errorf("%s: not a regular file of at most %d bytes", path, limit)
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// setMtime sets the modification time of the file f was opened from.
func setMtime(f *os.File, t time.Time) error { return os.Chtimes(f.Name(), t, t) }

// ownedBySelf cannot be checked portably.
func ownedBySelf(fi fs.FileInfo) bool { return true }

// checkAncestors cannot be checked portably.
func checkAncestors(dir string) error { return nil }

// writeInPlace writes the eviction mark at path: without a lock to hold,
// through a temporary file and a rename (writeAtomic), as every state file.
func writeInPlace(path string, data []byte) error {
	return writeAtomic(filepath.Dir(path), filepath.Base(path), data, time.Now())
}
