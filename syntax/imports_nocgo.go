//go:build !cgo

package syntax

// Imports needs a parser: a build without cgo has none.
func Imports(lang Language, src []byte) ([]Import, error) { return nil, ErrNoParser }
