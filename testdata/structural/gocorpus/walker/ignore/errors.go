package ignore

import "fmt"

// ErrorKind says why a glob failed to parse.
type ErrorKind int

const (
	// ErrUnclosedClass is a '[' without its ']'.
	ErrUnclosedClass ErrorKind = iota + 1
	// ErrInvalidRange is a class range whose end sorts before its start.
	ErrInvalidRange
	// ErrUnclosedAlternates is a '{' without its '}'.
	ErrUnclosedAlternates
	// ErrUnopenedAlternates is a '}' with no '{' open.
	ErrUnopenedAlternates
	// ErrDanglingEscape is a trailing '\' (with backslash escapes on).
	ErrDanglingEscape
	// ErrRegex is a glob too large for the fallback regular expression
	// engine.
	ErrRegex
)

// GlobError is a glob that failed to parse. Its Error text is rg's, e.g.
// "error parsing glob '[a': unclosed character class; missing ']'" (rg 15
// prints it after "rg: "; rg 13 printed a bad -g glob without it).
type GlobError struct {
	// Glob is the glob as written (for an ignore-file line: the line with
	// trailing whitespace trimmed, including any leading '!' or '/').
	Glob string
	// Kind says what is wrong with it.
	Kind ErrorKind
	// RangeStart and RangeEnd are the bounds of an ErrInvalidRange.
	RangeStart, RangeEnd rune
	// Detail is the regular expression engine's message for ErrRegex.
	Detail string
}

// Error returns rg's message for the glob.
func (e *GlobError) Error() string {
	return fmt.Sprintf("error parsing glob '%s': %s", e.Glob, e.kindText())
}

func (e *GlobError) kindText() string {
	switch e.Kind {
	case ErrUnclosedClass:
		return "unclosed character class; missing ']'"
	case ErrInvalidRange:
		return fmt.Sprintf("invalid range; '%c' > '%c'", e.RangeStart, e.RangeEnd)
	case ErrUnclosedAlternates:
		return "unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)"
	case ErrUnopenedAlternates:
		return "unopened alternate group; missing '{' (maybe escape '}' with '[}]'?)"
	case ErrDanglingEscape:
		return "dangling '\\'"
	case ErrRegex:
		return e.Detail
	}
	return "invalid glob"
}

// LineError is a line of an ignore file that failed to compile. Its Error
// text is rg's without the file name, e.g. "line 2: error parsing glob
// '[a': unclosed character class; missing ']'"; rg prints it as
// "<ignore file path>: " followed by that text, and goes on.
type LineError struct {
	// Line is the 1-based line number.
	Line int
	// Err is the glob's error.
	Err *GlobError
}

// Error returns "line N: " and the glob's error.
func (e *LineError) Error() string {
	return fmt.Sprintf("line %d: %s", e.Line, e.Err.Error())
}

// Unwrap returns the glob's error.
func (e *LineError) Unwrap() error { return e.Err }

// NestError is a set of globs that ripgrep cannot compile because one of
// them nests alternates too deeply for its regular expression parser
// (which allows 250 levels): a -g glob, or a line of an ignore file, that
// makes the whole set (all -g globs, or the whole file) fail. Its Error
// text is ripgrep's, "error parsing pattern N", where N counts the globs
// of the set that ripgrep runs as regular expressions.
type NestError struct {
	// Index is N.
	Index int
}

// Error returns ripgrep's message.
func (e *NestError) Error() string { return fmt.Sprintf("error parsing pattern %d", e.Index) }
