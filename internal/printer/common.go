package printer

import (
	"bytes"
	"strconv"

	"github.com/evgrep/evgrep/internal/search"
)

// Range is a half-open byte range.
type Range struct{ Start, End int }

// Matcher is what printers need from the compiled pattern.
type Matcher interface {
	// FindIter calls fn for every occurrence in hay starting at or after
	// from, with rg's find_iter semantics (empty matches included).
	FindIter(hay []byte, from int, fn func(start, end int) bool)
	// Replace appends to dst hay[from:to] with every occurrence that starts
	// before to replaced by the expanded template; it returns the new dst
	// and the ranges of the replacements inside the appended part.
	Replace(dst, hay []byte, from, to int, template []byte, ranges []Range) ([]byte, []Range)
}

// Options configure every printer of a run.
type Options struct {
	Color             bool
	Colors            Colors
	Heading           bool
	WithFilename      bool
	OnlyMatching      bool
	PerMatch          bool // --vimgrep
	Column            bool
	ByteOffset        bool
	Trim              bool
	Replacement       []byte
	HasReplacement    bool
	MaxColumns        int
	MaxColumnsPreview bool
	MaxCount          int64 // -1 = no limit
	FieldMatchSep     []byte
	FieldContextSep   []byte
	ContextSeparator  []byte // nil = none
	PathSeparator     byte   // 0 = keep '/'
	NullPath          bool   // -0: terminate paths with NUL
	Stats             bool
	// LineTerm is what ends printed lines that lack one: "\n", "\r\n" or "\x00".
	LineTerm []byte
	// SummaryKind selects the summary printer's output.
	SummaryKind SummaryKind
	IncludeZero bool
	// UTF16Columns adds UTF-16 columns to --json submatches (evgrep only).
	UTF16Columns bool
}

// SummaryKind selects the summary printer's output.
type SummaryKind int

// Summary kinds.
const (
	SummaryCount SummaryKind = iota
	SummaryCountMatches
	SummaryPathWithMatch
	SummaryPathWithoutMatch
	SummaryQuiet
)

// FormatPath applies --path-separator to a path.
func (o *Options) FormatPath(p string) []byte {
	b := []byte(p)
	if o.PathSeparator != 0 && o.PathSeparator != '/' {
		b = bytes.ReplaceAll(b, []byte{'/'}, []byte{o.PathSeparator})
	}
	return b
}

// out is a per-file output buffer with color helpers.
type out struct {
	opts *Options
	buf  bytes.Buffer
}

func (w *out) write(b []byte)       { w.buf.Write(b) }
func (w *out) writeString(s string) { w.buf.WriteString(s) }

func (w *out) writeSpec(spec Spec, b []byte) {
	// termcolor resets before and after every coloured field, even when the
	// spec itself holds no colour.
	if !w.opts.Color {
		w.buf.Write(b)
		return
	}
	w.buf.WriteString(spec.Start())
	w.buf.Write(b)
	w.buf.WriteString(colorReset)
}

func (w *out) writeLineTerm() { w.buf.Write(w.opts.LineTerm) }

func (w *out) writeUint(n uint64) { w.buf.WriteString(strconv.FormatUint(n, 10)) }

// findMatches records the occurrences in buf[start:end] (trimmed of its
// final line terminator) the way grep-printer's find_iter_at_in_context
// does, relative to start.
func findMatches(s *search.Searcher, m Matcher, buf []byte, start, end int, dst []Range) []Range {
	dst = dst[:0]
	hayEnd := trimTerm(s, buf[:end])
	m.FindIter(buf[:hayEnd], start, func(ms, me int) bool {
		if ms >= end {
			return false
		}
		dst = append(dst, Range{ms - start, me - start})
		return true
	})
	if n := len(dst); n > 0 && dst[n-1].Start == dst[n-1].End && dst[n-1].Start+start >= end {
		dst = dst[:n-1]
	}
	return dst
}

// trimTerm returns len(b) minus its line terminator (and a CR before LF in
// CRLF mode).
func trimTerm(s *search.Searcher, b []byte) int {
	cfg := s.Config()
	n := len(b)
	if n > 0 && b[n-1] == cfg.LineTerm {
		n--
		if cfg.CRLF && n > 0 && b[n-1] == '\r' {
			n--
		}
	}
	return n
}

// countLines counts the lines in a match block.
func countLines(b []byte, term byte) uint64 {
	if len(b) == 0 {
		return 0
	}
	n := uint64(bytes.Count(b, []byte{term}))
	if b[len(b)-1] != term {
		n++
	}
	return n
}
