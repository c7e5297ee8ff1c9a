//go:build !cgo

package structural

// cgoBuild: this build has no grammars (CGO_ENABLED=0), so every language
// lookup fails with ErrNoCgo.
const cgoBuild = false
