package ignore

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Match is a matcher's verdict on one path.
type Match int

const (
	// None means no pattern matched.
	None Match = iota
	// Ignore means the last matching pattern ignores the path.
	Ignore
	// Whitelist means the last matching pattern is a negation (!pattern)
	// or an override include.
	Whitelist
)

// String returns "none", "ignore" or "whitelist".
func (m Match) String() string {
	switch m {
	case Ignore:
		return "ignore"
	case Whitelist:
		return "whitelist"
	}
	return "none"
}

// Gitignore holds the patterns of one ignore file (or --ignore-file),
// rooted at a directory. It is immutable and safe for concurrent use.
type Gitignore struct {
	root      string
	set       globSet
	whitelist []bool
	onlyDir   []bool
	ignores   int
}

// utf8BOM is the byte order mark a first line may start with.
var utf8BOM = []byte("\ufeff")

// gitignoreOptions of rg's gitignore globs: '*' never crosses '/', and
// '\' escapes.
func gitignoreOptions(caseInsensitive bool) GlobOptions {
	return GlobOptions{LiteralSeparator: true, CaseInsensitive: caseInsensitive, BackslashEscape: true}
}

// NewGitignore holds the patterns of one ignore file (or --ignore-file),
// rooted at dir. Lines that fail to compile are skipped and reported in the
// returned errors (each a *LineError); never a panic. An unclosed '[' is a
// literal. A line whose alternates nest too deeply for ripgrep empties the
// whole matcher, as in ripgrep, and adds a *NestError.
//
// Lines are read as rg reads them: split at '\n', a '\r' before the '\n'
// dropped, a UTF-8 BOM at the start of the first line dropped. A line that is
// not valid UTF-8 ends the file there, silently, as in rg 13: the lines
// before it count, the rest do not.
func NewGitignore(dir string, data []byte, caseInsensitive bool) (*Gitignore, []error) {
	g := &Gitignore{root: dir}
	if strings.HasPrefix(dir, "./") {
		g.root = dir[2:]
	}
	var globs []*Glob
	var errs []error
	opts := gitignoreOptions(caseInsensitive)
	opts.AllowUnclosedClass = true
	for lineno := 1; len(data) > 0; lineno++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
			line = bytes.TrimSuffix(line, []byte{'\r'})
		} else {
			data = nil
		}
		if !utf8.Valid(line) {
			break
		}
		if lineno == 1 {
			// As git does, ripgrep 15 drops a leading BOM.
			for bytes.HasPrefix(line, utf8BOM) {
				line = line[len(utf8BOM):]
			}
		}
		gl, ok, err := compileLine(string(line), opts)
		if err != nil {
			errs = append(errs, &LineError{Line: lineno, Err: err})
			continue
		}
		if !ok {
			continue
		}
		globs = append(globs, gl.glob)
		g.whitelist = append(g.whitelist, gl.whitelist)
		g.onlyDir = append(g.onlyDir, gl.onlyDir)
		if !gl.whitelist {
			g.ignores++
		}
	}
	set, err := newGlobSet(globs)
	if err != nil {
		return &Gitignore{root: g.root}, append(errs, err)
	}
	g.set = set
	return g, errs
}

// lineGlob is one compiled gitignore line.
type lineGlob struct {
	glob      *Glob
	whitelist bool
	onlyDir   bool
}

// compileLine turns one gitignore line into a glob the way the ignore crate
// does; ok is false for a blank line or a comment.
func compileLine(line string, opts GlobOptions) (lineGlob, bool, *GlobError) {
	var lg lineGlob
	if strings.HasPrefix(line, "#") {
		return lg, false, nil
	}
	if !strings.HasSuffix(line, `\ `) {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
	}
	if line == "" {
		return lg, false, nil
	}
	original := line
	absolute := false
	if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	} else {
		if strings.HasPrefix(line, "!") {
			lg.whitelist = true
			line = line[1:]
		}
		if strings.HasPrefix(line, "/") {
			// Anchored to the ignore file's directory.
			line = line[1:]
			absolute = true
		}
	}
	if strings.HasSuffix(line, "/") {
		lg.onlyDir = true
		line = line[:len(line)-1]
		// An escaped trailing slash ("foo\/") loses its escape too.
		line = strings.TrimSuffix(line, `\`)
	}
	actual := line
	// Without a '/' the glob matches at any depth.
	if !absolute && !strings.Contains(line, "/") &&
		!strings.HasPrefix(actual, "**/") && actual != "**" {
		actual = "**/" + actual
	}
	// "dir/**" matches what is inside dir, not dir itself.
	if strings.HasSuffix(actual, "/**") {
		actual += "/*"
	}
	glob, err := compileGlob(actual, opts, engineAuto)
	if err != nil {
		err.Glob = original
		return lg, false, err
	}
	lg.glob = glob
	return lg, true, nil
}

// Match matches path (relative to the root directory with '/' separators,
// or a dot-prefixed or absolute path beneath it) — the last matching line
// wins; a line ending in '/' only matches when isDir.
//
// The path is stripped exactly as the ignore crate strips it: a leading
// "./" goes; then, unless the root is "." or the path has no '/', a
// leading copy of the root (a byte prefix, not a path-component prefix)
// goes, and after it one '/'.
func (g *Gitignore) Match(path string, isDir bool) Match {
	if g == nil || len(g.set.globs) == 0 {
		return None
	}
	i := g.set.best(newCandidate(g.strip(path)), g.onlyDir, isDir)
	switch {
	case i < 0:
		return None
	case g.whitelist[i]:
		return Whitelist
	default:
		return Ignore
	}
}

func (g *Gitignore) strip(path string) string {
	path = strings.TrimPrefix(path, "./")
	if g.root != "." && strings.IndexByte(path, '/') >= 0 && strings.HasPrefix(path, g.root) {
		path = strings.TrimPrefix(path[len(g.root):], "/")
	}
	return path
}

// Len returns the number of compiled patterns (0: the matcher is empty and
// matches nothing).
func (g *Gitignore) Len() int {
	if g == nil {
		return 0
	}
	return len(g.set.globs)
}

// NumIgnores returns the number of compiled patterns that ignore.
func (g *Gitignore) NumIgnores() int {
	if g == nil {
		return 0
	}
	return g.ignores
}

// NumWhitelists returns the number of compiled patterns that whitelist
// (lines starting with '!').
func (g *Gitignore) NumWhitelists() int { return g.Len() - g.NumIgnores() }

// Dir returns the root directory the patterns are matched relative to (as
// given, less a leading "./").
func (g *Gitignore) Dir() string {
	if g == nil {
		return ""
	}
	return g.root
}
