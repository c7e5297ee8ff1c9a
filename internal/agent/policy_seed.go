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

// seedHome lists home folder home once and records, for every first
// component of a credential store that the folder does not hold, the
// answer of rs.of: the folder's resolution joined with the name, not
// existing. forbiddenPrefixes then asks lstat only about the stores that
// are there (a dozen of /etc/passwd's homes, as root, times every store
// was most of an agent call's start-up). A folder that does not exist or
// that listTops does not list is left to
// rs.of's lstat calls, which give the same answers one by one. listed
// keeps each real folder's answer (nil: not listed), for a home named
// twice or through a link.
func (rs resolutions) seedHome(home string, listed map[string]map[string]bool) {
	home = filepath.Clean(home)
	up := rs.of(home)
	if !up.exists {
		return
	}
	present, done := listed[up.path]
	if !done {
		present = listTops(up.path)
		listed[up.path] = present
	}
	if present == nil {
		return
	}
	for _, t := range storeTops() {
		p := filepath.Join(home, t)
		if _, known := rs[p]; !present[t] && !known {
			rs[p] = resolution{path: filepath.Join(up.path, t)}
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
