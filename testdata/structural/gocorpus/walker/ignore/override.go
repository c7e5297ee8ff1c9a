package ignore

// OverrideGlob is one -g/--iglob argument.
type OverrideGlob struct {
	// Pattern is the glob as given; a leading '!' makes it exclude.
	Pattern string
	// CaseInsensitive is set for --iglob, and for -g under
	// --glob-case-insensitive.
	CaseInsensitive bool
}

// Override is rg's override matcher for -g/--iglob globs. It is immutable
// and safe for concurrent use.
type Override struct {
	gi *Gitignore
}

// NewOverride builds rg's override matcher (-g, --iglob,
// --glob-case-insensitive applied by the caller setting CaseInsensitive)
// rooted at root (rg uses the current directory).
//
// Each glob is read like a gitignore line (rg does exactly that): '!'
// negates, a leading '/' or a '/' inside anchors at root, a trailing '/'
// matches directories only, '*' does not match '/', a glob without '/'
// matches the basename at any depth; a glob starting with '#' is a comment
// and an empty one is skipped. The first glob that fails to compile is
// returned as a *GlobError (an unclosed '[' is an error here), or a
// *NestError when one nests its alternates too deeply. Note that rg adds all -g globs before all
// --iglob globs, whatever their order on the command line; the caller
// passes them in that order.
func NewOverride(root string, globs []OverrideGlob) (*Override, error) {
	gi := &Gitignore{root: root}
	if len(root) >= 2 && root[:2] == "./" {
		gi.root = root[2:]
	}
	var compiled []*Glob
	for _, og := range globs {
		gl, ok, err := compileLine(og.Pattern, gitignoreOptions(og.CaseInsensitive))
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		compiled = append(compiled, gl.glob)
		gi.whitelist = append(gi.whitelist, gl.whitelist)
		gi.onlyDir = append(gi.onlyDir, gl.onlyDir)
		if !gl.whitelist {
			gi.ignores++
		}
	}
	set, err := newGlobSet(compiled)
	if err != nil {
		return nil, err
	}
	gi.set = set
	return &Override{gi: gi}, nil
}

// Match returns the override verdict for path (relative to root, or
// beneath it, as for Gitignore.Match): the last matching glob wins, an
// include glob giving Whitelist and a '!' glob Ignore. When nothing matches
// and there is at least one include glob, a file is Ignore but a directory
// is None, so that the walk still descends into it.
func (o *Override) Match(path string, isDir bool) Match {
	if o.Empty() {
		return None
	}
	switch o.gi.Match(path, isDir) {
	case Ignore:
		return Whitelist
	case Whitelist:
		return Ignore
	}
	if o.gi.NumIgnores() > 0 && !isDir {
		return Ignore
	}
	return None
}

// Empty reports whether the matcher has no globs (it then matches nothing).
func (o *Override) Empty() bool { return o == nil || o.gi.Len() == 0 }
