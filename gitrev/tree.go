package gitrev

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"

	"github.com/evgrep/evgrep/walker"
	"github.com/go-git/go-git/v5/plumbing"
)

// Tree is the tree of one commit laid over the repository's working tree
// top, for walker.WalkTree: folders and regular files (executable or not)
// are listed; symbolic links and submodules (gitlinks) are not, as a
// search of the checkout skips links and git grep skips submodules. It is
// safe for concurrent use.
type Tree struct {
	r    *Repo
	root plumbing.Hash

	mu     sync.Mutex
	dirs   map[string]plumbing.Hash // folder path → tree object
	files  map[string]plumbing.Hash // file path → blob
	listed map[string][]walker.TreeEntry
	count  int
	failed error // a failure of the whole tree, returned by every later call
}

// stopError is an error after which the tree is not read further: it
// wraps walker.ErrStopTree, so that a walk ends with it.
type stopError struct{ err error }

func (e *stopError) Error() string   { return e.err.Error() }
func (e *stopError) Unwrap() []error { return []error{e.err, walker.ErrStopTree} }

// fail records err as the whole tree's failure when it is one (a bound of
// the tree or of the Repo passed, a tree that contains itself), and
// returns it.
func (t *Tree) fail(err error) error {
	if err == nil || t.failed != nil {
		return err
	}
	if errors.Is(err, ErrBudget) {
		t.failed = &stopError{err}
		return t.failed
	}
	return err
}

// Tree returns the tree of commit c.
func (r *Repo) Tree(c Commit) *Tree {
	return &Tree{r: r, root: c.tree, dirs: map[string]plumbing.Hash{"": c.tree},
		files: map[string]plumbing.Hash{}, listed: map[string][]walker.TreeEntry{}}
}

var _ walker.Tree = (*Tree)(nil)

// Top implements walker.Tree.
func (t *Tree) Top() string { return t.r.top }

// Locate implements walker.Tree: the root's path relative to the top.
func (t *Tree) Locate(root string) (string, error) {
	return t.r.Rel(root)
}

// Rel returns path (relative to the current folder, or absolute) relative
// to the working tree's top, '/'-separated ("" for the top), or an error
// when it lies outside.
func (r *Repo) Rel(path string) (string, error) {
	rel, err := r.rel(path)
	if err != nil {
		return "", err
	}
	if rel == ".git" || strings.HasPrefix(rel, ".git/") {
		return "", fmt.Errorf("inside the repository's .git folder")
	}
	return rel, nil
}

// rel is Rel without the refusal of .git: a commit never holds a .git
// entry, so a working file there is simply not the commit's.
func (r *Repo) rel(path string) (string, error) {
	c, err := canonical(path)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(r.top, c)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("outside the repository at %s", r.top)
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

// Stat implements walker.Tree.
func (t *Tree) Stat(path string) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.reach(path); err != nil {
		return false, err
	}
	if _, ok := t.dirs[path]; ok {
		return true, nil
	}
	if _, ok := t.files[path]; ok {
		return false, nil
	}
	return false, &fs.PathError{Op: "stat", Path: path, Err: fs.ErrNotExist}
}

// reach lists the folders above path, so that its own entry is known
// (a path below a file, or below nothing, stays unknown: absent).
func (t *Tree) reach(path string) error {
	dir, rest := "", path
	for rest != "" {
		if _, ok := t.dirs[dir]; !ok {
			return nil
		}
		if _, err := t.list(dir); err != nil {
			return err
		}
		c, r, _ := strings.Cut(rest, "/")
		rest = r
		if dir == "" {
			dir = c
		} else {
			dir += "/" + c
		}
	}
	return nil
}

// List implements walker.Tree.
func (t *Tree) List(path string) ([]walker.TreeEntry, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if err := t.reach(path); err != nil {
		return nil, err
	}
	return t.list(path)
}

func (t *Tree) list(path string) ([]walker.TreeEntry, error) {
	if ents, ok := t.listed[path]; ok {
		return ents, nil
	}
	h, ok := t.dirs[path]
	if !ok {
		return nil, &fs.PathError{Op: "list", Path: path, Err: fs.ErrNotExist}
	}
	if t.failed != nil {
		return nil, t.failed
	}
	if strings.Count(path, "/") >= maxTreeDepth {
		return nil, fmt.Errorf("folders nested more than %d deep", maxTreeDepth)
	}
	// A tree that contains itself (only a corrupt repository can: an
	// index that gives one object two names) would be walked forever.
	for p := path; p != ""; {
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			p = ""
		} else {
			p = p[:i]
		}
		if t.dirs[p] == h {
			t.failed = &stopError{fmt.Errorf("%w: tree %s contains itself (at %s)", ErrCorrupt, h.String()[:12], path)}
			return nil, t.failed
		}
	}
	typ, data, err := t.r.readObjectLocked(h, maxObjectHeader)
	if err != nil {
		return nil, t.fail(err)
	}
	if typ != plumbing.TreeObject {
		return nil, fmt.Errorf("%s is a %s, not a tree", h, typ)
	}
	raw, err := parseTree(h, data)
	if err != nil {
		return nil, err
	}
	ents := make([]walker.TreeEntry, 0, len(raw))
	for _, e := range raw {
		if e.name == "" || e.name == "." || e.name == ".." || strings.ContainsRune(e.name, '/') || strings.EqualFold(e.name, ".git") {
			continue // never a path component a checkout would create
		}
		child := e.name
		if path != "" {
			child = path + "/" + e.name
		}
		switch e.mode &^ 0o777 {
		case modeDir:
			t.dirs[child] = e.hash
			ents = append(ents, walker.TreeEntry{Name: e.name, Dir: true})
		case modeFile &^ 0o777:
			if e.mode == modeFile || e.mode == modeExec || e.mode == 0o100664 {
				t.files[child] = e.hash
				ents = append(ents, walker.TreeEntry{Name: e.name})
			}
		}
		if t.count++; t.count > t.r.lim.MaxFiles {
			t.failed = &stopError{fmt.Errorf("the tree has more than %d entries", t.r.lim.MaxFiles)}
			return nil, t.failed
		}
	}
	t.listed[path] = ents
	return ents, nil
}

// blob returns the blob of the file at path, or false.
func (t *Tree) blob(path string) (plumbing.Hash, bool, error) {
	if err := t.reach(path); err != nil {
		return plumbing.ZeroHash, false, err
	}
	h, ok := t.files[path]
	return h, ok, nil
}

// ReadFile implements walker.Tree: the blob's bytes, at most
// Limits.MaxBlobSize of them.
func (t *Tree) ReadFile(path string) ([]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok, err := t.blob(path)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: path, Err: fs.ErrNotExist}
	}
	if t.failed != nil {
		return nil, t.failed
	}
	_, data, err := t.r.readObjectLocked(h, t.r.lim.MaxBlobSize)
	return data, t.fail(err)
}

// Size implements walker.Tree.
func (t *Tree) Size(path string) (int64, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h, ok, err := t.blob(path)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, &fs.PathError{Op: "size", Path: path, Err: fs.ErrNotExist}
	}
	t.r.mu.Lock()
	defer t.r.mu.Unlock()
	n, err := t.r.odb.size(h)
	if err != nil {
		return 0, t.r.objectErr(h, err)
	}
	return n, nil
}
