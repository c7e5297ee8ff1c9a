//go:build !linux

package startpages

// Drop does nothing on systems other than Linux.
func Drop() {}
