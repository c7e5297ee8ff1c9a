package rankindex

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evgrep/evgrep/rank"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
)

// What a warm load needs: the cache read beside the walk, the walk's own
// stats and the check that nothing changed.

// earlyRead is a cache read beside the walk.
type earlyRead struct {
	key  string
	done chan struct{} // closed once ix and err are set
	ix   *rank.Index
	err  error
}

// readEarly starts reading the cache of key, and hands what it reads to
// fn (nil: nobody) before it says it is done.
func readEarly(store *snapshot.Store, key string, fn func(*rank.Index)) *earlyRead {
	e := &earlyRead{key: key, done: make(chan struct{})}
	go func() {
		defer close(e.done)
		e.ix, e.err = readCache(store, blobNamePrefix+key[:32], key)
		if e.err == nil && fn != nil {
			fn(e.ix)
		}
	}()
	return e
}

// walksRoot reports whether roots is root alone (so baseOf is root
// whatever the walk finds).
func walksRoot(root string, roots []string) bool {
	if len(roots) != 1 {
		return false
	}
	a, err := filepath.Abs(roots[0])
	return err == nil && a == root
}

// sortWalked sorts the walked files by path.
func sortWalked(w []walkedFile) {
	slices.SortFunc(w, func(a, b walkedFile) int { return strings.Compare(a.path, b.path) })
}

// unchanged reports whether the walked files are exactly ix's files, each
// the revision ix holds: every walked path (display) found in ix once, its
// identity unchanged (the caller compares the counts, so that every file
// of ix is then found). Runs of the walk's order are looked up in ix by
// parallel workers; no sort.
func unchanged(ix *rank.Index, walked []walkedFile, base, cwd string) bool {
	seen := make([]atomic.Bool, ix.Files())
	var bad atomic.Bool
	var wg sync.WaitGroup
	workers := min(maxWorkers, runtime.GOMAXPROCS(0))
	for w := 0; w < workers; w++ {
		lo, hi := w*len(walked)/workers, (w+1)*len(walked)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			next := -1
			for i := lo; i < hi && !bad.Load(); i++ {
				f, at, ok := ix.LookupNear(display(base, cwd, walked[i].path), next)
				if !ok || seen[at].Swap(true) {
					bad.Store(true)
					return
				}
				next = at + 1
				id, regular, err := identity(walked[i])
				if err != nil || !regular || !rank.SameRevision(f, id) {
					bad.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	return !bad.Load()
}

// walkedFile is a file the walk yielded, with the stat it took (nil when
// it took none).
type walkedFile struct {
	path string
	st   *walker.FileStat
}

// identity is the walked file's identity (lstat, no link followed) and
// whether it is a regular file: the walk's stat, else one taken now.
func identity(w walkedFile) (revisions.Identity, bool, error) {
	if s := w.st; s != nil {
		return revisions.Identity{Dev: s.Dev, Ino: s.Ino, Size: s.Size, Mtime: s.Mtime, Ctime: s.Ctime}, s.Regular, nil
	}
	return revisions.LstatRegular(w.path)
}

// cleanNames reports whether p is one or more '/'-separated names, none
// empty, "." or "..": for such a path filepath.Clean(p) == p, and it is
// neither absolute nor "..", nor does it start with "../". It is checked
// for every walked path, without Clean's work.
func cleanNames(p string) bool {
	for {
		i := strings.IndexByte(p, '/')
		name := p
		if i >= 0 {
			name = p[:i]
		}
		if name == "" || name == "." || name == ".." {
			return false
		}
		if i < 0 {
			return true
		}
		p = p[i+1:]
	}
}
