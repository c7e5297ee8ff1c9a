//go:build !unix

package snapshot

import "os"

// lockDir has no portable file lock to take outside Unix: writes stay
// atomic (temporary file and rename) but eviction may race with another
// process, which then reports the cursor expired or unavailable.
func lockDir(path string, exclusive bool) (func(), error) {
	return func() {}, nil
}

// ownedBySelf cannot be checked portably.
func ownedBySelf(fi os.FileInfo) bool { return true }
