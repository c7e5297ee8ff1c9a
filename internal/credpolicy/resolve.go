package credpolicy

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// resolutions memoizes ResolveExisting over many paths: a path that does
// not exist is its parent's resolution and its own name, and a folder's
// resolution is found once.
type resolutions map[string]resolution

type resolution struct {
	path   string
	exists bool
}

// resolve is ResolveExisting(p), remembered.
func (rs resolutions) resolve(p string) string { return rs.of(filepath.Clean(p)).path }

func (rs resolutions) of(p string) resolution {
	if r, ok := rs[p]; ok {
		return r
	}
	r := resolution{path: p}
	parent := filepath.Dir(p)
	switch {
	case len(p) > maxPathBytes:
	case parent == p:
		if real, err := filepath.EvalSymlinks(p); err == nil {
			r = resolution{real, true}
		}
	default:
		up := rs.of(parent)
		if up.exists {
			if fi, err := os.Lstat(p); err == nil {
				// Below a resolved folder, a name that is not a link
				// is its own resolution; a link is followed.
				if fi.Mode()&fs.ModeSymlink == 0 {
					r = resolution{filepath.Join(up.path, filepath.Base(p)), true}
					break
				}
				if real, err := filepath.EvalSymlinks(p); err == nil {
					r = resolution{real, true}
					break
				}
			}
		}
		r.path = filepath.Join(up.path, filepath.Base(p))
	}
	rs[p] = r
	return r
}

// ResolveExisting resolves the symlinks of the longest existing prefix of
// path and appends the rest, so a credential store that does not exist yet
// under a linked folder is still placed where it would be created.
func ResolveExisting(path string) string {
	if len(path) > maxPathBytes {
		return path
	}
	rest := ""
	for p := path; ; {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return path
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// storeTops returns the first path components of the stores, each
// once, in the table's order (computed on first use, not at start-up).
var storeTops = sync.OnceValue(func() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range stores {
		top, _, _ := strings.Cut(e, "/")
		if !seen[top] {
			seen[top] = true
			out = append(out, top)
		}
	}
	return out
})

// addHome adds home folder home (clean) and its resolution to homes, so
// that every credential store of it is forbidden by name, and adds to
// prefixes (add) the resolution of each store that the folder holds. The
// folder is resolved and listed once (listTops, kept in listed for a
// folder named twice or through a link): a store whose first component
// the folder does not hold, or any store of a folder that does not exist,
// resolves to the folder's resolution joined with the store's name, which
// homes covers with no lstat and no entry; the others are resolved by
// rs.of. forbiddenPrefixes so asks lstat only about the stores that are
// there (a dozen of /etc/passwd's homes, as root, times every store was
// most of an agent call's start-up), and a folder that listTops does not
// list is left to rs.of's lstat calls, which give the same answers one by
// one.
func (rs resolutions) addHome(home string, listed map[string]map[string]bool, homes map[string]bool, add func(string)) {
	up := rs.of(home)
	homes[home], homes[up.path] = true, true
	if !up.exists {
		return
	}
	present, done := listed[up.path]
	if !done {
		present = listTops(up.path)
		listed[up.path] = present
	}
	for _, e := range stores {
		if top, _, _ := strings.Cut(e, "/"); present == nil || present[top] {
			add(rs.resolve(filepath.Join(home, e)))
		}
	}
}

// listTops lists folder dir and returns which of storeTops it holds, or
// nil when it is not a folder, is larger than maxHomeListBytes (a long
// listing costs more than the lookups it saves: /usr/bin, the home of
// bin, is a thousand names) or cannot be listed whole.
func listTops(dir string) map[string]bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || fi.Size() > maxHomeListBytes {
		return nil
	}
	names, more, err := ListDir(dir, maxHomeNames)
	if err != nil || more {
		return nil
	}
	present := make(map[string]bool, len(storeTops()))
	for _, t := range storeTops() {
		present[t] = false
	}
	for _, n := range names {
		if _, ok := present[n]; ok {
			present[n] = true
		}
	}
	return present
}
