package gitrev

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrTooLarge is returned (wrapped) for a blob larger than
// Limits.MaxBlobSize.
var ErrTooLarge = errors.New("blob too large")

// ErrMissingObject is returned (wrapped) for an object the repository
// does not hold (a shallow clone's history, a corrupt store).
var ErrMissingObject = errors.New("object missing from the repository")

// readObjectLocked is readObject under the storage's lock.
func (r *Repo) readObjectLocked(h plumbing.Hash, limit int64) (plumbing.ObjectType, []byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.readObject(h, limit)
}

// readObject reads object h whole, refusing more than limit bytes before
// they are inflated.
func (r *Repo) readObject(h plumbing.Hash, limit int64) (plumbing.ObjectType, []byte, error) {
	typ, data, err := r.odb.read(h, limit)
	if err != nil {
		return 0, nil, r.objectErr(h, err)
	}
	return typ, data, nil
}

// objectErr words a failed object look-up.
func (r *Repo) objectErr(h plumbing.Hash, err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		if sh, _ := r.st.Shallow(); len(sh) > 0 {
			return fmt.Errorf("%w: %s, beyond this shallow clone's history", ErrMissingObject, h.String()[:12])
		}
		if r.odb.packErr != nil {
			return fmt.Errorf("%w: %s (%v)", ErrMissingObject, h.String()[:12], r.odb.packErr)
		}
		return fmt.Errorf("%w: %s", ErrMissingObject, h.String()[:12])
	}
	if errors.Is(err, ErrBudget) {
		return fmt.Errorf("%w: more than %d bytes inflated for this search (at object %s)", err, r.lim.MaxInflated, h.String()[:12])
	}
	return fmt.Errorf("object %s: %w", h.String()[:12], err)
}

// headerField returns the value of the first header line "key value" of
// a commit or tag object (the headers end at the first empty line).
func headerField(data []byte, key string) (string, bool) {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			return "", false
		}
		if k, v, ok := bytes.Cut(line, []byte{' '}); ok && string(k) == key {
			return string(v), true
		}
	}
	return "", false
}

// headerFields returns every value of header key, in order.
func headerFields(data []byte, key string) []string {
	var out []string
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			break
		}
		if k, v, ok := bytes.Cut(line, []byte{' '}); ok && string(k) == key {
			out = append(out, string(v))
		}
	}
	return out
}

// parseHash reads a 40-digit hex object name.
func parseHash(s string) (plumbing.Hash, bool) {
	if len(s) != 40 || !isHex(s) {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(s), true
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// commit is what the package needs of a commit object.
type commit struct {
	tree    plumbing.Hash
	parents []plumbing.Hash
}

// readCommit reads commit h, peeling annotated tags on the way.
func (r *Repo) readCommit(h plumbing.Hash) (plumbing.Hash, commit, error) {
	for range maxPeel + 1 {
		typ, data, err := r.readObject(h, maxObjectHeader)
		if err != nil {
			return h, commit{}, err
		}
		switch typ {
		case plumbing.CommitObject:
			t, ok := headerField(data, "tree")
			th, ok2 := parseHash(t)
			if !ok || !ok2 {
				return h, commit{}, fmt.Errorf("commit %s has no tree", h)
			}
			c := commit{tree: th}
			for _, p := range headerFields(data, "parent") {
				ph, ok := parseHash(p)
				if !ok {
					return h, commit{}, fmt.Errorf("commit %s has a bad parent line", h)
				}
				c.parents = append(c.parents, ph)
			}
			return h, c, nil
		case plumbing.TagObject:
			o, ok := headerField(data, "object")
			oh, ok2 := parseHash(o)
			if !ok || !ok2 {
				return h, commit{}, fmt.Errorf("tag %s names no object", h)
			}
			h = oh
		default:
			return h, commit{}, fmt.Errorf("%s is a %s, not a commit", h, typ)
		}
	}
	return h, commit{}, fmt.Errorf("more than %d tags in a chain at %s", maxPeel, h)
}

// Tree entry modes (octal, as stored).
const (
	modeDir     = 0o40000
	modeFile    = 0o100644
	modeExec    = 0o100755
	modeSymlink = 0o120000
	modeGitlink = 0o160000
)

// treeEntry is one entry of a tree object.
type treeEntry struct {
	name string
	mode uint32
	hash plumbing.Hash
}

// parseTree decodes a tree object: "mode name\0" and 20 bytes, repeated.
func parseTree(h plumbing.Hash, data []byte) ([]treeEntry, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp <= 0 {
			return nil, fmt.Errorf("tree %s is malformed", h)
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, fmt.Errorf("tree %s has a bad mode", h)
		}
		data = data[sp+1:]
		nul := bytes.IndexByte(data, 0)
		if nul <= 0 || len(data) < nul+1+20 {
			return nil, fmt.Errorf("tree %s is malformed", h)
		}
		e := treeEntry{name: string(data[:nul]), mode: uint32(mode)}
		copy(e.hash[:], data[nul+1:nul+21])
		data = data[nul+21:]
		out = append(out, e)
	}
	return out, nil
}
