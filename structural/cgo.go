//go:build cgo

package structural

// cgoBuild: the grammars of package syntax are compiled in.
const cgoBuild = true
