// Package rankindex builds a rank.Index from the files of a walk: it lists
// them with the pipeline's walk (pipeline.Files), reuses the cached
// document of every file whose revision is unchanged, reads and chunks the
// others through the caller's opener (the agent passes its path policy),
// and writes the documents back to the state folder. It prints nothing.
package rankindex

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/progress"
	"github.com/evgrep/evgrep/rank"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
)

// Options say which files make the index and how they are read.
type Options struct {
	// Root is the folder paths are shown relative to (made absolute).
	Root string
	// Roots are walked (default: Root).
	Roots []string
	// Walk are the walk's options (ignore rules, hidden, globs).
	Walk walker.Options
	// Open opens one file for reading; nil: pipeline.OpenChecked without
	// a policy (no link followed, regular files only).
	Open func(path string) (*os.File, error)
	// Skip leaves a walked file out when it returns true (nil: none).
	Skip func(path string) bool
	// Store holds the cache (nil, or one without a state folder: none).
	Store *snapshot.Store
	// Input decodes each file as a search over the same scope reads it
	// (byte-order marks, -E), so chunks and their lines are the search's.
	Input input.Options
	// Tag keeps caches apart that differ in what Skip leaves out (the
	// agent's policy): it is part of the cache's key.
	Tag string
	// Early, when set, is given the cached index as soon as it is read,
	// while the walk is still going on (the cache is then read beside
	// the walk, when Roots are Root itself or empty). It is called from
	// another goroutine and must return at once, starting any work of
	// its own in a goroutine: when Load returns that same index (no file
	// changed, none added or removed), what was worked out from it early
	// holds (the --rank command searches it beside the walk).
	Early func(*rank.Index)
}

// Stats tell what building the index did.
type Stats struct {
	// Files is the number of files walked; Reused of them came from the
	// cache unchanged, Chunked were read and chunked.
	Files, Reused, Chunked int
	// Loaded is true when a cache was read; Saved when one was written.
	Loaded, Saved bool
	// CacheErr is why the cache could not be read or written (nil: fine,
	// or no cache).
	CacheErr error
}

// Load builds the index of the files o names. ctx is polled for each
// file walked and read: once it is cancelled the build stops and Load
// returns ErrCancelled; its progress.Reporter hears of every
// ProgressEvery files walked and every ProgressEvery read (from several
// goroutines).
func Load(ctx context.Context, o Options) (*rank.Index, Stats, error) {
	var st Stats
	root, err := filepath.Abs(o.Root)
	if err != nil {
		return nil, st, err
	}
	roots := o.Roots
	if len(roots) == 0 {
		roots = []string{root}
	}
	open := o.Open
	if open == nil {
		open = func(p string) (*os.File, error) { return pipeline.OpenChecked(p, nil) }
	}
	useCache := o.Store != nil && o.Store.Dir() != ""
	// The cache of a walk of the root itself is named before the walk
	// (baseOf is the root): it is read beside the walk.
	var early *earlyRead
	if useCache && walksRoot(root, roots) {
		early = readEarly(o.Store, cacheKey(root, roots, o.Walk, o.Input, o.Tag), o.Early)
	}
	var mu sync.Mutex
	var walked []walkedFile
	tk := &ticker{ctx: ctx}
	// The walk stats each file while it has the file's folder open (a
	// warm query checks every file's identity; a stat of the whole path
	// afterwards cost more than the folder-relative one).
	wo := o.Walk
	wo.StatFiles = true
	err = pipeline.Files(roots, wo, func(e walker.Entry) bool {
		if !tk.tick() {
			return false
		}
		if e.Stdin || e.Mode&os.ModeType != 0 || o.Skip != nil && o.Skip(e.Path) {
			return true
		}
		mu.Lock()
		walked = append(walked, walkedFile{e.Path, e.Stat})
		mu.Unlock()
		return true
	})
	if err != nil {
		return nil, st, err
	}
	if tk.stop.Load() {
		return nil, st, ErrCancelled
	}
	// The walk's order is not sorted: a warm load whose files are all
	// unchanged is answered without sorting them (unchanged); sorted is
	// false until they are.
	sorted := false
	if len(walked) > rank.MaxFiles {
		sortWalked(walked)
		walked, sorted = walked[:rank.MaxFiles], true
	}
	first := ""
	for i := range walked {
		if i == 0 || walked[i].path < first {
			first = walked[i].path
		}
	}
	st.Files = len(walked)

	cwd, err := os.Getwd()
	if err != nil {
		cwd = ""
	}
	// One folder walked: the index's paths are relative to it and its
	// cache is keyed by it alone, so that the same tree reuses one cache
	// from every working folder (keyed by the working folder, a GOROOT
	// indexed from GOROOT/src was built again from anywhere else); the
	// paths are shown relative to Root by a common prefix (see base).
	var firstPath []string // baseOf reads the first path in order
	if len(walked) > 0 {
		firstPath = []string{first}
	}
	base, prefix := baseOf(root, cwd, roots, firstPath)
	keyRoots := roots
	if base != root {
		keyRoots = []string{base}
	}
	key := cacheKey(base, keyRoots, o.Walk, o.Input, o.Tag)
	name := blobNamePrefix + key[:32]
	var cached *rank.Index
	if useCache {
		var ix *rank.Index
		var err error
		if early != nil && early.key == key {
			<-early.done
			ix, err = early.ix, early.err
		} else {
			ix, err = readCache(o.Store, name, key)
		}
		switch {
		case err == nil:
			cached, st.Loaded = ix, true
		case !errors.Is(err, os.ErrNotExist):
			st.CacheErr = err
		}
	}

	if cached == nil && useCache {
		// Another process may be building this index (two cold calls at
		// once both built it): wait for its cache and read that instead,
		// holding the build lock while this one builds.
		if unlock, err := o.Store.LockBlob(ctx, name, buildLockWait); err == nil {
			defer unlock()
			if ix, err := readCache(o.Store, name, key); err == nil {
				cached, st.Loaded, st.CacheErr = ix, true, nil
			}
		}
	}
	if cached == nil {
		cached = memoGet(key)
	}
	if cached != nil && cached.Files() == len(walked) && unchanged(cached, walked, base, cwd) {
		// Nothing changed, nothing added, nothing removed.
		st.Reused = len(walked)
		memoPut(key, cached)
		return cached.WithPathPrefix(prefix), st, nil
	}
	if !sorted {
		sortWalked(walked)
	}
	paths := make([]string, len(walked))
	for i := range walked {
		paths[i] = walked[i].path
	}
	// Which files are unchanged since the cached index?
	shown := make([]string, len(paths))
	same := make([]bool, len(paths))
	var wg sync.WaitGroup
	workers := min(maxWorkers, runtime.GOMAXPROCS(0))
	var reused int
	if cached != nil {
		// Each worker checks a run of the sorted paths, going through the
		// index's files along with them.
		for w := 0; w < workers; w++ {
			lo, hi := w*len(paths)/workers, (w+1)*len(paths)/workers
			wg.Add(1)
			go func() {
				defer wg.Done()
				next := -1
				for i := lo; i < hi; i++ {
					shown[i] = display(base, cwd, paths[i])
					f, at, ok := cached.LookupNear(shown[i], next)
					if !ok {
						continue
					}
					next = at + 1
					if id, regular, err := identity(walked[i]); err == nil && regular && rank.SameRevision(f, id) {
						same[i] = true
					}
				}
			}()
		}
		wg.Wait()
		for _, ok := range same {
			if ok {
				reused++
			}
		}
		if reused == len(paths) && cached.Files() == len(paths) {
			// Nothing changed, nothing added, nothing removed.
			st.Reused = reused
			memoPut(key, cached)
			return cached.WithPathPrefix(prefix), st, nil
		}
	} else {
		for i := range paths {
			shown[i] = display(base, cwd, paths[i])
		}
	}

	// The documents are read in parallel and indexed in path order as
	// they come (rank.Builder, inOrder): at most buildWindow are held at
	// once, so a build's memory is its index's, not every file's terms.
	order := make([]int, len(paths))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return shown[order[a]] < shown[order[b]] })
	// The workers count terms in the builder's own dictionary (one for
	// the build, and no renumbering as the builder adds a document).
	b := rank.NewBuilderFor(len(paths) - reused)
	q := newInOrder(len(order), buildWindow, func(_ int, d *rank.FileDoc) {
		if d != nil && !tk.stop.Load() {
			b.Add(d)
		}
	})
	var claimed atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dm *rank.DocMaker // this worker's, made at its first file read
			var buf bytes.Buffer  // this worker's read buffer, file after file
			for {
				k := int(claimed.Add(1) - 1)
				if k >= len(order) {
					return
				}
				q.wait(k)
				i := order[k]
				var d *rank.FileDoc
				if same[i] {
					d = cached.Doc(shown[i])
				} else if tk.tick() {
					if dm == nil {
						dm = b.DocMaker((len(paths) - reused) / workers)
					}
					d = readDoc(dm, &buf, open, paths[i], shown[i], o.Input)
				}
				q.put(k, d)
			}
		}()
	}
	wg.Wait()
	if tk.stop.Load() {
		return nil, st, ErrCancelled
	}
	st.Reused, st.Chunked = reused, len(paths)-reused
	ix := b.Index()
	memoPut(key, ix)
	if useCache {
		// Written piece by piece from the index's own tables.
		err := o.Store.WriteBlobFrom(name, func(w io.Writer) error { return rank.EncodeTo(w, key, ix) })
		if err != nil {
			st.CacheErr = err
		} else {
			st.Saved = true
		}
	}
	return ix.WithPathPrefix(prefix), st, nil
}

// baseOf is the folder the index's paths are relative to, and the prefix
// that shows them relative to root as display does: the one root walked
// when it is a folder other than root and its paths are shown with a
// common prefix (checked on the first path), else root and "".
func baseOf(root, cwd string, roots, paths []string) (base, prefix string) {
	if len(roots) != 1 || len(paths) == 0 {
		return root, ""
	}
	b, err := filepath.Abs(roots[0])
	if err != nil || b == root {
		return root, ""
	}
	if fi, err := os.Stat(b); err != nil || !fi.IsDir() {
		return root, ""
	}
	rel, shown := display(b, cwd, paths[0]), display(root, cwd, paths[0])
	p, ok := strings.CutSuffix(shown, "/"+rel)
	if !ok || p == "" || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, "../") {
		return root, ""
	}
	return b, p
}

// errNoMap: mapFile cannot map this file here (the cache is read).
var errNoMap = errors.New("not mapped")

// mapCache is false to read caches instead of mapping them (tests).
var mapCache = true

// readCache reads the cached index named name: mapped and used in place
// where the system can map it (its pages are read as a query touches
// them), else read whole.
func readCache(store *snapshot.Store, name, key string) (*rank.Index, error) {
	f, size, err := store.OpenBlob(name, rank.MaxCacheBytes)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if mapCache {
		if data, release, err := mapFile(f, size); err == nil {
			ix, err := rank.DecodeMapped(key, data, release)
			if err != nil {
				release()
			}
			return ix, err
		}
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	return rank.Decode(key, data)
}

// readDoc reads and chunks one file; nil when it cannot be read. It reads
// into buf, which the caller keeps from file to file (a document holds
// no reference to its source: a new buffer per file was a sixth of a
// cold GOROOT/src build's allocations, and their page faults).
func readDoc(dm *rank.DocMaker, buf *bytes.Buffer, open func(string) (*os.File, error), path, shown string, in input.Options) *rank.FileDoc {
	f, err := open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	tr, err := revisions.NewTracker(f)
	if err != nil {
		return nil
	}
	if tr.Identity().Size > rank.MaxFileBytes {
		return &rank.FileDoc{Path: shown, Rev: revisions.Revision{Identity: tr.Identity()}}
	}
	// Sized for the file as it was opened (with room for ReadFrom's
	// last read), so that reading it does not grow the buffer step by step.
	buf.Reset()
	buf.Grow(int(max(tr.Identity().Size, 0)) + bytes.MinRead + 1)
	if _, err := buf.ReadFrom(io.LimitReader(tr.Reader(f), rank.MaxFileBytes+1)); err != nil {
		return nil
	}
	data := buf.Bytes()
	rev := tr.Finish()
	if len(data) > rank.MaxFileBytes {
		rev.Verified = false
		return &rank.FileDoc{Path: shown, Rev: rev}
	}
	return dm.Doc(shown, rev, pipeline.Decode(path, data, in))
}

// display is the path shown for a walked path: relative to root with '/'
// separators when under it, else as walked. cwd is the working folder
// (read once: filepath.Abs would ask the system for it on every path),
// "" when unknown.
func display(root, cwd, p string) string {
	// The common cases without Join and Rel: a clean path under the
	// working folder when it is the root, or a clean absolute one under
	// the root.
	if q, ok := strings.CutPrefix(p, "./"); ok && filepath.Separator == '/' && cwd == root && cwd != "" && cleanNames(q) {
		// The walk of "." ("./x"): x, without Join and Rel (a tenth of
		// a warm GOROOT query went to them).
		return q
	}
	if filepath.Separator == '/' && (cleanNames(p) || len(p) > 1 && p[0] == '/' && cleanNames(p[1:])) {
		if !filepath.IsAbs(p) && cwd == root && cwd != "" {
			return p
		}
		if rel, ok := strings.CutPrefix(p, root+"/"); ok && filepath.IsAbs(p) && root != "/" {
			return rel
		}
	}
	abs := p
	if !filepath.IsAbs(abs) && cwd != "" {
		abs = filepath.Join(cwd, p)
	}
	if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// Abs returns the file a shown path names under root.
func Abs(root, shown string) string {
	if filepath.IsAbs(shown) {
		return shown
	}
	return filepath.Join(root, filepath.FromSlash(shown))
}

// cacheKey names the cache of one walk: the root, the roots walked and the
// walk's options that change which files are seen.
func cacheKey(root string, roots []string, w walker.Options, in input.Options, tag string) string {
	h := sha256.New()
	io.WriteString(h, tag+"\x00"+root+"\x00"+in.Encoding)
	for _, r := range roots {
		a, _ := filepath.Abs(r)
		io.WriteString(h, "\x00"+a)
	}
	flags := []bool{w.Hidden, w.NoIgnore, w.SkipGitDir, w.RequireGit, w.Follow}
	for _, f := range flags {
		if f {
			io.WriteString(h, "1")
		} else {
			io.WriteString(h, "0")
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ErrCancelled is Load's error when its context was cancelled.
var ErrCancelled = errors.New("the index build was cancelled")

// ProgressEvery is how many files separate two progress reports.
const ProgressEvery = 256

// ticker reports progress and polls the cancel check of one build.
type ticker struct {
	ctx  context.Context
	n    atomic.Int64
	stop atomic.Bool
}

// tick counts one file; false once the build is cancelled.
func (t *ticker) tick() bool {
	if t.stop.Load() {
		return false
	}
	if progress.Cancelled(t.ctx) {
		t.stop.Store(true)
		return false
	}
	if n := t.n.Add(1); n%ProgressEvery == 0 {
		progress.Report(t.ctx, int(n))
	}
	return true
}

// ErrChanged is Source's error for a file that is no longer the revision
// the index holds.
var ErrChanged = errors.New("changed since it was indexed; not shown")

// Source returns the bytes of hit h's chunk (a file under root), read
// from disk and verified against the indexed revision first (identity and
// content hash), so that what is shown is what was ranked.
func Source(root string, h rank.Hit, in input.Options) ([]byte, error) {
	c := h.Chunk
	abs := Abs(root, h.Path)
	data, st, err := revisions.ReadVerified(abs, h.Rev, rank.MaxFileBytes)
	if err != nil {
		return nil, err
	}
	data = pipeline.Decode(abs, data, in)
	if st != revisions.Same || !h.Rev.Verified || c.StartByte < 0 || c.EndByte > len(data) || c.StartByte > c.EndByte {
		return nil, ErrChanged
	}
	return data[c.StartByte:c.EndByte], nil
}

// memo keeps the last memoEntries indexes of this process by cache key,
// for a store without a state folder (the MCP server's) and to skip
// decoding the cache again in a long-lived process.
var memo struct {
	sync.Mutex
	keys []string
	ixs  []*rank.Index
}

func memoGet(key string) *rank.Index {
	memo.Lock()
	defer memo.Unlock()
	for i, k := range memo.keys {
		if k == key {
			return memo.ixs[i]
		}
	}
	return nil
}

func memoPut(key string, ix *rank.Index) {
	memo.Lock()
	defer memo.Unlock()
	for i, k := range memo.keys {
		if k == key {
			memo.keys = append(memo.keys[:i], memo.keys[i+1:]...)
			memo.ixs = append(memo.ixs[:i], memo.ixs[i+1:]...)
			break
		}
	}
	memo.keys = append([]string{key}, memo.keys...)
	memo.ixs = append([]*rank.Index{ix}, memo.ixs...)
	if len(memo.keys) > memoEntries {
		memo.keys, memo.ixs = memo.keys[:memoEntries], memo.ixs[:memoEntries]
	}
}
