package agent

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/evgrep/evgrep/internal/pipeline"
)

// storeTops returns the first path components of credentialStores, each
// once, in the table's order (computed on first use, not at start-up).
var storeTops = sync.OnceValue(func() []string {
	var out []string
	seen := map[string]bool{}
	for _, e := range credentialStores {
		top, _, _ := strings.Cut(e, "/")
		if !seen[top] {
			seen[top] = true
			out = append(out, top)
		}
	}
	return out
})

// storeNames is the set of credentialStores' entries (computed on first
// use, not at start-up).
var storeNames = sync.OnceValue(func() map[string]bool {
	out := make(map[string]bool, len(credentialStores))
	for _, e := range credentialStores {
		out[e] = true
	}
	return out
})

// maxStoreComponents is the most path components an entry of
// credentialStores has (.local/share/fish/fish_history); TestStoreComponents
// checks the table against it.
const maxStoreComponents = 4

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
	for _, e := range credentialStores {
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
	names, more, err := pipeline.ListDir(dir, maxHomeNames)
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
