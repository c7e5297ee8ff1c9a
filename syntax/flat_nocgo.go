//go:build !cgo

package syntax

// kinds has no grammar to read in a build without cgo.
func kinds(lang Language) (*kindTable, error) { return nil, ErrNoParser }

// parseTree is never reached without cgo (ParseFlat checks Supported
// first); it answers ErrNoParser all the same.
func parseFlat(lang Language, src []byte) (*Tree, error) { return nil, ErrNoParser }
