//go:build !linux && !darwin

package astsearch

import (
	"errors"

	"github.com/evgrep/evgrep/revisions"
)

// writeAt: a rewrite's guards (owner, links, a folder held open) need
// Linux's or macOS's calls; elsewhere nothing is written.
func writeAt(_, _ string, _ revisions.Revision, _ []byte) error {
	return errors.New("rewriting files is supported on Linux and macOS only; not rewritten")
}
