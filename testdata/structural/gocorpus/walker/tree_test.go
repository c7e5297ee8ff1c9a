package walker_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/walker"
	"github.com/evgrep/evgrep/walker/ignore"
)

// memTree is a walker.Tree held in a map (path → content).
type memTree struct {
	top   string
	files map[string]string
}

func (m *memTree) Top() string { return m.top }

func (m *memTree) Locate(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(m.top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fmt.Errorf("outside")
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}

func (m *memTree) Stat(p string) (bool, error) {
	if p == "" {
		return true, nil
	}
	if _, ok := m.files[p]; ok {
		return false, nil
	}
	for f := range m.files {
		if strings.HasPrefix(f, p+"/") {
			return true, nil
		}
	}
	return false, fs.ErrNotExist
}

func (m *memTree) List(dir string) ([]walker.TreeEntry, error) {
	seen := map[string]bool{}
	var out []walker.TreeEntry
	prefix := dir + "/"
	if dir == "" {
		prefix = ""
	}
	for f := range m.files {
		rest, ok := strings.CutPrefix(f, prefix)
		if !ok {
			continue
		}
		name, _, isDir := strings.Cut(rest, "/")
		if !seen[name] {
			seen[name] = true
			out = append(out, walker.TreeEntry{Name: name, Dir: isDir})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (m *memTree) ReadFile(p string) ([]byte, error) {
	c, ok := m.files[p]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return []byte(c), nil
}

func (m *memTree) Size(p string) (int64, error) {
	c, ok := m.files[p]
	if !ok {
		return 0, fs.ErrNotExist
	}
	return int64(len(c)), nil
}

// TestWalkTreeEqualsWalk walks the same files on disk (Walk) and as a
// tree (WalkTree) with a range of options and roots: the files yielded
// must be the same.
func TestWalkTreeEqualsWalk(t *testing.T) {
	files := map[string]string{
		".gitignore":         "*.log\n/build/\n!keep.log\n",
		".ignore":            "secret*\n",
		"a.go":               "a",
		"b.log":              "b",
		"keep.log":           "k",
		"secret.txt":         "s",
		".hidden.go":         "h",
		".dot/x.go":          "x",
		"build/out.go":       "o",
		"sub/build/in.go":    "i",
		"sub/.gitignore":     "*.tmp\n",
		"sub/c.go":           "c",
		"sub/d.tmp":          "d",
		"sub/deep/e.go":      "e",
		"sub/deep/.rgignore": "e.go\n",
		"sub/deep/f.txt":     "0123456789",
		"other/.ignore":      "!secret.md\n",
		"other/secret.md":    "m",
		"other/g.txt":        "g",
	}
	top := t.TempDir()
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
	}
	for p, c := range files {
		full := filepath.Join(top, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(c), 0o644)
	}
	// A repository top: .git on disk (with an info/exclude), not in the tree.
	os.MkdirAll(filepath.Join(top, ".git", "info"), 0o755)
	os.WriteFile(filepath.Join(top, ".git", "info", "exclude"), []byte("g.txt\n"), 0o644)
	tree := &memTree{top: top, files: files}
	t.Chdir(top)
	base := func() walker.Options {
		o := walker.DefaultOptions()
		o.Threads = 1
		o.NoIgnoreGlobal = true
		o.SkipGitDir = true
		return o
	}
	cases := []struct {
		name  string
		roots []string
		opt   func(*walker.Options)
	}{
		{"default", nil, nil},
		{"hidden", nil, func(o *walker.Options) { o.Hidden = true }},
		{"no-ignore", nil, func(o *walker.Options) { o.NoIgnore = true }},
		{"no-ignore-vcs", nil, func(o *walker.Options) { o.NoIgnoreVCS = true }},
		{"no-ignore-dot", []string{"."}, func(o *walker.Options) { o.NoIgnoreDot = true }},
		{"no-ignore-exclude", nil, func(o *walker.Options) { o.NoIgnoreExclude = true }},
		{"no-require-git", nil, func(o *walker.Options) { o.RequireGit = false }},
		{"glob", nil, func(o *walker.Options) { o.Globs = []ignore.OverrideGlob{{Pattern: "*.go"}} }},
		{"negated glob", nil, func(o *walker.Options) { o.Globs = []ignore.OverrideGlob{{Pattern: "!sub/**"}} }},
		{"max-depth", nil, func(o *walker.Options) { o.MaxDepth = 1 }},
		{"max-filesize", nil, func(o *walker.Options) { o.MaxFilesize = 5 }},
		{"sub root", []string{"sub"}, nil},
		{"deep root, parents' rules", []string{"./sub/deep/"}, nil},
		{"deep root, no parents", []string{"sub/deep"}, func(o *walker.Options) { o.NoIgnoreParent = true }},
		{"file root (ignored file named)", []string{"b.log", "sub"}, nil},
		{"missing root", []string{"nosuch", "other"}, nil},
		{"sorted", nil, func(o *walker.Options) { o.Sort = walker.SortPath; o.Hidden = true }},
		{"reverse sorted", []string{"sub", "other"}, func(o *walker.Options) { o.Sort = walker.SortPath; o.SortReverse = true }},
	}
	for _, c := range cases {
		o := base()
		if c.opt != nil {
			c.opt(&o)
		}
		var diskErrs, treeErrs []string
		od, ot := o, o
		od.OnError = func(err error) { diskErrs = append(diskErrs, err.Error()) }
		ot.OnError = func(err error) { treeErrs = append(treeErrs, err.Error()) }
		var disk, fromTree []string
		if err := walker.Walk(c.roots, od, func(e walker.Entry) bool {
			disk = append(disk, e.Path)
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if err := walker.WalkTree(tree, c.roots, ot, func(e walker.Entry, tp string) bool {
			fromTree = append(fromTree, e.Path)
			if _, ok := files[tp]; !ok {
				t.Errorf("%s: entry %s has tree path %q, not a file of the tree", c.name, e.Path, tp)
			}
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if o.Sort == walker.SortNone {
			sort.Strings(disk)
			sort.Strings(fromTree)
		}
		if fmt.Sprint(disk) != fmt.Sprint(fromTree) || fmt.Sprint(diskErrs) != fmt.Sprint(treeErrs) {
			t.Errorf("%s: Walk gives %v %q, WalkTree %v %q", c.name, disk, diskErrs, fromTree, treeErrs)
		}
		if len(disk) == 0 {
			t.Errorf("%s: nothing walked", c.name)
		}
	}
}
