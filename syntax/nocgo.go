//go:build !cgo

package syntax

// Supported reports whether a parser for lang is compiled in: never, in a
// build without cgo.
func Supported(lang Language) bool { return false }

// parse is never reached without cgo (load checks Supported first); it
// answers ErrNoParser all the same.
func parse(lang Language, src []byte) (*index, error) { return nil, ErrNoParser }
