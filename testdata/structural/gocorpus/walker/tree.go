package walker

import (
	"errors"
	"io/fs"
	"runtime"
	"sort"
	"strings"
	"syscall"

	"github.com/evgrep/evgrep/walker/ignore"
)

// Tree is a file tree that is not read from the file system, laid over
// the folder Top as if it were checked out there: a Git commit's tree
// (package gitrev). WalkTree walks it with the rules Walk applies on disk.
// Paths of the tree are '/'-separated and relative to Top ("" is Top).
type Tree interface {
	// Top is the canonical absolute folder the tree is laid over.
	Top() string
	// Locate returns the tree path of a root as given to WalkTree
	// (relative to the current folder, or absolute), or an error when it
	// lies outside the tree.
	Locate(root string) (string, error)
	// Stat reports whether the tree path names a folder; an error
	// wrapping fs.ErrNotExist when it names nothing.
	Stat(path string) (isDir bool, err error)
	// List returns the folders and regular files of folder path, in the
	// tree's own order. Links and other entries are left out.
	List(path string) ([]TreeEntry, error)
	// ReadFile returns the content of the file at path.
	ReadFile(path string) ([]byte, error)
	// Size returns the size of the file at path, in bytes.
	Size(path string) (int64, error)
}

// ErrStopTree, wrapped in an error a Tree method returns, says that the
// tree cannot be read any further (a bound of the whole tree was passed,
// or it is corrupt): WalkTree reports that error and ends.
var ErrStopTree = errors.New("the tree cannot be read further")

// TreeEntry is one entry of a Tree folder.
type TreeEntry struct {
	// Name is the entry's name in its folder.
	Name string
	// Dir is set for a folder.
	Dir bool
}

// WalkTree walks roots over t as Walk walks them on disk: the same
// overrides (-g), ignore files (.rgignore, .ignore, .gitignore read from
// the tree; .git/info/exclude, the global excludes file and --ignore-file
// read from disk, as a search of the checked-out tree would), types,
// hidden names, depth and size limits. A root is a path on disk; it is
// looked up in the tree at the same place (it need not exist on disk),
// and one the tree lacks is reported as missing. Ignore files of the
// folders above the tree's top are read from disk.
//
// The walk is single-threaded and depth first, each folder in the tree's
// order (for Git, the order git grep and git ls-tree use), or sorted by
// name with SortPath. --sortr path sorts all the files after the walk;
// the time sorts keep the tree's order (a tree has no times). Follow,
// OneFileSystem and SkipFile do not apply: a tree has no links to follow
// and no devices. visit gets each entry and its tree path.
func WalkTree(t Tree, roots []string, opts Options, visit func(e Entry, treePath string) bool) error {
	r, err := newRules(&opts)
	if err != nil {
		return err
	}
	// Errors are worded as Walk words them for the same options.
	threads := opts.Threads
	if threads <= 0 {
		threads = min(runtime.NumCPU(), maxDefaultThreads)
	}
	w := &treeWalk{t: t, opts: opts, rules: r, visit: visit, walkdir: threads == 1 || opts.Sort != SortNone}
	if len(roots) == 0 {
		roots = []string{implicitRoot}
		w.displayStrip = len(implicitRoot)
	}
	type held struct {
		e  Entry
		tp string
	}
	var all []held
	if opts.Sort == SortPath && opts.SortReverse {
		w.visit = func(e Entry, tp string) bool {
			all = append(all, held{e, tp})
			return true
		}
	}
	for _, root := range roots {
		if w.stop {
			break
		}
		w.root(root)
	}

	if all != nil {
		sort.SliceStable(all, func(i, j int) bool { return comparePaths(all[i].e.Path, all[j].e.Path) > 0 })
		for _, h := range all {
			if !visit(h.e, h.tp) {
				break
			}
		}
	}
	return nil
}

// treeWalk is the state of one WalkTree call.
type treeWalk struct {
	t            Tree
	opts         Options
	rules        *rules
	visit        func(Entry, string) bool
	displayStrip int
	walkdir      bool
	stop         bool
}

func (w *treeWalk) emit(e Entry, tp string) {
	if !w.stop && !w.visit(e, tp) {
		w.stop = true
	}
}

func (w *treeWalk) report(err error) {
	if errors.Is(err, ErrStopTree) {
		w.stop = true
	}
	if w.opts.OnError != nil {
		w.opts.OnError(err)
	}
}

func (w *treeWalk) reportIgnore(err error) {
	if w.opts.OnIgnoreError != nil {
		w.opts.OnIgnoreError(err)
	}
}

// root walks one root.
func (w *treeWalk) root(root string) {
	if root == "-" {
		w.emit(Entry{Path: "-", Explicit: true, Stdin: true}, "")
		return
	}
	tp, err := w.t.Locate(root)
	if err != nil {
		w.report(&PathError{Path: root, Err: err})
		return
	}
	isDir, err := w.t.Stat(tp)
	if err != nil {
		if errorsIsNotExist(err) {
			err = syscall.ENOENT
		}
		w.report(pathErr(root, err, w.walkdir))
		return
	}
	if !isDir {
		w.emit(Entry{Path: root, Explicit: true}, tp)
		return
	}
	parent := w.ancestors(tp)
	w.dir(root, tp, 0, parent)
}

// ancestors builds the ignore nodes of the folders above the root: those
// above the tree's top from disk (as Walk does), then those of the tree
// from the top down to the root's parent, from the tree.
func (w *treeWalk) ancestors(tp string) *dirNode {
	r := w.rules
	if !r.useParents && !r.useGit && !r.useExclude && !r.useGlobal {
		return nil
	}
	top := w.t.Top()
	node := r.parentsOf(top)
	if tp == "" {
		return node
	}
	absBase := joinPath(top, tp)
	comps := strings.Split(tp, "/")
	for i := range comps {
		dir := strings.Join(comps[:i], "/")
		ents, err := w.t.List(dir)
		if err != nil {
			return node
		}
		abs := top
		if dir != "" {
			abs = joinPath(top, dir)
		}
		n := w.newNode(node, abs, dir, ents, true)
		n.absBase = absBase
		node = n
	}
	return node
}

// dir walks the tree folder tp, spelled dir as walked, at depth depth.
func (w *treeWalk) dir(dir, tp string, depth int, parent *dirNode) {
	if w.opts.MaxDepth >= 0 && depth >= w.opts.MaxDepth {
		return
	}
	ents, err := w.t.List(tp)
	if err != nil {
		w.report(pathErr(dir, err, w.walkdir))
		return
	}
	node := w.newNode(parent, dir, tp, ents, false)
	if w.opts.Sort == SortPath && !w.opts.SortReverse {
		ents = append([]TreeEntry(nil), ents...)
		sort.SliceStable(ents, func(i, j int) bool { return ents[i].Name < ents[j].Name })
	}
	for _, e := range ents {
		if w.stop {
			return
		}
		path := joinPath(dir, e.Name)
		ctp := e.Name
		if tp != "" {
			ctp = tp + "/" + e.Name
		}
		if w.rules.matchEntry(node, path, e.Name, e.Dir) == ignore.Ignore {
			continue
		}
		if e.Dir {
			w.dir(path, ctp, depth+1, node)
			continue
		}
		if w.opts.MaxFilesize >= 0 {
			if size, err := w.t.Size(ctp); err == nil && size > w.opts.MaxFilesize {
				continue
			}
		}
		w.emit(Entry{Path: path[w.displayStrip:], Depth: depth + 1}, ctp)
	}
}

// newNode is rules.newNode for a tree folder: the ignore files named in
// its listing are read from the tree; the top folder is a repository top
// (its .git, and so info/exclude, are looked up on disk).
func (w *treeWalk) newNode(parent *dirNode, dir, tp string, ents []TreeEntry, absParent bool) *dirNode {
	r := w.rules
	n := &dirNode{parent: parent, absParent: absParent, dir: dir}
	if parent != nil {
		n.absBase = parent.absBase
	}
	var p presence
	for _, e := range ents {
		if e.Dir {
			continue
		}
		switch e.Name {
		case rgIgnoreName:
			p.rgignore = true
		case dotIgnoreName:
			p.ignore = true
		case gitIgnoreName:
			p.gitignore = true
		}
	}
	if tp == "" {
		if st, err := statPath(joinPath(w.t.Top(), gitDirName), true); err == nil {
			p.gitType = st.typ
			if p.gitType == typeUnknown {
				p.gitType = typeOther
			}
		}
	}
	if r.checkVCS {
		n.hasGit = p.gitType != typeUnknown
	}
	read := func(name string) *ignore.Gitignore {
		fp := name
		if tp != "" {
			fp = tp + "/" + name
		}
		data, err := w.t.ReadFile(fp)
		if err != nil {
			return nil
		}
		return r.compileIgnore(dir, joinPath(dir, name), data, w.reportIgnore)
	}
	if r.useCustom && p.rgignore {
		n.custom = read(rgIgnoreName)
	}
	if r.useDot && p.ignore {
		n.dot = read(dotIgnoreName)
	}
	if r.useGit && p.gitignore {
		n.git = read(gitIgnoreName)
	}
	if r.useExclude && p.gitType != typeUnknown {
		gitIsFile := r.checkVCS && p.gitType == typeFile
		if common, ok := gitCommonDir(w.t.Top(), gitIsFile); ok {
			n.exclude = r.readIgnoreFile(dir, joinPath(common, excludeName), r.ci, w.reportIgnore)
		}
	}
	n.anyGit = n.hasGit || (parent != nil && parent.anyGit)
	n.rulesHere = n.hasMatchers() || (parent != nil && parent.rulesHere && (!parent.absParent || r.useParents))
	return n
}

// compileIgnore is readIgnoreFile for bytes already read.
func (r *rules) compileIgnore(dir, path string, data []byte, report func(error)) *ignore.Gitignore {
	gi, errs := ignore.NewGitignore(dir, data, r.ci)
	if n := firstNonUTF8Line(data); n > 0 && len(errs) > 0 {
		errs = append(errs, &errNotUTF8Line{line: n})
	}
	if report != nil {
		for _, e := range errs {
			report(&IgnoreFileError{Path: path, Err: e})
		}
	}
	if gi.Len() == 0 {
		return nil
	}
	return gi
}

// errorsIsNotExist reports whether err wraps fs.ErrNotExist.
func errorsIsNotExist(err error) bool {
	for err != nil {
		if err == fs.ErrNotExist || err == syscall.ENOENT {
			return true
		}
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return false
		}
		err = u.Unwrap()
	}
	return false
}
