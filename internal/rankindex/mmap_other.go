//go:build !unix

package rankindex

import "os"

// mapFile does not map on this system: the cache is read instead.
func mapFile(f *os.File, size int64) (data []byte, release func(), err error) {
	return nil, nil, errNoMap
}
