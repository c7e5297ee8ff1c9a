package agent

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
	"github.com/evgrep/evgrep/walker/ignore"
)

// searchResult is a built snapshot plus what the walk reported.
type searchResult struct {
	snap     *snapshot.Snapshot
	problems []string // per-path errors (unreadable files, …), bounded
}

// maxProblems bounds the per-path errors kept for an answer.
const maxProblems = 5

// runSearch searches root (or its sub-paths) for the request's pattern and
// builds the snapshot. Paths in the snapshot are relative to root.
func runSearch(r *Request, root string, subPaths []string) (*searchResult, error) {
	mo := matcher.Options{Patterns: []string{r.Pattern}, Fixed: r.Literal, LineTerminator: '\n'}
	if r.IgnoreCase {
		mo.Case = matcher.Insensitive
	}
	m, err := matcher.Compile(mo)
	if err != nil {
		return nil, &Error{Code: CodePattern, Msg: err.Error()}
	}
	wo := walker.DefaultOptions()
	wo.Threads = runtime.NumCPU()
	wo.Hidden = r.hidden()
	wo.SkipGitDir = true
	for _, g := range r.Glob {
		wo.Globs = append(wo.Globs, ignore.OverrideGlob{Pattern: g})
	}
	for _, g := range r.Exclude {
		wo.Globs = append(wo.Globs, ignore.OverrideGlob{Pattern: "!" + strings.TrimPrefix(g, "!")})
	}
	if len(wo.Globs) > 0 {
		if _, err := ignore.NewOverride(root, wo.Globs); err != nil {
			return nil, invalid("%v", err)
		}
	}
	var mu sync.Mutex
	res := &searchResult{}
	note := func(msg string) {
		mu.Lock()
		if len(res.problems) < maxProblems {
			res.problems = append(res.problems, msg)
		}
		mu.Unlock()
	}
	wo.OnError = func(err error) { note(err.Error()) }

	roots := []string{root}
	if len(subPaths) > 0 {
		roots = roots[:0]
		for _, p := range subPaths {
			roots = append(roots, filepath.Join(root, p))
		}
	}
	b := snapshot.NewBuilder()
	cfg := search.Config{LineTerm: '\n', Binary: search.BinaryQuit, LineNumbers: true, BOMPeek: true}
	pool := sync.Pool{New: func() any {
		c := &collector{b: b, m: m}
		c.s = search.New(cfg, m)
		return c
	}}
	walker.Walk(roots, wo, func(e walker.Entry) bool {
		if e.Stdin {
			return true
		}
		if forbidden(e.Path) {
			return true
		}
		rel, err := filepath.Rel(root, e.Path)
		if err != nil {
			rel = e.Path
		}
		c := pool.Get().(*collector)
		defer pool.Put(c)
		if err := c.searchFile(e.Path, filepath.ToSlash(rel)); err != nil {
			note(rel + ": " + err.Error())
		}
		return true
	})
	res.snap = b.Build(snapshot.Meta{Root: root, Options: r.searchOptions(), Created: time.Now()})
	return res, nil
}

// collector is a search.Sink that records match lines into the builder.
type collector struct {
	b      *snapshot.Builder
	m      *matcher.Matcher
	s      *search.Searcher
	path   string
	ranges []matcher.Range
	utf16  []matcher.Range
	sr     []snapshot.Range
}

func (c *collector) searchFile(abs, rel string) error {
	f, err := os.Open(abs)
	if err != nil {
		return errors.New(input.OSErrorText(err))
	}
	defer f.Close()
	tr, err := revisions.NewTracker(f)
	if err != nil {
		return errors.New(input.OSErrorText(err))
	}
	c.path = rel
	err = c.s.SearchReader(tr.Reader(f), c)
	c.b.AddFile(rel, tr.Finish())
	return err
}

// Matched implements search.Sink.
func (c *collector) Matched(s *search.Searcher, m *search.Match) (bool, error) {
	line := m.Bytes
	end := len(line)
	if end > 0 && line[end-1] == '\n' {
		end--
	}
	// Only the first ranges are retained: count the others, so that a
	// huge line of millions of occurrences costs no more than a short one.
	var total int
	c.ranges, total = c.m.OccurrencesBounded(m.Buffer, m.Start, m.Start+end, snapshot.MaxRangesRetained, c.ranges[:0])
	c.utf16 = matcher.UTF16Columns(line[:end], c.ranges, c.utf16[:0])
	c.sr = c.sr[:0]
	for i, r := range c.ranges {
		u := c.utf16[i]
		c.sr = append(c.sr, snapshot.Range{Start: r.Start, End: r.End, StartUTF16: u.Start, EndUTF16: u.End})
	}
	c.b.AddLineCounted(c.path, int(m.LineNumber), line[:end], c.sr, total)
	return true, nil
}

// Context implements search.Sink.
func (c *collector) Context(*search.Searcher, *search.Context) (bool, error) { return true, nil }

// ContextBreak implements search.Sink.
func (c *collector) ContextBreak(*search.Searcher) (bool, error) { return true, nil }

// BinaryData implements search.Sink.
func (c *collector) BinaryData(*search.Searcher, int64) (bool, error) { return true, nil }

// Finish implements search.Sink.
func (c *collector) Finish(*search.Searcher, *search.Finish) error { return nil }

// forbiddenPrefixes are never read, after resolving symlinks: system
// pseudo-filesystems and credential stores.
func forbiddenPrefixes() []string {
	out := []string{"/proc", "/sys", "/dev"}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		for _, p := range []string{".ssh", ".aws", ".gnupg", ".config/gcloud", ".azure", ".kube", ".docker", ".netrc", ".git-credentials", ".password-store", ".pgpass", ".npmrc", ".pypirc", ".cargo/credentials", ".cargo/credentials.toml", ".config/gh"} {
			out = append(out, filepath.Join(home, p))
		}
	}
	return out
}

var forbiddenList = forbiddenPrefixes()

// forbidden reports whether an absolute path (already resolved) is a .git
// internal or lies in a forbidden place.
func forbidden(path string) bool {
	for _, p := range forbiddenList {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return strings.Contains(path+"/", "/.git/")
}
