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
// safe for concurrent use. The folders read are kept as nodes of their
// entries (names and object names, no paths): about 60 bytes an entry.
type Tree struct {
	r *Repo

	mu     sync.Mutex
	top    *dirNode
	count  int
	failed error // a failure of the whole tree, returned by every later call
}

// dirNode is one folder of a Tree.
type dirNode struct {
	hash   plumbing.Hash
	parent *dirNode
	depth  int
	listed bool
	ents   []walker.TreeEntry
	hashes []plumbing.Hash // of ents
	subs   []*dirNode      // of ents, made as folders are reached
	index  map[string]int32
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
	return &Tree{r: r, top: &dirNode{hash: c.tree}}
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
	if path == "" {
		return true, nil
	}
	n, i, err := t.lookup(path)
	if err != nil {
		return false, err
	}
	if n == nil {
		return false, &fs.PathError{Op: "stat", Path: path, Err: fs.ErrNotExist}
	}
	return n.ents[i].Dir, nil
}

// lookup finds the entry at path (not ""): its folder and index, listing
// the folders above it; a nil node when nothing is there (a path below a
// file, or below nothing).
func (t *Tree) lookup(path string) (*dirNode, int, error) {
	n, rest := t.top, path
	for {
		if err := t.list(n); err != nil {
			return nil, 0, err
		}
		comp, more, deeper := strings.Cut(rest, "/")
		i := n.find(comp)
		if i < 0 {
			return nil, 0, nil
		}
		if !deeper {
			return n, i, nil
		}
		if !n.ents[i].Dir {
			return nil, 0, nil
		}
		n, rest = n.sub(i), more
	}
}

// find returns the index of the entry called name, or -1.
func (n *dirNode) find(name string) int {
	if n.index != nil {
		if i, ok := n.index[name]; ok {
			return int(i)
		}
		return -1
	}
	for i := range n.ents {
		if n.ents[i].Name == name {
			return i
		}
	}
	return -1
}

// sub returns the node of folder entry i.
func (n *dirNode) sub(i int) *dirNode {
	if n.subs == nil {
		n.subs = make([]*dirNode, len(n.ents))
	}
	if n.subs[i] == nil {
		n.subs[i] = &dirNode{hash: n.hashes[i], parent: n, depth: n.depth + 1}
	}
	return n.subs[i]
}

// folder returns the node of the folder at path, or nil.
func (t *Tree) folder(path string) (*dirNode, error) {
	if path == "" {
		return t.top, nil
	}
	n, i, err := t.lookup(path)
	if err != nil || n == nil || !n.ents[i].Dir {
		return nil, err
	}
	return n.sub(i), nil
}

// List implements walker.Tree.
func (t *Tree) List(path string) ([]walker.TreeEntry, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n, err := t.folder(path)
	if err != nil {
		return nil, err
	}
	if n == nil {
		return nil, &fs.PathError{Op: "list", Path: path, Err: fs.ErrNotExist}
	}
	if err := t.list(n); err != nil {
		return nil, err
	}
	return n.ents, nil
}

// list reads folder n's tree object, once.
func (t *Tree) list(n *dirNode) error {
	if n.listed {
		return nil
	}
	if t.failed != nil {
		return t.failed
	}
	if n.depth > maxTreeDepth {
		return fmt.Errorf("folders nested more than %d deep", maxTreeDepth)
	}
	// A tree that contains itself (only a corrupt repository can: an
	// index that gives one object two names) would be walked forever.
	for a := n.parent; a != nil; a = a.parent {
		if a.hash == n.hash {
			t.failed = &stopError{fmt.Errorf("%w: tree %s contains itself (at %s)", ErrCorrupt, n.hash.String()[:12], n.path())}
			return t.failed
		}
	}
	typ, data, err := t.r.readObjectLocked(n.hash, maxObjectHeader)
	if err != nil {
		return t.fail(err)
	}
	if typ != plumbing.TreeObject {
		return fmt.Errorf("%s is a %s, not a tree", n.hash, typ)
	}
	raw, err := parseTree(n.hash, data)
	if err != nil {
		return err
	}
	n.ents = make([]walker.TreeEntry, 0, len(raw))
	n.hashes = make([]plumbing.Hash, 0, len(raw))
	for _, e := range raw {
		if e.name == "" || e.name == "." || e.name == ".." || strings.ContainsRune(e.name, '/') || strings.EqualFold(e.name, ".git") {
			continue // never a path component a checkout would create
		}
		switch e.mode &^ 0o777 {
		case modeDir:
			n.ents = append(n.ents, walker.TreeEntry{Name: e.name, Dir: true})
			n.hashes = append(n.hashes, e.hash)
		case modeFile &^ 0o777:
			if e.mode == modeFile || e.mode == modeExec || e.mode == 0o100664 {
				n.ents = append(n.ents, walker.TreeEntry{Name: e.name})
				n.hashes = append(n.hashes, e.hash)
			}
		}
		if t.count++; t.count > t.r.lim.MaxFiles {
			t.failed = &stopError{fmt.Errorf("the tree has more than %d entries", t.r.lim.MaxFiles)}
			n.ents, n.hashes = nil, nil
			return t.failed
		}
	}
	if len(n.ents) > linearLookup {
		n.index = make(map[string]int32, len(n.ents))
		for i := len(n.ents) - 1; i >= 0; i-- {
			n.index[n.ents[i].Name] = int32(i)
		}
	}
	n.listed = true
	return nil
}

// path is the folder's path in the tree, for messages.
func (n *dirNode) path() string {
	var comps []string
	for c := n; c.parent != nil; c = c.parent {
		p := c.parent
		for i, s := range p.subs {
			if s == c {
				comps = append(comps, p.ents[i].Name)
				break
			}
		}
	}
	for i, j := 0, len(comps)-1; i < j; i, j = i+1, j-1 {
		comps[i], comps[j] = comps[j], comps[i]
	}
	return strings.Join(comps, "/")
}

// blob returns the blob of the file at path, or false.
func (t *Tree) blob(path string) (plumbing.Hash, bool, error) {
	if path == "" {
		return plumbing.ZeroHash, false, nil
	}
	n, i, err := t.lookup(path)
	if err != nil || n == nil || n.ents[i].Dir {
		return plumbing.ZeroHash, false, err
	}
	return n.hashes[i], true, nil
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
