package walker

import (
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/evgrep/evgrep/internal/stackhint"
	"github.com/evgrep/evgrep/walker/ignore"
)

// implicitRoot is the root walked when none is given; ripgrep walks "./"
// and prints paths without that prefix (but spells errors with it).
const implicitRoot = "./"

// Walk walks roots (the current directory, printed without a "./" prefix,
// when roots is empty) and calls visit for every file that ripgrep 15
// would search: every regular file found in a directory that no rule
// ignores, and every root that is not a directory. visit returning false
// stops the walk. In parallel mode visit is called from several
// goroutines at once, and may still be called a few times after it
// returned false; single-threaded, it is called in walk order. Walk
// returns once no goroutine is left, with an error only for options that
// do not compile (a bad -g glob, its text ripgrep's). Problems met on the
// way go to opts.OnError and opts.OnIgnoreError.
//
// The root "-" yields an Entry with Stdin set.
func Walk(roots []string, opts Options, visit func(Entry) bool) error {
	r, err := newRules(&opts)
	if err != nil {
		return err
	}
	w := &walk{opts: opts, rules: r, visit: visit}
	display := 0
	if len(roots) == 0 {
		roots = []string{implicitRoot}
		display = len(implicitRoot)
	}
	w.displayStrip = display
	threads := opts.Threads
	if threads <= 0 {
		threads = min(runtime.NumCPU(), maxDefaultThreads)
	}
	if threads == 1 || opts.Sort != SortNone {
		w.walkdir = true
		if opts.Sort != SortNone && (opts.Sort != SortPath || opts.SortReverse) {
			w.sortedWalk(roots)
			return nil
		}
		w.sequential(roots)
		return nil
	}
	w.parallel(roots, threads)
	return nil
}

// newRules turns options into the ignore rules of a walk, reading the
// global excludes file and the --ignore-file files.
func newRules(o *Options) (*rules, error) {
	noDot := o.NoIgnoreDot || o.NoIgnore
	noVCS := o.NoIgnoreVCS || o.NoIgnore
	r := &rules{
		hidden:      !o.Hidden,
		useCustom:   !noDot,
		useDot:      !noDot,
		useGit:      !noVCS,
		useExclude:  !noVCS && !(o.NoIgnoreExclude || o.NoIgnore),
		useGlobal:   !noVCS && !(o.NoIgnoreGlobal || o.NoIgnore),
		useParents:  !(o.NoIgnoreParent || o.NoIgnore),
		requireGit:  o.RequireGit,
		ci:          o.IgnoreCaseInsensitive,
		types:       o.Types,
		onIgnoreErr: o.OnIgnoreError,
		onError:     o.OnError,
	}
	r.checkVCS = r.requireGit && (r.useGit || r.useExclude)
	if r.types.Empty() {
		r.types = nil
	}
	// The physical directory, as Rust's env::current_dir gives: -g globs,
	// the global excludes file and --ignore-file files are rooted there.
	cwd, cwdErr := syscall.Getwd()
	if len(o.Globs) > 0 {
		base := o.GlobRoot
		if base == "" {
			if cwdErr != nil {
				return nil, cwdErr
			}
			base = cwd
		}
		ov, err := ignore.NewOverride(base, o.Globs)
		if err != nil {
			return nil, err
		}
		if !ov.Empty() {
			r.overrides = ov
		}
	}
	// Without a current directory the ignore crate drops the global
	// excludes file.
	if r.useGlobal && cwdErr == nil {
		if p, ok := globalExcludesPath(); ok && isRegularFile(p) {
			// ripgrep only logs problems of the global file.
			r.global = r.readIgnoreFile(cwd, p, r.ci, nil)
		}
	}
	if !o.NoIgnoreFiles {
		for _, p := range o.IgnoreFiles {
			data, err := os.ReadFile(p)
			if err != nil {
				if r.onIgnoreErr != nil {
					r.onIgnoreErr(&IgnoreFileError{Path: p, Err: unwrapPathError(err)})
				}
				continue
			}
			gi, errs := ignore.NewGitignore(cwd, data, false)
			if n := firstNonUTF8Line(data); n > 0 {
				errs = append(errs, &errNotUTF8Line{line: n})
			}
			for _, e := range errs {
				if r.onIgnoreErr != nil {
					r.onIgnoreErr(&IgnoreFileError{Path: p, Err: e})
				}
			}
			r.explicit = append(r.explicit, gi)
		}
	}
	r.anyRules = r.useDot || r.useGlobal || r.useGit || r.useExclude || r.useCustom || len(r.explicit) > 0
	return r, nil
}

// unwrapPathError returns the errno inside an *os.PathError.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// walk is the state of one Walk call.
type walk struct {
	opts         Options
	rules        *rules
	visit        func(Entry) bool
	displayStrip int
	// walkdir selects the single-threaded walk and its error wording.
	walkdir bool
	stop    atomic.Bool
}

// ancestor is a directory the walk is inside, for symlink loop checks.
type ancestor struct {
	id     FileID
	path   string
	parent *ancestor
}

// dirWork is one directory to read.
type dirWork struct {
	path    string
	depth   int
	parent  *dirNode // the ignore node of the directory containing it
	anc     *ancestor
	rootDev uint64
	// files, when set, makes this a share of another directory's files
	// to yield (a parallel walk splits a large directory), not a
	// directory to read.
	files []Entry
}

// scratch is one goroutine's reusable memory.
type scratch struct {
	rd    *dirReader
	ents  []dirent
	buf   []byte
	files []Entry // a parallel walk's files of one directory
}

func newScratch() *scratch {
	return &scratch{rd: newDirReader(), buf: make([]byte, 0, pathBufSize)}
}

// report sends a per-path error to OnError.
func (w *walk) report(err error) {
	if w.opts.OnError != nil {
		w.opts.OnError(err)
	}
}

// reportIgnore sends an ignore-file error to OnIgnoreError.
func (w *walk) reportIgnore(err error) {
	if w.opts.OnIgnoreError != nil {
		w.opts.OnIgnoreError(err)
	}
}

// emit calls visit, recording a request to stop.
func (w *walk) emit(e Entry) {
	if w.stop.Load() {
		return
	}
	if !w.visit(e) {
		w.stop.Store(true)
	}
}

// display turns a walked path into the path ripgrep prints.
func (w *walk) display(path string) string {
	return path[w.displayStrip:]
}

// root handles one root: a file is yielded, a directory becomes work.
func (w *walk) root(path string) (*dirWork, bool) {
	if path == "-" {
		w.emit(Entry{Path: "-", Explicit: true, Stdin: true})
		return nil, false
	}
	st, err := statPath(path, true)
	if err != nil {
		w.report(pathErr(path, err, w.walkdir))
		return nil, false
	}
	if st.typ != typeDir {
		w.emit(Entry{Path: path, Explicit: true, Mode: st.mode})
		return nil, false
	}
	return &dirWork{path: path, rootDev: st.id.Dev}, true
}

// childPath builds dir joined with name in s.buf and returns it as a new
// string.
func (s *scratch) childPath(dir, name string) string {
	b := append(s.buf[:0], dir...)
	if len(dir) > 0 && dir[len(dir)-1] != '/' {
		b = append(b, '/')
	}
	b = append(b, name...)
	s.buf = b
	return string(b)
}

// child is the verdict on one directory entry.
type child struct {
	st    *FileStat
	path  string
	typ   entType
	mode  os.FileMode
	id    FileID // valid when idOK
	idOK  bool
	isDir bool
}

// readDir reads a directory for work and builds its ignore node. It
// reports the errors ripgrep reports. ok is false when the directory is
// not to be descended into.
func (w *walk) readDir(s *scratch, wk *dirWork) (node *dirNode, ents []dirent, anc *ancestor, ok bool) {
	needID := w.opts.Follow || w.opts.OneFileSystem
	atMax := w.opts.MaxDepth >= 0 && wk.depth >= w.opts.MaxDepth
	if atMax {
		// A directory at the depth limit is not opened (so an unreadable
		// one is not reported), but ripgrep still reads its ignore files.
		w.rules.newNode(wk.parent, wk.path, presenceFromStat(wk.path), false, w.reportIgnore)
		return nil, nil, nil, false
	}
	ents, id, err := s.rd.list(wk.path, needID, w.opts.StatFiles, s.ents[:0])
	s.ents = ents
	if err != nil {
		w.report(pathErr(wk.path, err, w.walkdir))
		if len(ents) == 0 {
			return nil, nil, nil, false
		}
	}
	if w.opts.OneFileSystem && wk.depth > 0 && id.Dev != wk.rootDev {
		return nil, nil, nil, false
	}
	node = w.rules.newNode(wk.parent, wk.path, presenceFromListing(wk.path, ents), false, w.reportIgnore)
	anc = wk.anc
	if w.opts.Follow {
		anc = &ancestor{id: id, path: wk.path, parent: wk.anc}
	}
	return node, ents, anc, true
}

// classify decides what to do with entry e of directory dir (at depth
// depth, ignore node node): ok is false when it is skipped.
func (w *walk) classify(s *scratch, dir string, depth int, node *dirNode, anc *ancestor, e *dirent) (c child, ok bool) {
	c.path = s.childPath(dir, e.name)
	c.typ = e.typ
	c.st = e.st
	if c.typ == typeUnknown {
		st, err := statPath(c.path, false)
		if err != nil {
			return c, false
		}
		c.typ, c.mode, c.id, c.idOK = st.typ, st.mode, st.id, true
	}
	var fst fileStat
	haveStat := false
	if c.typ == typeSymlink && w.opts.Follow {
		st, err := statPath(c.path, true)
		if err != nil {
			w.report(pathErr(c.path, err, w.walkdir))
			return c, false
		}
		fst, haveStat = st, true
		c.typ, c.mode, c.id, c.idOK = st.typ, st.mode, st.id, true
		if c.typ == typeDir {
			for a := anc; a != nil; a = a.parent {
				if a.id == st.id {
					w.report(&LoopError{Child: c.path, Ancestor: a.path})
					return c, false
				}
			}
		}
	}
	c.isDir = c.typ == typeDir
	if c.isDir && w.opts.SkipGitDir && e.name == gitDirName {
		return c, false
	}
	if w.rules.matchEntry(node, c.path, e.name, c.isDir) == ignore.Ignore {
		return c, false
	}
	if sf := w.opts.SkipFile; sf != nil {
		ino := e.ino
		if c.idOK {
			ino = c.id.Ino
		}
		if ino == 0 || ino == sf.Ino {
			if st, err := statPath(c.path, true); err == nil && st.id == *sf {
				return c, false
			}
		}
	}
	if w.opts.MaxFilesize >= 0 && !c.isDir {
		if !haveStat {
			if st, err := statPath(c.path, false); err == nil {
				fst, haveStat = st, true
			}
		}
		if haveStat && fst.size > w.opts.MaxFilesize {
			return c, false
		}
	}
	return c, c.isDir || c.typ == typeFile
}

// parallel walks with threads goroutines sharing one stack of
// directories: each goroutine takes the most recently found directory,
// reads it, yields its files and pushes its subdirectories, so that all
// goroutines stay busy however the tree is shaped.
func (w *walk) parallel(roots []string, threads int) {
	q := &workQueue{}
	q.cond = sync.NewCond(&q.mu)
	for _, root := range roots {
		if w.stop.Load() {
			return
		}
		if wk, ok := w.root(root); ok {
			q.items = append(q.items, wk)
		}
	}
	// The nodes of the directories above each root (each root has its
	// own chain).
	for i := len(q.items) - 1; i >= 0; i-- {
		q.items[i].parent = w.rules.parentsOf(q.items[i].path)
	}
	var wg sync.WaitGroup
	for range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stackhint.Worker()
			w.worker(q)
		}()
	}
	wg.Wait()
}

// workQueue is the shared stack of directories to read.
type workQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []*dirWork
	active int
	done   bool
}

// pop waits for a directory; ok is false when the walk is over.
func (q *workQueue) pop() (*dirWork, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 {
		if q.done || q.active == 0 {
			q.done = true
			q.cond.Broadcast()
			return nil, false
		}
		q.cond.Wait()
	}
	wk := q.items[len(q.items)-1]
	q.items[len(q.items)-1] = nil
	q.items = q.items[:len(q.items)-1]
	q.active++
	return wk, true
}

// finish pushes the subdirectories found by one goroutine and marks it
// idle.
func (q *workQueue) finish(found []*dirWork, stop bool) {
	q.mu.Lock()
	if stop {
		q.items = q.items[:0]
		q.done = true
	} else {
		q.items = append(q.items, found...)
	}
	q.active--
	if len(found) > 0 || q.done || (q.active == 0 && len(q.items) == 0) {
		q.cond.Broadcast()
	}
	q.mu.Unlock()
}

// worker is one walking goroutine.
func (w *walk) worker(q *workQueue) {
	s := newScratch()
	for {
		wk, ok := q.pop()
		if !ok {
			return
		}
		switch {
		case w.stop.Load():
		case wk.files != nil:
			w.emitAll(wk.files)
		default:
			w.parallelDir(s, q, wk)
		}
		q.finish(nil, w.stop.Load())
	}
}

// push adds directories found by a goroutine that is still busy (it
// stays active), so that idle ones can take them at once.
func (q *workQueue) push(found []*dirWork) {
	if len(found) == 0 {
		return
	}
	q.mu.Lock()
	if !q.done {
		q.items = append(q.items, found...)
		q.cond.Broadcast()
	}
	q.mu.Unlock()
}

// parallelDir reads one directory, hands its subdirectories to the queue
// first (other goroutines walk them while this one yields the files),
// then yields its files.
func (w *walk) parallelDir(s *scratch, q *workQueue, wk *dirWork) {
	node, ents, anc, ok := w.readDir(s, wk)
	if !ok {
		return
	}
	files := s.files[:0]
	var found []*dirWork
	for i := range ents {
		if w.stop.Load() {
			break
		}
		c, ok := w.classify(s, wk.path, wk.depth, node, anc, &ents[i])
		if !ok {
			continue
		}
		if c.isDir {
			found = append(found, &dirWork{path: c.path, depth: wk.depth + 1, parent: node, anc: anc, rootDev: wk.rootDev})
			continue
		}
		files = append(files, Entry{Path: w.display(c.path), Depth: wk.depth + 1, Mode: c.mode, Stat: c.st})
	}
	// A large directory's files are shared out too: all but the first
	// share go to the queue, for the goroutines with nothing to do.
	for len(files) > 2*fileShare {
		tail := files[len(files)-fileShare:]
		found = append(found, &dirWork{files: append([]Entry(nil), tail...)})
		clear(tail)
		files = files[:len(files)-fileShare]
	}
	q.push(found)
	w.emitAll(files)
	s.files = files[:0]
}

// emitAll yields files in order, and forgets each (the slice may be
// reused) as it goes.
func (w *walk) emitAll(files []Entry) {
	for i := range files {
		if w.stop.Load() {
			break
		}
		w.emit(files[i])
		files[i] = Entry{}
	}
}

// sequential walks one root after the other, depth first, each directory
// in the order the OS lists it or sorted, as ripgrep's single-threaded
// walk (the walkdir crate) does.
func (w *walk) sequential(roots []string) {
	s := newScratch()
	for _, root := range roots {
		if w.stop.Load() {
			return
		}
		if wk, ok := w.root(root); ok {
			wk.parent = w.rules.parentsOf(wk.path)
			w.sequentialDir(s, wk)
		}
	}
}

// sequentialDir walks one directory and, recursively, those below it.
func (w *walk) sequentialDir(s *scratch, wk *dirWork) {
	node, ents, anc, ok := w.readDir(s, wk)
	if !ok {
		return
	}
	// The scratch listing is reused by the recursion: keep a copy.
	ents = append([]dirent(nil), ents...)
	if w.opts.Sort == SortPath && !w.opts.SortReverse {
		sort.SliceStable(ents, func(i, j int) bool { return ents[i].name < ents[j].name })
	}
	for i := range ents {
		if w.stop.Load() {
			return
		}
		c, ok := w.classify(s, wk.path, wk.depth, node, anc, &ents[i])
		if !ok {
			continue
		}
		if c.isDir {
			w.sequentialDir(s, &dirWork{path: c.path, depth: wk.depth + 1, parent: node, anc: anc, rootDev: wk.rootDev})
			continue
		}
		w.emit(Entry{Path: w.display(c.path), Depth: wk.depth + 1, Mode: c.mode, Stat: c.st})
	}
}

// sortedWalk is ripgrep 15's --sort by a time and --sortr: the whole
// single-threaded walk (each directory in the order the OS lists it) is
// collected, then sorted as one list, stably, and yielded.
func (w *walk) sortedWalk(roots []string) {
	var all []Entry
	visit := w.visit
	w.visit = func(e Entry) bool {
		all = append(all, e)
		return true
	}
	w.sequential(roots)
	w.visit = visit
	sortAll(all, w.opts.Sort, w.opts.SortReverse)
	for _, e := range all {
		if w.stop.Load() {
			return
		}
		w.emit(e)
	}
}

// sortAll orders entries as ripgrep 15 does: by path (compared component
// by component) for SortPath, else by a time read with a stat that
// follows symlinks, an entry whose time cannot be read (standard input
// among them) after the others; reversed entirely for rev, ties kept in
// walk order.
func sortAll(all []Entry, key SortKey, rev bool) {
	if key == SortPath {
		sort.SliceStable(all, func(i, j int) bool {
			c := comparePaths(all[i].Path, all[j].Path)
			if rev {
				return c > 0
			}
			return c < 0
		})
		return
	}
	type keyed struct {
		t  int64
		ok bool
	}
	keys := make([]keyed, len(all))
	for i := range all {
		if all[i].Stdin {
			continue
		}
		p := all[i].Path
		switch key {
		case SortCreated:
			keys[i].t, keys[i].ok = birthTime(p)
		default:
			if st, err := statPath(p, true); err == nil {
				keys[i].ok = true
				if key == SortAccessed {
					keys[i].t = st.atime
				} else {
					keys[i].t = st.mtime
				}
			}
		}
	}
	idx := make([]int, len(all))
	for i := range idx {
		idx[i] = i
	}
	cmp := func(a, b keyed) int {
		switch {
		case a.ok && b.ok:
			return cmpInt(a.t, b.t)
		case a.ok:
			return -1
		case b.ok:
			return 1
		}
		return 0
	}
	sort.SliceStable(idx, func(a, b int) bool {
		c := cmp(keys[idx[a]], keys[idx[b]])
		if rev {
			return c > 0
		}
		return c < 0
	})
	sorted := make([]Entry, len(all))
	for i, k := range idx {
		sorted[i] = all[k]
	}
	copy(all, sorted)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// pathComponent is one component of a path as Rust's Path::components
// yields it; kinds order as Rust's Component enum does.
type pathComponent struct {
	kind int // 0 root "/", 1 ".", 2 "..", 3 a name
	name string
}

// components splits a path as Rust does: a leading '/' is the root, empty
// components and "." components (but a leading ".") are dropped.
func components(p string) []pathComponent {
	var out []pathComponent
	if strings.HasPrefix(p, "/") {
		out = append(out, pathComponent{kind: 0})
	}
	first := true
	for part := range strings.SplitSeq(p, "/") {
		switch part {
		case "":
			continue
		case ".":
			if first && !strings.HasPrefix(p, "/") {
				out = append(out, pathComponent{kind: 1})
			}
		case "..":
			out = append(out, pathComponent{kind: 2})
		default:
			out = append(out, pathComponent{kind: 3, name: part})
		}
		first = false
	}
	return out
}

// comparePaths compares two paths as Rust's Path::cmp does: component by
// component.
func comparePaths(a, b string) int {
	ca, cb := components(a), components(b)
	for i := 0; i < len(ca) && i < len(cb); i++ {
		x, y := ca[i], cb[i]
		if x.kind != y.kind {
			return x.kind - y.kind
		}
		if c := strings.Compare(x.name, y.name); c != 0 {
			return c
		}
	}
	return len(ca) - len(cb)
}
