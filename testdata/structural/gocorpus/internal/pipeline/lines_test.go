package pipeline

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/walker"
)

// TestLineFilter: only matches wholly inside the filter's lines are
// found, line by line and across lines, through an Opener too.
func TestLineFilter(t *testing.T) {
	dir := t.TempDir()
	content := "a x\nb x\nc x\nd\ne x\nf x\n"
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte(content), 0o644)
	cases := []struct {
		name      string
		runs      []LineRun
		pattern   string
		multiline bool
		want      string
	}{
		{"no lines", nil, "x", false, "[]"},
		{"one line", []LineRun{{2, 2}}, "x", false, "[b x]"},
		{"two runs", []LineRun{{1, 1}, {5, 6}}, "x", false, "[a x e x f x]"},
		{"all", []LineRun{{1, 6}}, "x", false, "[a x b x c x e x f x]"},
		{"past the end", []LineRun{{6, 99}}, "x", false, "[f x]"},
		{"unmatched line", []LineRun{{4, 4}}, "x", false, "[]"},
		{"multiline inside", []LineRun{{2, 3}}, `b x\nc`, true, "[b x\nc x]"},
		{"multiline across the edge", []LineRun{{3, 3}}, `b x\nc`, true, "[]"},
		{"multiline, other match kept", []LineRun{{5, 6}}, `(b x\nc|e x\nf)`, true, "[e x\nf x]"},
	}
	for _, open := range []bool{false, true} {
		for _, c := range cases {
			opts := baseOptions()
			opts.Search.Multiline = c.multiline
			var seen []string
			var mu sync.Mutex
			opts.Lines = func(path string, raw []byte) ([]LineRun, error) {
				mu.Lock()
				seen = append(seen, string(raw))
				mu.Unlock()
				return c.runs, nil
			}
			m, err := matcher.Compile(matcher.Options{Patterns: []string{c.pattern}, LineTerminator: '\n', CRLF: true, Multiline: c.multiline})
			if err != nil {
				t.Fatal(err)
			}
			rec := &recorder{mu: &sync.Mutex{}, lines: map[string][]string{}, errs: map[string]error{}, tapped: map[string][]byte{}}
			err = Run([]string{dir}, opts, m, func() Sink {
				r := &recorder{mu: rec.mu, lines: rec.lines, errs: rec.errs, tapped: rec.tapped}
				if open {
					return openingRecorder{r}
				}
				return r
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprint(rec.lines["f.txt"]); got != c.want {
				t.Errorf("%s (opener %v): %q, want %q", c.name, open, got, c.want)
			}
			if len(seen) != 1 || seen[0] != content {
				t.Errorf("%s: the filter saw %q", c.name, seen)
			}
			if open && string(rec.tapped["f.txt"]) != content {
				t.Errorf("%s: the tap saw %q", c.name, rec.tapped["f.txt"])
			}
		}
	}
}

// dirTree is a walker.Tree over a folder on disk, for comparing RunTree
// with Run over the same bytes.
type dirTree struct{ top string }

func (d dirTree) Top() string { return d.top }
func (d dirTree) Locate(root string) (string, error) {
	abs, _ := filepath.Abs(root)
	rel, err := filepath.Rel(d.top, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "", fs.ErrNotExist
	}
	if rel == "." {
		return "", nil
	}
	return filepath.ToSlash(rel), nil
}
func (d dirTree) Stat(p string) (bool, error) {
	st, err := os.Stat(filepath.Join(d.top, p))
	if err != nil {
		return false, err
	}
	return st.IsDir(), nil
}
func (d dirTree) List(p string) ([]walker.TreeEntry, error) {
	ents, err := os.ReadDir(filepath.Join(d.top, p))
	if err != nil {
		return nil, err
	}
	var out []walker.TreeEntry
	for _, e := range ents {
		out = append(out, walker.TreeEntry{Name: e.Name(), Dir: e.IsDir()})
	}
	return out, nil
}
func (d dirTree) ReadFile(p string) ([]byte, error) { return os.ReadFile(filepath.Join(d.top, p)) }
func (d dirTree) Size(p string) (int64, error) {
	st, err := os.Stat(filepath.Join(d.top, p))
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// TestRunTreeReadsLikeRun: files given as a tree are read and decoded as
// Run reads them from disk (BOMs, UTF-16, CRLF), on each read path.
func TestRunTreeReadsLikeRun(t *testing.T) {
	dir := writeTree(t)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	os.WriteFile(filepath.Join(dir, "bin.dat"), []byte("hello\x00hello\n"), 0o644)
	for _, tc := range []struct {
		name            string
		mmap, multiline bool
	}{{"read", false, false}, {"mmap", true, false}, {"multiline", false, true}} {
		opts := baseOptions()
		opts.Mmap, opts.Search.Multiline = tc.mmap, tc.multiline
		disk := run(t, []string{dir}, opts, "hello$", false, nil)
		m, _ := matcher.Compile(matcher.Options{Patterns: []string{"hello$"}, LineTerminator: '\n', CRLF: true})
		rec := &recorder{mu: &sync.Mutex{}, lines: map[string][]string{}, errs: map[string]error{}, tapped: map[string][]byte{}}
		var files []string
		err := RunTree(dirTree{dir}, []string{dir}, opts, m, func() Sink { return treeRecorder{rec, &files} })
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(disk.lines) != fmt.Sprint(rec.lines) || len(disk.lines) == 0 {
			t.Errorf("%s: Run %q, RunTree %q", tc.name, disk.lines, rec.lines)
		}
		sort.Strings(files)
		if fmt.Sprint(files) != "[bin.dat bom8.txt crlf.txt u16.txt]" {
			t.Errorf("%s: TreeFile saw %v", tc.name, files)
		}
	}
}

// treeRecorder is a recorder that is a TreeSink.
type treeRecorder struct {
	*recorder
	files *[]string
}

func (r treeRecorder) TreeFile(e walker.Entry, raw []byte) {
	*r.files = append(*r.files, filepath.Base(e.Path))
}
