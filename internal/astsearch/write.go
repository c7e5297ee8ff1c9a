package astsearch

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evgrep/evgrep/revisions"
)

// The one set of rules for writing a rewrite, the CLI's --apply and the
// agent's apply alike: a file is written only when its real path is inside
// a searched root and the caller's policy allows it (credential stores,
// system places, Git internals), only while it is the revision that was
// read, through a temporary file in the same folder that gets the file's
// owner, group and mode (setuid, setgid, sticky too; a file whose owner
// cannot be kept is refused), synced and renamed over it; the folder is
// synced after the rename. A file with several hard links is refused,
// since a rename would split them. The folder is opened once, checked to
// be the one the checks looked at, and every later step is relative to
// it, so a folder swapped for a link meanwhile is never written through.

// midWrite, when set (by a test), runs when half of the temporary file
// is written.
var midWrite func()

// Errors of WriteFile.
var (
	// ErrChanged: the file is no longer the revision that was previewed.
	ErrChanged = errors.New("changed since it was read; not rewritten")
	// ErrOutside: the file's real path is outside every searched root.
	ErrOutside = errors.New("outside the searched roots (through a link); not rewritten")
	// ErrLinked: the file has more than one hard link.
	ErrLinked = errors.New("has more than one hard link, which a rewrite would split; not rewritten")
	// ErrOwner: the file's owner or group cannot be given to the new file.
	ErrOwner = errors.New("its owner and group cannot be kept; not rewritten")
	// ErrMoved: the folder changed between the checks and the write.
	ErrMoved = errors.New("its folder changed while being written; not rewritten")
)

// Guard is where a rewrite may write.
type Guard struct {
	roots []string // real paths
	// refuse, when set, tells why a real path is never written.
	refuse func(real string) error
}

// NewGuard returns the guard of a rewrite over roots (resolved to their
// real paths; a root that cannot be resolved admits nothing) with the
// caller's policy refuse (nil: none).
func NewGuard(roots []string, refuse func(real string) error) *Guard {
	g := &Guard{refuse: refuse}
	for _, r := range roots {
		abs, err := filepath.Abs(r)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			g.roots = append(g.roots, filepath.Clean(real))
		}
	}
	return g
}

// inside reports whether real is one of the roots or below one.
func (g *Guard) inside(real string) bool {
	for _, r := range g.roots {
		if real == r || strings.HasPrefix(real, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}

// check resolves path's folder and checks the real path against the
// guard: the real folder and the file's real path.
func (g *Guard) check(path string) (realDir, real string, err error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", err
	}
	dir, base := filepath.Split(abs)
	if realDir, err = filepath.EvalSymlinks(dir); err != nil {
		return "", "", err
	}
	real = filepath.Join(realDir, base)
	if !g.inside(real) {
		return "", "", ErrOutside
	}
	if g.refuse != nil {
		if err := g.refuse(real); err != nil {
			return "", "", fmt.Errorf("%w; not rewritten", err)
		}
	}
	return realDir, real, nil
}

// WriteFile replaces the file at path with content under g's rules (see
// above), only if the file is still revision rev; else ErrChanged and
// nothing is written. A process killed at any point leaves either the old
// file or the new one (and maybe a stray temporary file), never a mix.
func WriteFile(path string, rev revisions.Revision, content []byte, g *Guard) error {
	realDir, real, err := g.check(path)
	if err != nil {
		return err
	}
	return writeAt(realDir, real, rev, content)
}
