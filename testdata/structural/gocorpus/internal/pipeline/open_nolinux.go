//go:build !linux

package pipeline

import "os"

// openLinkFree has no single-call form here: OpenChecked takes the
// portable way.
func openLinkFree(string) *os.File { return nil }
