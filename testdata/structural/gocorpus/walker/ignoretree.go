package walker

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/evgrep/evgrep/walker/ignore"
	"github.com/evgrep/evgrep/walker/types"
)

// Names of the ignore files the walker reads.
const (
	rgIgnoreName  = ".rgignore"
	dotIgnoreName = ".ignore"
	gitIgnoreName = ".gitignore"
	gitDirName    = ".git"
	jjDirName     = ".jj"
	excludeName   = "info/exclude"
)

// rules is the part of a walk's configuration that decides what is
// ignored: which ignore files count, the override globs, the type filter,
// the global and explicit ignore files. It mirrors the options of the
// ignore crate's Ignore matcher as ripgrep 15 sets them.
type rules struct {
	hidden     bool // skip hidden entries
	useCustom  bool // .rgignore
	useDot     bool // .ignore
	useGit     bool // .gitignore
	useExclude bool // .git/info/exclude
	useGlobal  bool // core.excludesFile
	useParents bool // ignore files above the roots
	requireGit bool
	// checkVCS is the ignore crate's check for a repository marker (.git
	// or .jj): only when a repository is required and git files count.
	// Without it no directory is a repository top, so .gitignore files
	// above a nested repository apply too.
	checkVCS    bool
	ci          bool // ignore files case-insensitive
	overrides   *ignore.Override
	types       *types.Matcher
	global      *ignore.Gitignore
	explicit    []*ignore.Gitignore
	anyRules    bool // the ignore crate's has_any_ignore_rules
	onIgnoreErr func(error)
	onError     func(error)

	// parentsMu guards parentCache, the nodes of directories above the
	// roots, keyed by canonical path and the canonical root they were
	// built for (each root has its own chain, as in the ignore crate of
	// ripgrep 15).
	parentsMu   sync.Mutex
	parentCache map[parentKey]*dirNode
}

// parentKey identifies a cached node above the roots.
type parentKey struct{ dir, absBase string }

// dirNode is the ignore state of one directory: its own ignore files and
// a link to its parent's node. Walked directories form a chain up to the
// root; above the root come the "absolute parent" nodes of the
// directories containing it, up to "/".
type dirNode struct {
	parent *dirNode
	// absParent marks a node of a directory above the roots.
	absParent bool
	// dir is the directory as walked (canonical above the roots).
	dir string
	// absBase is the canonical path of the root the chain was built
	// for ("" when parents were not added).
	absBase string
	// hasGit is set when the directory is a repository top: it holds
	// .git or .jj and rules.checkVCS is set.
	hasGit bool
	// anyGit is set when this node or one above it has hasGit.
	anyGit bool
	// matchers are nil when the file is absent or empty.
	custom, dot, git, exclude *ignore.Gitignore
	// rulesHere is set when this node or one above it (in the part of the
	// chain that is consulted) has a matcher.
	rulesHere bool
}

// hasMatchers reports whether the node has an ignore file of its own.
func (n *dirNode) hasMatchers() bool {
	return n.custom != nil || n.dot != nil || n.git != nil || n.exclude != nil
}

// presence says which of the names a directory holds that matter to the
// ignore rules, and the type of its .git entry.
type presence struct {
	rgignore, ignore, gitignore bool
	gitType                     entType // typeUnknown: absent
	jj                          bool    // .jj exists (any type, symlinks followed)
}

// presenceFromListing fills a presence from a directory listing, with a
// stat only for a .git that is a symlink or of unknown type.
func presenceFromListing(dir string, ents []dirent) presence {
	var p presence
	for i := range ents {
		e := &ents[i]
		if len(e.name) < 3 || e.name[0] != '.' {
			continue
		}
		switch e.name {
		case rgIgnoreName:
			p.rgignore = true
		case dotIgnoreName:
			p.ignore = true
		case gitIgnoreName:
			p.gitignore = true
		case jjDirName:
			p.jj = true
			if e.typ == typeSymlink || e.typ == typeUnknown {
				_, err := statPath(joinPath(dir, jjDirName), true)
				p.jj = err == nil
			}
		case gitDirName:
			p.gitType = e.typ
			if e.typ == typeSymlink || e.typ == typeUnknown {
				p.gitType = typeUnknown
				if st, err := statPath(joinPath(dir, gitDirName), true); err == nil {
					p.gitType = st.typ
					if p.gitType == typeUnknown {
						p.gitType = typeOther
					}
				}
			}
		}
	}
	return p
}

// presenceFromStat fills a presence by looking each name up, for a
// directory whose listing is not read.
func presenceFromStat(dir string) presence {
	exists := func(name string) bool {
		_, err := statPath(joinPath(dir, name), true)
		return err == nil
	}
	p := presence{
		rgignore:  exists(rgIgnoreName),
		ignore:    exists(dotIgnoreName),
		gitignore: exists(gitIgnoreName),
		jj:        exists(jjDirName),
	}
	if st, err := statPath(joinPath(dir, gitDirName), true); err == nil {
		p.gitType = st.typ
		if p.gitType == typeUnknown {
			p.gitType = typeOther
		}
	}
	return p
}

// newNode builds the node of directory dir (spelled as walked, or
// canonical for a directory above the roots) below parent, reading the
// ignore files that p says exist, as the ignore crate's add_child_path
// does.
func (r *rules) newNode(parent *dirNode, dir string, p presence, absParent bool, report func(error)) *dirNode {
	n := &dirNode{parent: parent, absParent: absParent, dir: dir}
	if parent != nil {
		n.absBase = parent.absBase
	}
	if r.checkVCS {
		n.hasGit = p.gitType != typeUnknown || p.jj
	}
	if r.useCustom && p.rgignore {
		n.custom = r.readIgnoreFile(dir, joinPath(dir, rgIgnoreName), r.ci, report)
	}
	if r.useDot && p.ignore {
		n.dot = r.readIgnoreFile(dir, joinPath(dir, dotIgnoreName), r.ci, report)
	}
	if r.useGit && p.gitignore {
		n.git = r.readIgnoreFile(dir, joinPath(dir, gitIgnoreName), r.ci, report)
	}
	if r.useExclude && p.gitType != typeUnknown {
		// The ignore crate looks at the type of .git only when it checks
		// for a repository; otherwise a .git file is taken for a
		// directory, and its info/exclude is not found.
		gitIsFile := r.checkVCS && p.gitType == typeFile
		if common, ok := gitCommonDir(dir, gitIsFile); ok {
			n.exclude = r.readIgnoreFile(dir, joinPath(common, excludeName), r.ci, report)
		}
	}
	n.anyGit = n.hasGit || (parent != nil && parent.anyGit)
	n.rulesHere = n.hasMatchers() || (parent != nil && parent.rulesHere && (!parent.absParent || r.useParents))
	return n
}

// readIgnoreFile compiles one ignore file rooted at dir. A file that
// cannot be read counts as absent, silently, as in the ignore crate; lines
// that do not compile are reported.
func (r *rules) readIgnoreFile(dir, path string, ci bool, report func(error)) *ignore.Gitignore {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	gi, errs := ignore.NewGitignore(dir, data, ci)
	// Reading stops at a line that is not UTF-8. The ignore crate drops
	// that I/O error when it is the file's only problem, and reports it
	// with the others otherwise.
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

// firstNonUTF8Line returns the 1-based number of the first line of data
// that is not valid UTF-8, or 0.
func firstNonUTF8Line(data []byte) int {
	if utf8.Valid(data) {
		return 0
	}
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if !utf8.Valid(line) {
			return n
		}
	}
	return 0
}

// gitCommonDir returns the git directory whose info/exclude applies to
// dir: dir/.git, or, when .git is a file ("gitdir: X", a linked worktree),
// the common directory named by X/commondir. ok is false when there is
// none.
func gitCommonDir(dir string, gitIsFile bool) (string, bool) {
	gitPath := joinPath(dir, gitDirName)
	if !gitIsFile {
		return gitPath, true
	}
	line, ok := firstLine(gitPath)
	if !ok || !strings.HasPrefix(line, "gitdir: ") {
		return "", false
	}
	real := line[len("gitdir: "):]
	common, ok := firstLine(joinPath(real, "commondir"))
	if !ok {
		return "", false
	}
	if strings.HasPrefix(common, ".") {
		return joinPath(real, common), true
	}
	return common, true
}

// firstLine returns the first line of a file without its line ending.
func firstLine(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return "", false
	}
	return strings.TrimSuffix(sc.Text(), "\r"), true
}

// parentsOf returns the node of the directory containing root (after
// canonicalizing it), chained up to "/", as the ignore crate's add_parents
// does; nil when no parent information is needed or root cannot be
// canonicalized. Each root gets its own chain.
func (r *rules) parentsOf(root string) *dirNode {
	if !r.useParents && !r.useGit && !r.useExclude && !r.useGlobal {
		return nil
	}
	absBase, ok := canonicalize(root)
	if !ok {
		return nil
	}
	var dirs []string
	for p := absBase; ; {
		d := filepath.Dir(p)
		if d == p {
			break
		}
		dirs = append(dirs, d)
		p = d
	}
	r.parentsMu.Lock()
	defer r.parentsMu.Unlock()
	if r.parentCache == nil {
		r.parentCache = make(map[parentKey]*dirNode)
	}
	var node *dirNode
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		key := parentKey{dir: d, absBase: absBase}
		if cached, ok := r.parentCache[key]; ok {
			node = cached
			continue
		}
		n := r.newNode(node, d, presenceFromStat(d), true, r.onError)
		n.absBase = absBase
		r.parentCache[key] = n
		node = n
	}
	return node
}

// matchEntry is the ignore crate's matched_dir_entry: overrides, then
// ignore files, then types, then (when nothing else decided) hidden. path
// is the entry's path as walked, name its last component.
func (r *rules) matchEntry(n *dirNode, path, name string, isDir bool) ignore.Match {
	path = strings.TrimPrefix(path, "./")
	if r.overrides != nil {
		if m := r.overrides.Match(path, isDir); m != ignore.None {
			return m
		}
	}
	white := false
	if r.anyRules {
		switch r.matchIgnore(n, path, isDir) {
		case ignore.Ignore:
			return ignore.Ignore
		case ignore.Whitelist:
			white = true
		}
	}
	if r.types != nil {
		switch r.types.Match(path, isDir) {
		case ignore.Ignore:
			return ignore.Ignore
		case ignore.Whitelist:
			white = true
		}
	}
	if white {
		return ignore.Whitelist
	}
	if r.hidden && isHiddenName(name) {
		return ignore.Ignore
	}
	return ignore.None
}

// isHiddenName is the ignore crate's is_hidden: the name starts with '.'
// (a name ending in '.' has no file name there, so it is not hidden).
func isHiddenName(name string) bool {
	return len(name) > 0 && name[0] == '.' && name[len(name)-1] != '.'
}

// matchIgnore is the ignore crate's matched_ignore (0.4.18): the nearest
// directory wins within each kind of ignore file, kinds rank .rgignore,
// .ignore, .gitignore, .git/info/exclude, global, --ignore-file; git files
// count only inside a repository unless git is not required, and not
// above the repository's top. Directories above the root are matched with
// the root's canonical path joined to path less the root as walked, as
// ripgrep 15 does.
func (r *rules) matchIgnore(n *dirNode, path string, isDir bool) ignore.Match {
	var mc, md, mg, mx ignore.Match
	anyGit := !r.requireGit || (n != nil && n.anyGit)
	sawGit := false
	x := n
	if n != nil && n.rulesHere {
		var top *dirNode // the root directory's node
		for ; x != nil && !x.absParent; x = x.parent {
			if x.hasMatchers() {
				mc, md, mg, mx = x.match(path, isDir, anyGit && !sawGit, mc, md, mg, mx)
			}
			sawGit = sawGit || x.hasGit
			top = x
		}
		if r.useParents && x != nil && x.rulesHere && n.absBase != "" {
			jp := joinAbs(n.absBase, relativeToRoot(top, path))
			for ; x != nil; x = x.parent {
				if x.hasMatchers() {
					mc, md, mg, mx = x.match(jp, isDir, anyGit && !sawGit, mc, md, mg, mx)
				}
				sawGit = sawGit || x.hasGit
			}
		}
	}
	for _, m := range [...]ignore.Match{mc, md, mg, mx} {
		if m != ignore.None {
			return m
		}
	}
	if anyGit && r.global != nil {
		if m := r.global.Match(path, isDir); m != ignore.None {
			return m
		}
	}
	for i := len(r.explicit) - 1; i >= 0; i-- {
		if m := r.explicit[i].Match(path, isDir); m != ignore.None {
			return m
		}
	}
	return ignore.None
}

// match consults the node's own matchers for the kinds still undecided.
func (x *dirNode) match(path string, isDir, gitOK bool, mc, md, mg, mx ignore.Match) (ignore.Match, ignore.Match, ignore.Match, ignore.Match) {
	if mc == ignore.None && x.custom != nil {
		mc = x.custom.Match(path, isDir)
	}
	if md == ignore.None && x.dot != nil {
		md = x.dot.Match(path, isDir)
	}
	if gitOK && mg == ignore.None && x.git != nil {
		mg = x.git.Match(path, isDir)
	}
	if gitOK && mx == ignore.None && x.exclude != nil {
		mx = x.exclude.Match(path, isDir)
	}
	return mc, md, mg, mx
}

// relativeToRoot is path (an entry below the root directory whose node is
// top) less the root as walked, as the ignore crate strips it (byte
// prefixes, a leading "./" of the root ignored) before joining it to the
// root's canonical path. A root of "." leaves path as it is.
func relativeToRoot(top *dirNode, path string) string {
	if top == nil || top.dir == "." {
		return path
	}
	base := strings.TrimPrefix(top.dir, "./")
	rel := strings.TrimPrefix(path, base)
	return strings.TrimPrefix(rel, "/")
}

// joinAbs joins path to base as Rust's Path::join does: an absolute path
// replaces the base.
func joinAbs(base, path string) string {
	if strings.HasPrefix(path, "/") {
		return path
	}
	return joinPath(base, path)
}

// joinPath appends name to dir as Rust's PathBuf::push does: with a '/'
// unless dir is empty or already ends with one.
func joinPath(dir, name string) string {
	if dir == "" {
		return name
	}
	if dir[len(dir)-1] == '/' {
		return dir + name
	}
	return dir + "/" + name
}
