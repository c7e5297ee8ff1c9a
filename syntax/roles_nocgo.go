//go:build !cgo

package syntax

// classify is never reached without cgo (Occurrences checks Supported
// first); it answers ErrNoParser all the same.
func classify(Language, []byte, []Occurrence) error { return ErrNoParser }

// HasRoles reports whether Occurrences classifies occurrences of lang:
// never without cgo.
func HasRoles(Language) bool { return false }
