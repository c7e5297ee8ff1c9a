package snapshot

import (
	"path/filepath"
	"sort"
	"strings"
)

// PathSelection restricts a matches page to some files: a file is selected
// when its cleaned path equals one of Paths or lies under one of them as a
// directory. An empty selection selects every file. Paths are compared in
// the form the search reported them (relative or absolute alike), after
// filepath.Clean on both sides. Build one with SelectPaths.
type PathSelection struct {
	Paths []string
}

// SelectPaths returns the normalized selection of paths: cleaned, sorted,
// without duplicates. "", "." or no path at all select everything.
func SelectPaths(paths ...string) PathSelection {
	var out []string
	for _, p := range paths {
		p = filepath.Clean(p)
		if p == "." {
			return PathSelection{}
		}
		out = append(out, p)
	}
	sort.Strings(out)
	uniq := out[:0]
	for i, p := range out {
		if i == 0 || p != out[i-1] {
			uniq = append(uniq, p)
		}
	}
	if len(uniq) == 0 {
		return PathSelection{}
	}
	return PathSelection{Paths: uniq}
}

// All reports whether the selection selects every file.
func (p PathSelection) All() bool { return len(p.Paths) == 0 }

// Match reports whether the file at path is selected.
func (p PathSelection) Match(path string) bool {
	if p.All() {
		return true
	}
	path = filepath.Clean(path)
	for _, s := range p.Paths {
		s = filepath.Clean(s)
		if s == "." || path == s {
			return true
		}
		prefix := s
		if !strings.HasSuffix(prefix, string(filepath.Separator)) {
			prefix += string(filepath.Separator)
		}
		if strings.HasPrefix(path, prefix) {
			return true
		}
	}
	return false
}

// Equal reports whether two selections select the same paths (both
// normalized first).
func (p PathSelection) Equal(q PathSelection) bool {
	a, b := SelectPaths(p.Paths...), SelectPaths(q.Paths...)
	if len(a.Paths) != len(b.Paths) {
		return false
	}
	for i := range a.Paths {
		if a.Paths[i] != b.Paths[i] {
			return false
		}
	}
	return true
}
