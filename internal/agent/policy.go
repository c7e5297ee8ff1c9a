package agent

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/evgrep/evgrep/internal/credpolicy"
	"github.com/evgrep/evgrep/internal/pipeline"
)

// The agent's path policy: what it never reads, and how it opens what it
// reads. Every place the agent reads a file (search, inspect, outline) and
// every path a request names goes through forbidden, refuseSpecial and
// openChecked.
//
// Credential stores are matched after resolving both sides: the checked
// path is a real path (resolved by the caller, or read back from the opened
// descriptor), and every home folder the process may have (HOME made
// absolute, its resolution, the account's home from the password database
// and its resolution) contributes every credential store (credpolicy) together
// with the entry's own resolution, so that ~/.ssh as a symlink into a
// dotfiles folder forbids that folder too. Git internals are recognised by
// what they are (isGitDir), not only by the name .git.

// Policy bounds.
const (
	// policyTTL is how long a computed list of forbidden prefixes is kept
	// for one HOME value; the list follows symlinks on disk, which may
	// change under a long-running server.
	policyTTL = 2 * time.Second
	// maxDirAnswers is how many folder answers one policy keeps.
	maxDirAnswers = 1 << 14
	// maxPathBytes is the longest path the system opens (Linux PATH_MAX);
	// a longer one is refused without looking at its components.
	maxPathBytes = 4096
)

// forbiddenMsg is what the agent says of a path it does not read.
const forbiddenMsg = "is not read (system or credential store, or git internals)"

// pathPolicy is the set of forbidden places for one HOME value
// (credpolicy.Set), with the answers it gave for folders (a folder is
// forbidden when it, or an ancestor, is a forbidden prefix or a git
// store); both live for policyTTL.
type pathPolicy struct {
	*credpolicy.Set

	mu   sync.Mutex
	dirs map[string]bool

	// The identities of the credential stores' files with several links,
	// listed once per policy when first needed (policy_links.go);
	// linkedUnknown when the stores held more than could be listed.
	linkOnce      sync.Once
	linked        map[fileID]bool
	linkedUnknown bool
}

var policyCache struct {
	sync.Mutex
	p *pathPolicy
}

// currentPolicy returns the forbidden places for the current HOME,
// computed again when HOME changed or the set is older than policyTTL;
// the first is the one credpolicy.Start began while the process
// initialised, when it did (internal/agentstart).
func currentPolicy() *pathPolicy {
	home := os.Getenv("HOME")
	now := time.Now()
	policyCache.Lock()
	defer policyCache.Unlock()
	if p := policyCache.p; p != nil && p.Home == home && now.Sub(p.At) < policyTTL {
		return p
	}
	set, ok := credpolicy.Take(home)
	if !ok || time.Since(set.At) >= policyTTL || policyCache.p != nil && policyCache.p.Set == set {
		set = credpolicy.Compute(home)
	}
	p := &pathPolicy{Set: set, dirs: map[string]bool{}}
	policyCache.p = p
	return p
}

// forbidden reports whether an absolute, resolved path is a credential
// store, a system place, git internals, or lies inside one of them.
func forbidden(path string) bool {
	path, ok := cleanAbs(path)
	return !ok || forbiddenFile(path) || isGitDir(path)
}

// forbiddenFile is forbidden for a path known not to be a folder (a walk's
// entry, an opened regular file): it does not look for a git store in path
// itself, which saves a stat per file.
func forbiddenFile(path string) bool {
	path, ok := cleanAbs(path)
	if !ok || strings.Contains(path, "/.git/") || strings.HasSuffix(path, "/.git") || underAnyHome(path) {
		return true
	}
	p := currentPolicy()
	return p.Prefixes[path] || p.HomeStore(path) || p.forbiddenDir(filepath.Dir(path))
}

// cleanAbs makes path absolute and clean; ok is false when it cannot, or
// when the path is too long to name a file at all.
func cleanAbs(path string) (string, bool) {
	if len(path) > maxPathBytes {
		return "", false
	}
	if !filepath.IsAbs(path) {
		abs, err := filepath.Abs(path)
		if err != nil {
			return "", false
		}
		path = abs
	}
	return filepath.Clean(path), true
}

// forbiddenDir reports whether folder dir or one of its ancestors is a
// forbidden prefix or a git store; answers are kept with the policy.
func (p *pathPolicy) forbiddenDir(dir string) bool {
	p.mu.Lock()
	yes, ok := p.dirs[dir]
	p.mu.Unlock()
	if ok {
		return yes
	}
	yes = p.Prefixes[dir] || p.HomeStore(dir) || isGitDir(dir)
	if parent := filepath.Dir(dir); !yes && parent != dir {
		yes = p.forbiddenDir(parent)
	}
	p.mu.Lock()
	if len(p.dirs) >= maxDirAnswers {
		clear(p.dirs)
	}
	p.dirs[dir] = yes
	p.mu.Unlock()
	return yes
}

// isGitDir reports whether dir is a git store, by what git itself checks:
// a HEAD file with an objects/ and a refs/ folder (a .git folder, a bare
// x.git, a --separate-git-dir store), or HEAD with a commondir file (the
// store of a linked worktree).
func isGitDir(dir string) bool {
	head, err := os.Lstat(filepath.Join(dir, "HEAD"))
	if err != nil || !(head.Mode().IsRegular() || head.Mode()&fs.ModeSymlink != 0) {
		return false
	}
	if fi, err := os.Lstat(filepath.Join(dir, "commondir")); err == nil && fi.Mode().IsRegular() {
		return true
	}
	objects, err1 := os.Stat(filepath.Join(dir, "objects"))
	refs, err2 := os.Stat(filepath.Join(dir, "refs"))
	return err1 == nil && err2 == nil && objects.IsDir() && refs.IsDir()
}

// refuseSpecial returns an E_PATH_FORBIDDEN error when path (followed) is
// a FIFO, socket, device or other non-regular file, which the agent never
// opens for a read that could block; nil for a regular file, a folder or
// a path it cannot stat (the caller reports that).
func refuseSpecial(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if k := pipeline.SpecialKind(fi.Mode()); k != "" {
		return &Error{Code: CodePathForbidden, Msg: shorten(path, maxEchoBytes) + " is " + k + "; the agent reads regular files only"}
	}
	return nil
}

// errPathForbidden is the error of a file whose real path is forbidden,
// wrapped in an *fs.PathError.
var errPathForbidden = errors.New(forbiddenMsg)

// openChecked opens path for the agent through pipeline.OpenChecked: no
// symlink followed in its last component, no blocking open, a regular
// file only, a real path that the policy allows, and no second link to a
// credential file (refuseLinked). A file swapped for a
// symlink or a FIFO between the walk and the open is therefore never read.
func openChecked(path string) (*os.File, error) {
	f, _, err := checkedOpen(path, pipeline.OpenCheckedStat)
	return f, err
}

// openCheckedFile is openChecked for a file the pipeline reads
// (pipeline.OpenCheckedFile: a bare descriptor where it can be), with the
// file's fstat at the check (one fstat serves the checks and the
// revision).
func openCheckedFile(path string) (pipeline.File, os.FileInfo, error) {
	return checkedOpen(path, pipeline.OpenCheckedFile)
}

// checkedOpen opens path with one of the pipeline's checked opens, with
// the policy as its refusal, and refuses a second link to a credential
// file.
func checkedOpen[F io.Closer](path string, open func(string, func(string) error) (F, os.FileInfo, error)) (F, os.FileInfo, error) {
	var none F
	f, fi, err := open(path, func(real string) error {
		if forbiddenFile(real) {
			return errPathForbidden
		}
		return nil
	})
	if err != nil {
		return none, nil, err
	}
	if err := refuseLinked(fi, path); err != nil {
		f.Close()
		return none, nil, err
	}
	return f, fi, nil
}

// errWriteForbidden is the refusal of a write into a forbidden place.
var errWriteForbidden = errors.New("a system or credential store, or git internals, is never written")

// WriteRefusal is the path policy of a rewrite's apply, the agent's and
// the CLI's (astsearch.Guard): an error when the real path real is a
// credential store, a system place or git internals, or lies inside one.
func WriteRefusal(real string) error {
	if forbidden(real) {
		return errWriteForbidden
	}
	return nil
}
