package ignore

import (
	"strings"
)

// GlobOptions select globset's knobs. The zero value is not rg's default:
// rg's globs (gitignore lines, -g, types) use BackslashEscape on Unix, and
// gitignore lines and -g globs also use LiteralSeparator.
type GlobOptions struct {
	// LiteralSeparator stops '*', '?' (and so "*" inside "**"-free parts)
	// from matching '/'.
	LiteralSeparator bool
	// CaseInsensitive folds ASCII letters (only those, as rg does).
	CaseInsensitive bool
	// BackslashEscape makes '\' escape the next character; otherwise '\'
	// is a literal character.
	BackslashEscape bool
	// AllowUnclosedClass reads a '[' that has no ']' as a literal '['
	// instead of failing, as ripgrep 15 does for gitignore lines (not for
	// -g globs or type globs).
	AllowUnclosedClass bool
}

// Glob is a compiled glob in globset's dialect. It is immutable and safe
// for concurrent use.
type Glob struct {
	pattern  string
	opts     GlobOptions
	strategy strategy
	lit      string      // the literal the strategy compares
	re       pathMatcher // for stratRegex and stratRequiredExtension
	// tooDeep marks a glob whose regular expression ripgrep's parser
	// refuses (see NestError); it is never matched.
	tooDeep bool
}

// CompileGlob compiles one glob in globset's dialect (*, ?, [..], [!..],
// [^..], **, {a,b} with nesting, escapes). Invalid UTF-8 in pattern is read
// as one U+FFFD per bad byte. A glob that does not parse gives a
// *GlobError; one whose alternates nest too deeply for ripgrep gives a
// *NestError (with Index 0: the glob alone).
func CompileGlob(pattern string, opts GlobOptions) (*Glob, error) {
	g, err := compileGlob(pattern, opts, engineAuto)
	if err != nil {
		return nil, err
	}
	if g.tooDeep {
		return nil, &NestError{}
	}
	return g, nil
}

// compileGlob compiles a glob. An engine other than engineAuto skips the
// literal strategies and runs that engine (tests compare them).
func compileGlob(pattern string, opts GlobOptions, eng engine) (*Glob, *GlobError) {
	pg, perr := parseGlob(pattern, opts.BackslashEscape, opts.AllowUnclosedClass)
	if perr != nil {
		return nil, perr
	}
	toks := pg.toks
	g := &Glob{pattern: pattern, opts: opts}
	if tooDeep(pg, opts) {
		// Deep alternates leave no literal strategy: globset runs it as a
		// regular expression, which ripgrep then fails to build.
		g.strategy, g.tooDeep = stratRegex, true
		return g, nil
	}
	if eng != engineAuto {
		g.strategy = stratRegex
	} else {
		g.strategy, g.lit = chooseStrategy(toks, opts)
	}
	if g.strategy == stratRegex || g.strategy == stratRequiredExtension {
		m, err := compileTree(buildTree(toks, opts), eng)
		if err != nil {
			return nil, &GlobError{Glob: pattern, Kind: ErrRegex, Detail: err.Error()}
		}
		g.re = m
	}
	return g, nil
}

// String returns the glob as written.
func (g *Glob) String() string { return g.pattern }

// Match reports whether the whole path, with '/' separators, matches. The
// verdict is globset's GlobSet verdict (the one rg uses everywhere): a glob
// answered from the basename or the extension alone never matches a path
// whose last component is empty, "." or ".." (see the package comment).
func (g *Glob) Match(path string) bool {
	return g.matchCandidate(newCandidate(path))
}

// candidate is a path with globset's basename and extension: the basename
// is the last component, none when that is empty, "." or "..", the extension is the
// basename from its last '.' on (".rs" for both "a.rs" and ".rs"; "." for
// "a."). ripgrep 13's globset had no basename for any path ending in '.'.
type candidate struct {
	path string
	base string
	ext  string
}

func newCandidate(path string) candidate {
	c := candidate{path: path}
	base := path[strings.LastIndexByte(path, '/')+1:]
	if base == "" || base == "." || base == ".." {
		return c
	}
	c.base = base
	if i := strings.LastIndexByte(c.base, '.'); i >= 0 {
		c.ext = c.base[i:]
	}
	return c
}

func (g *Glob) matchCandidate(c candidate) bool {
	if g.tooDeep {
		return false
	}
	switch g.strategy {
	case stratLiteral:
		return c.path == g.lit
	case stratBasenameLiteral:
		return c.base != "" && c.base == g.lit
	case stratExtension:
		return c.ext != "" && c.ext == g.lit
	case stratPrefix:
		return strings.HasPrefix(c.path, g.lit)
	case stratSuffix:
		return strings.HasSuffix(c.path, g.lit)
	case stratComponentSuffix:
		// lit starts with '/': the suffix follows a '/' or is the whole path.
		return strings.HasSuffix(c.path, g.lit) || c.path == g.lit[1:]
	case stratRequiredExtension:
		return c.ext != "" && c.ext == g.lit && g.re.match(c.path)
	default:
		return g.re.match(c.path)
	}
}
