// Package types is ripgrep 13's file type table and its -t/-T selection:
// the built-in definitions (the same names, globs and order as
// `rg --type-list`), --type-add (both "name:glob" and
// "name:include:a,b"), --type-clear, and a Matcher that answers, for one
// file name, None, Ignore or Whitelist the way the ignore crate's Types
// matcher does.
//
// The rules, as ripgrep 13 applies them:
//
//   - flags are applied in a fixed order whatever their order on the command
//     line: the defaults, every --type-clear, every --type-add, every -t,
//     every -T (FromFlags does exactly that);
//   - "name:glob" adds one glob: a comma is part of the glob (ripgrep 13 does
//     not split on it); "name:include:a,b" appends the current globs of a
//     and b; a name must be alphanumeric and not "all";
//   - "all" as a -t or -T name stands for every type defined at that point;
//   - globs are matched against the file name only, case-sensitively;
//   - when several selected types match a name, the last selection wins,
//     and since every -T comes after every -t, -T wins over -t;
//   - once any -t is given, a file that no selected type matches is
//     ignored, as is a file whose name is empty or ends with '.';
//   - directories are never filtered by types.
package types

import (
	"io"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evgrep/evgrep/walker/ignore"
)

// Definition is one file type: its name and its globs.
type Definition struct {
	// Name is the type's name, e.g. "rust".
	Name string
	// Globs are the file name globs of the type, e.g. "*.rs".
	Globs []string
}

// errInvalidDefinition is ripgrep's error text for a malformed --type-add.
const errInvalidDefinition = "invalid definition (format is type:glob, e.g., html:*.html)"

// Error is a type definition or selection that ripgrep rejects. Its Error
// text is ripgrep 13's (printed without any prefix).
type Error struct {
	msg string
}

// Error returns ripgrep's message.
func (e *Error) Error() string { return e.msg }

// UnrecognizedError is a -t or -T name that is not defined. Its text is
// "unrecognized file type: NAME".
type UnrecognizedError struct {
	// Name is the unknown type name.
	Name string
}

// Error returns ripgrep's message.
func (e *UnrecognizedError) Error() string {
	return "unrecognized file type: " + e.Name
}

// selection is one -t (negated false) or -T (negated true) name.
type selection struct {
	name    string
	negated bool
}

// Builder collects type definitions and selections. The zero value is not
// usable; call NewBuilder or NewDefaultBuilder.
type Builder struct {
	defs map[string][]string
	sels []selection
}

// NewBuilder returns a builder with no definitions.
func NewBuilder() *Builder {
	return &Builder{defs: make(map[string][]string)}
}

// NewDefaultBuilder returns a builder holding ripgrep 13's built-in types.
func NewDefaultBuilder() *Builder {
	b := NewBuilder()
	for _, d := range defaultTypes {
		b.defs[d.Name] = append([]string(nil), d.Globs...)
	}
	return b
}

// Flags are the file type flags of one command line, each list in
// command-line order.
type Flags struct {
	// Clear holds the --type-clear names.
	Clear []string
	// Add holds the --type-add definitions.
	Add []string
	// Select holds the -t/--type names.
	Select []string
	// Negate holds the -T/--type-not names.
	Negate []string
}

// FromFlags returns a builder with the built-in types and the flags applied
// in ripgrep 13's order: every clear, then every add, then every select,
// then every negate. The first invalid --type-add is returned as an error.
func FromFlags(f Flags) (*Builder, error) {
	b := NewDefaultBuilder()
	for _, name := range f.Clear {
		b.Clear(name)
	}
	for _, def := range f.Add {
		if err := b.Add(def); err != nil {
			return nil, err
		}
	}
	for _, name := range f.Select {
		b.Select(name)
	}
	for _, name := range f.Negate {
		b.Negate(name)
	}
	return b, nil
}

// Clear removes the definition of name (--type-clear). Clearing an unknown
// name, or "all", does nothing.
func (b *Builder) Clear(name string) {
	delete(b.defs, name)
}

// Add applies one --type-add definition: "name:glob" appends glob to name
// (creating the type), "name:include:a,b" appends the current globs of the
// types a and b. A malformed definition, an invalid name or an unknown
// included type is an error with ripgrep's "invalid definition" text, and
// leaves the types added before the failing part in place, as ripgrep does.
func (b *Builder) Add(def string) error {
	parts := strings.Split(def, ":")
	switch len(parts) {
	case 2:
		if parts[0] == "" || parts[1] == "" {
			return &Error{msg: errInvalidDefinition}
		}
		return b.addGlob(parts[0], parts[1])
	case 3:
		if parts[0] == "" || parts[1] != "include" || parts[2] == "" {
			return &Error{msg: errInvalidDefinition}
		}
		for _, inc := range strings.Split(parts[2], ",") {
			globs, ok := b.defs[inc]
			if !ok {
				return &Error{msg: errInvalidDefinition}
			}
			// Copy first: inc may be the type being extended.
			for _, g := range append([]string(nil), globs...) {
				if err := b.addGlob(parts[0], g); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return &Error{msg: errInvalidDefinition}
}

// addGlob appends one glob to a type, validating its name.
func (b *Builder) addGlob(name, glob string) error {
	if !validName(name) {
		return &Error{msg: errInvalidDefinition}
	}
	b.defs[name] = append(b.defs[name], glob)
	return nil
}

// validName reports whether name may be defined: not "all", and made of
// letters and digits only (Unicode ones included, as in Rust's
// char::is_alphanumeric).
func validName(name string) bool {
	if name == "all" {
		return false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			return false
		}
	}
	return true
}

// Select adds a -t selection; "all" selects every type defined now.
func (b *Builder) Select(name string) { b.addSelection(name, false) }

// Negate adds a -T selection; "all" negates every type defined now.
func (b *Builder) Negate(name string) { b.addSelection(name, true) }

func (b *Builder) addSelection(name string, negated bool) {
	if name != "all" {
		b.sels = append(b.sels, selection{name: name, negated: negated})
		return
	}
	for _, n := range b.names() {
		b.sels = append(b.sels, selection{name: n, negated: negated})
	}
}

// names returns the defined type names in byte order.
func (b *Builder) names() []string {
	names := make([]string, 0, len(b.defs))
	for n := range b.defs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Definitions returns every definition sorted by name, each with its globs
// sorted, which is what `rg --type-list` prints.
func (b *Builder) Definitions() []Definition {
	names := b.names()
	defs := make([]Definition, 0, len(names))
	for _, n := range names {
		globs := append([]string(nil), b.defs[n]...)
		sort.Strings(globs)
		defs = append(defs, Definition{Name: n, Globs: globs})
	}
	return defs
}

// WriteList writes defs in the format of `rg --type-list`, one
// "name: glob, glob" line each. It reports whether it wrote any line
// (rg exits 1 when it did not).
func WriteList(w io.Writer, defs []Definition) (bool, error) {
	var sb strings.Builder
	for _, d := range defs {
		sb.WriteString(d.Name)
		sb.WriteString(": ")
		sb.WriteString(strings.Join(d.Globs, ", "))
		sb.WriteByte('\n')
	}
	_, err := io.WriteString(w, sb.String())
	return len(defs) > 0, err
}

// Build compiles the selections into a Matcher. An unknown selected name
// is an *UnrecognizedError; a selected glob that does not parse is an
// error with ripgrep's "error parsing glob" text. Globs of types that are
// defined but not selected are never compiled.
func (b *Builder) Build() (*Matcher, error) {
	m := &Matcher{
		ext:     make(map[string]int),
		literal: make(map[string]int),
	}
	for i, sel := range b.sels {
		if !sel.negated {
			m.hasSelected = true
		}
		globs, ok := b.defs[sel.name]
		if !ok {
			return nil, &UnrecognizedError{Name: sel.name}
		}
		m.negated = append(m.negated, sel.negated)
		for _, g := range globs {
			if err := m.add(g, i); err != nil {
				return nil, err
			}
		}
	}
	// Later globs are checked first so that the scan can stop early.
	sort.SliceStable(m.suffixes, func(a, c int) bool { return m.suffixes[a].sel > m.suffixes[c].sel })
	sort.SliceStable(m.globs, func(a, c int) bool { return m.globs[a].sel > m.globs[c].sel })
	return m, nil
}

// globMeta are the bytes that make a glob more than a literal.
const globMeta = "*?[]{}\\"

// Matcher answers whether a file name is selected by -t/-T. It is
// immutable and safe for concurrent use. A nil *Matcher matches nothing.
type Matcher struct {
	// hasSelected is true when at least one -t (not -T) was given.
	hasSelected bool
	// negated[i] says whether selection i is a -T.
	negated []bool
	// ext maps an extension (the bytes after the last '.') to the last
	// selection holding the glob "*.ext".
	ext map[string]int
	// literal maps a whole file name to the last selection naming it.
	literal map[string]int
	// suffixes are globs "*LITERAL" not covered by ext.
	suffixes []suffixGlob
	// globs are all other globs.
	globs []compiledGlob
	// count is the number of globs added.
	count int
}

type suffixGlob struct {
	suffix string
	sel    int
}

type compiledGlob struct {
	glob *ignore.Glob
	sel  int
}

// add registers one glob of selection sel, choosing the cheapest way to
// match it.
func (m *Matcher) add(g string, sel int) error {
	m.count++
	switch {
	case !utf8.ValidString(g):
		// The glob engine reads a glob as UTF-8 text: leave the odd
		// bytes to it.
	case !strings.ContainsAny(g, globMeta):
		m.literal[g] = max(m.literal[g], sel)
		return nil
	case g[0] == '*' && !strings.ContainsAny(g[1:], globMeta):
		rest := g[1:]
		if len(rest) > 1 && rest[0] == '.' && !strings.Contains(rest[1:], ".") {
			if old, ok := m.ext[rest[1:]]; !ok || old < sel {
				m.ext[rest[1:]] = sel
			}
			return nil
		}
		m.suffixes = append(m.suffixes, suffixGlob{suffix: rest, sel: sel})
		return nil
	}
	cg, err := ignore.CompileGlob(g, ignore.GlobOptions{LiteralSeparator: true, BackslashEscape: true})
	if err != nil {
		return err
	}
	m.globs = append(m.globs, compiledGlob{glob: cg, sel: sel})
	return nil
}

// Empty reports whether the matcher has no globs at all, in which case it
// never says anything but None (as when no -t or -T was given).
func (m *Matcher) Empty() bool { return m == nil || m.count == 0 }

// HasSelected reports whether some -t (not only -T) was given.
func (m *Matcher) HasSelected() bool { return m != nil && m.hasSelected }

// Match says whether path (of which only the file name counts) is
// whitelisted by a -t, ignored by a -T, ignored for matching no -t, or
// neither. Directories always get None.
func (m *Matcher) Match(path string, isDir bool) ignore.Match {
	if isDir || m.Empty() {
		return ignore.None
	}
	name, ok := fileName(path)
	if !ok {
		if m.hasSelected {
			return ignore.Ignore
		}
		return ignore.None
	}
	best := -1
	if sel, ok := m.literal[name]; ok {
		best = sel
	}
	if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
		if sel, ok := m.ext[name[dot+1:]]; ok && sel > best {
			best = sel
		}
	}
	for _, s := range m.suffixes {
		if s.sel <= best {
			break
		}
		if strings.HasSuffix(name, s.suffix) {
			best = s.sel
			break
		}
	}
	for _, g := range m.globs {
		if g.sel <= best {
			break
		}
		if g.glob.Match(name) {
			best = g.sel
			break
		}
	}
	switch {
	case best >= 0 && m.negated[best]:
		return ignore.Ignore
	case best >= 0:
		return ignore.Whitelist
	case m.hasSelected:
		return ignore.Ignore
	}
	return ignore.None
}

// fileName returns the last path component of path, as the ignore crate's
// file_name does: no name for an empty path or one that ends with '.'.
func fileName(path string) (string, bool) {
	if path == "" || path[len(path)-1] == '.' {
		return "", false
	}
	return path[strings.LastIndexByte(path, '/')+1:], true
}
