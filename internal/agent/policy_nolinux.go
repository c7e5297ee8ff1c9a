//go:build !linux

package agent

import "os"

// openLinkFree has no single-call form here: openChecked takes the
// portable way.
func openLinkFree(string) *os.File { return nil }
