// Package search runs one matcher over one input the way ripgrep 13's
// grep-searcher does: line by line over a rolling 64 KiB buffer (or over a
// whole slice, or across lines in multiline mode), with before/after
// context, passthru, inverted matching and NUL-byte binary detection, and
// reports what it finds to a Sink (the printers).
package search

import "github.com/evgrep/evgrep/matcher"

// BinaryMode is how NUL bytes are treated.
type BinaryMode int

// Binary detection modes, as grep-searcher's BinaryDetection.
const (
	// BinaryNone searches NUL bytes like any other byte (-a, --null-data).
	BinaryNone BinaryMode = iota
	// BinaryQuit stops searching at the first NUL (files found by the walk).
	BinaryQuit
	// BinaryConvert treats NUL as a line terminator and lets the printer
	// stop at the first match after it (files named on the command line).
	BinaryConvert
)

// ContextKind tells before, after and passthru ("other") context apart.
type ContextKind int

// Context kinds.
const (
	ContextBefore ContextKind = iota
	ContextAfter
	ContextOther
)

// Match is one matching line, or a block of lines in multiline mode.
type Match struct {
	// Bytes are the line(s), terminators included.
	Bytes []byte
	// AbsOffset is the byte offset of Bytes[0] in the (decoded) input.
	AbsOffset int64
	// LineNumber is the 1-based number of the first line (0 when line
	// numbers are not tracked).
	LineNumber uint64
	// Buffer and Start locate Bytes inside the search buffer, so that a
	// multiline printer can re-run the matcher with the surrounding bytes.
	Buffer []byte
	Start  int
}

// Context is one context line.
type Context struct {
	Bytes      []byte
	Kind       ContextKind
	AbsOffset  int64
	LineNumber uint64
}

// Finish summarises one search.
type Finish struct {
	ByteCount    int64
	BinaryOffset int64 // -1 when no NUL byte was seen
}

// Sink receives the results of one search, in order. Returning false from
// Matched or Context stops the search.
type Sink interface {
	Matched(s *Searcher, m *Match) (bool, error)
	Context(s *Searcher, c *Context) (bool, error)
	ContextBreak(s *Searcher) (bool, error)
	BinaryData(s *Searcher, offset int64) (bool, error)
	Finish(s *Searcher, f *Finish) error
}

// Matcher is what the searcher needs from a compiled pattern.
type Matcher interface {
	// NextLine returns the bounds of the first line in buf[from:] that
	// contains a match (end includes the terminator when present).
	NextLine(buf []byte, from int) (start, end int, ok bool)
	// IsMatch reports whether a line (without terminator) matches.
	IsMatch(line []byte) bool
	// FindAll appends every match in buf, in order (multiline mode).
	FindAll(buf []byte, dst []matcher.Range) []matcher.Range
}

// abortError is an error a Matcher panics with when its engine gives up on
// a search (PCRE2's match limit): the methods of Matcher return no errors,
// so SearchSlice and SearchReader recover it and return it as the input's
// error, as rg reports a matcher error for the file it was searching.
type abortError interface {
	error
	SearchAbort()
}

// recoverAbort turns a recovered abortError into *err; any other panic
// goes on.
func recoverAbort(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(abortError); ok {
			*err = e
			return
		}
		panic(r)
	}
}
