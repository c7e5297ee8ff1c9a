package agent

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evgrep/evgrep/internal/oserr"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
)

// searchResult is a built snapshot plus what the walk reported.
type searchResult struct {
	snap     *snapshot.Snapshot
	problems []string // per-path errors (unreadable files, …), bounded
}

// runSearch searches root (or its sub-paths) for the request's pattern and
// builds the snapshot. Paths in the snapshot are relative to root. The
// files are read by the same pipeline as rg's form (byte-order marks and
// all), with rg's --crlf line handling: `$` matches before "\r\n" and the
// recorded lines have no "\r". The walk stops when the call is cancelled,
// and its progress reporter hears of every ProgressEvery files.
func runSearch(r *Request, env Env, root string, subPaths []string) (*searchResult, error) {
	mo := matcher.Options{Patterns: []string{r.Pattern}, Fixed: r.Literal, CRLF: true, LineTerminator: '\n'}
	mo.Case = r.caseMode()
	m, err := matcher.Compile(mo)
	if err != nil {
		return nil, patternError(err)
	}
	sc := scopeOf(r, env, root, subPaths)
	opts, roots := sc.Pipeline(), sc.Roots()
	var mu sync.Mutex
	res := &searchResult{}
	note := func(msg string) {
		mu.Lock()
		if len(res.problems) < maxProblems {
			res.problems = append(res.problems, msg)
		}
		mu.Unlock()
	}
	opts.Walk.OnError = func(err error) { note(err.Error()) }

	b := snapshot.NewBuilder()
	w := &walkState{env: env}
	run := runFunc(pipeline.Run)
	if r.Rev != "" || r.ChangedSince != "" {
		gitRun, done, err := gitSearch(r, root, opts)
		if err != nil {
			return nil, err
		}
		defer done()
		run = gitRun
	}
	err = run(roots, opts, m, func() pipeline.Sink {
		return &collector{b: b, m: m, sinkFile: sinkFile{root: root, note: note, walk: w}}
	})
	env.walked()
	if err != nil {
		return nil, invalid("%v", err)
	}
	if w.cancelled.Load() {
		return nil, &Error{Code: CodeCancelled, Msg: fmt.Sprintf("the search was cancelled after %d files", w.seen.Load())}
	}
	res.problems = withNote(res.problems, w.skips.note())
	res.snap = b.Build(r.searchMeta(root))
	return res, nil
}

// patternError is a pattern's compile error in the agent's terms: rg's
// hint to enable --multiline names a flag the agent does not have, so it
// says how the agent reads lines instead.
func patternError(err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "\n\nConsider enabling multiline mode"); i >= 0 {
		msg = msg[:i] + "\n\n" + crlfNote
	}
	return &Error{Code: CodePattern, Msg: msg}
}

// crlfNote says how agent searches read lines (README, "For agents").
const crlfNote = "Agent searches match line by line, as rg --crlf: a line ends at \\n, and a \\r right before it belongs to the line end, so no pattern matches \\r or \\n there (use $ for the end of a line)."

// collector is a pipeline.Sink that records match lines into the builder,
// and the agent's open hook: it applies the path policy and records each
// file's revision with a revisions.Tracker.
type collector struct {
	sinkFile
	b      *snapshot.Builder
	m      *matcher.Matcher
	ranges []matcher.Range
	utf16  []matcher.Range
	sr     []snapshot.Range
}

// sinkFile is what the agent's line sinks (matches, terms) keep of the
// file being read: the walk it belongs to, its path relative to root and
// its revision tracker. It gives them their Begin, Open and the Sink
// methods that do nothing.
type sinkFile struct {
	root string
	note func(string)
	walk *walkState
	path string // the current file, relative to root
	tr   *revisions.Tap
}

// walkState is what the workers of one search share: the cancel check and
// the progress count.
type walkState struct {
	env       Env
	seen      atomic.Int64
	cancelled atomic.Bool
	// skips counts the files the path policy passed over.
	skips skipCount
}

// searched is how many of the files the walk yielded were read.
func (w *walkState) searched() int { return int(w.seen.Load() - w.skips.n.Load()) }

// skipCount counts the walked files the path policy keeps from being
// read (Git stores, credential stores), so that every answer says so.
type skipCount struct{ n atomic.Int64 }

// skip reports whether the policy forbids the walked file path, and
// counts it when it does.
func (s *skipCount) skip(path string) bool {
	if forbiddenFile(path) {
		s.n.Add(1)
		return true
	}
	return false
}

// note is the problem line of the files skipped, "" for none.
func (s *skipCount) note() string {
	n := s.n.Load()
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%d files inside Git stores or credential stores were not read (the agent's path policy; a folder shaped like a Git repository's store counts as one)", n)
}

// withNote appends note to problems unless it is empty.
func withNote(problems []string, note string) []string {
	if note == "" {
		return problems
	}
	return append(problems, note)
}

// admit is the start of every agent sink's Begin: a cancelled request
// stops the walk (search false, more false); progress is reported every
// ProgressEvery entries; stdin and forbidden paths are passed over (search
// false, more true).
func (w *walkState) admit(e walker.Entry) (search, more bool) {
	if w.env.cancelled() {
		w.cancelled.Store(true)
		return false, false
	}
	if n := w.seen.Add(1); w.env.reports() && n%ProgressEvery == 0 {
		w.env.progress(int(n))
	}
	if e.Stdin || w.skips.skip(e.Path) {
		return false, true
	}
	return true, true
}

// Begin implements pipeline.Sink: stdin and forbidden paths are passed
// over; a cancelled request stops the walk.
func (c *sinkFile) Begin(e walker.Entry) (bool, bool) {
	if search, more := c.walk.admit(e); !search {
		return false, more
	}
	rel, err := filepath.Rel(c.root, e.Path)
	if err != nil {
		rel = e.Path
	}
	c.path = nameOf(filepath.ToSlash(rel))
	c.tr = nil
	return true, true
}

// Open implements pipeline.Opener.
func (c *sinkFile) Open(e walker.Entry) (pipeline.File, pipeline.Tap, error) {
	f, tap, err := openTracked(e.Path)
	if err != nil {
		return nil, nil, err
	}
	c.tr = tap
	return f, tap, nil
}

// Context implements search.Sink.
func (c *sinkFile) Context(*search.Searcher, *search.Context) (bool, error) { return true, nil }

// ContextBreak implements search.Sink.
func (c *sinkFile) ContextBreak(*search.Searcher) (bool, error) { return true, nil }

// BinaryData implements search.Sink.
func (c *sinkFile) BinaryData(*search.Searcher, int64) (bool, error) { return true, nil }

// Finish implements search.Sink.
func (c *sinkFile) Finish(*search.Searcher, *search.Finish) error { return nil }

// openTracked opens a walked file under the agent's policy (openChecked)
// with a revision tap (revisions.Tap: finished as soon as the file has
// been read to its end, while it is still open, so that a file read whole
// and unchanged is Verified): the Open of every agent sink.
func openTracked(path string) (pipeline.File, *revisions.Tap, error) {
	return openTap(path, 0, nil)
}

// openTap is openTracked that also keeps the raw bytes of a file of at
// most capture bytes (capture 0: none), in buf.
func openTap(path string, capture int64, buf []byte) (pipeline.File, *revisions.Tap, error) {
	f, fi, err := openCheckedFile(path)
	if err != nil {
		return nil, nil, oserr.Wrap(err)
	}
	return f, revisions.NewTapStat(f, fi, capture, buf), nil
}

// End implements pipeline.Sink.
func (c *collector) End(e walker.Entry, err error) bool {
	c.endFile(c.b.AddFile, err)
	return true
}

// endFile ends the file just read: its revision goes to add, the error
// that ended its read (if any) to the problems. It reports whether the
// file was read without error.
func (c *sinkFile) endFile(add func(path string, rev revisions.Revision), err error) bool {
	if c.tr != nil {
		add(c.path, c.tr.Finish())
		c.tr = nil
	}
	if err != nil {
		c.note(c.path + ": " + err.Error())
		return false
	}
	return true
}

// Matched implements search.Sink.
func (c *collector) Matched(s *search.Searcher, m *search.Match) (bool, error) {
	line := m.Bytes
	end := len(line)
	if end > 0 && line[end-1] == '\n' {
		end--
		if end > 0 && line[end-1] == '\r' {
			end--
		}
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
