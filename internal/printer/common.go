package printer

import (
	"bytes"
	"strconv"

	"github.com/evgrep/evgrep/internal/growbuf"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/matcher"
)

// Range is a half-open byte range.
type Range = matcher.Range

// Matcher is what printers need from the compiled pattern.
type Matcher interface {
	// OccurrencesIn appends the occurrences in buf[start:end] (end before
	// the line terminator) with buf[:start] as look-behind context, relative
	// to start, with rg's iteration rules (empty matches included).
	OccurrencesIn(buf []byte, start, end int, dst []Range) []Range
	// EachOccurrenceIn calls fn with each occurrence OccurrencesIn would
	// append, in order, without listing them (a huge line may hold a
	// billion); it stops when fn returns false.
	EachOccurrenceIn(buf []byte, start, end int, fn func(Range) bool)
	// Replace appends hay with every occurrence replaced by the expanded
	// template, and the ranges of the replacements in the result.
	Replace(dst, hay, template []byte, ranges []Range) ([]byte, []Range)
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
	MaxCount          int64 // -m, -1 = no limit (search.Config.MaxMatches enforces it, as rg 15's searcher does)
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
	// Hyperlink is --hyperlink-format (nil: none).
	Hyperlink *Hyperlink
}

// HyperlinksOn reports whether paths are printed as hyperlinks: a format
// is set, colours are on and paths keep their separator (as rg 15).
func (o *Options) HyperlinksOn() bool {
	return o.Hyperlink != nil && o.Color && o.PathSeparator == 0
}

// AppendLinkOpen starts the hyperlink of a path printed on its own
// (--files), when hyperlinks are on.
func (o *Options) AppendLinkOpen(dst []byte, path string) []byte {
	if hp := o.hyperlinkPath(path); hp != nil {
		return o.Hyperlink.appendOpen(dst, hp, 0, 0)
	}
	return dst
}

// AppendLinkClose ends what AppendLinkOpen started.
func (o *Options) AppendLinkClose(dst []byte) []byte {
	if o.HyperlinksOn() {
		return append(dst, hyperlinkClose...)
	}
	return dst
}

// hyperlinkPath is the {path} of a printed path, nil without hyperlinks
// (and for standard input).
func (o *Options) hyperlinkPath(path string) []byte {
	if !o.HyperlinksOn() || path == "<stdin>" {
		return nil
	}
	return HyperlinkPath(path)
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
	// SummaryQuietWithoutMatch is -q with --files-without-match: nothing
	// printed, success when a file has no match.
	SummaryQuietWithoutMatch
)

// FormatPath applies --path-separator to a path.
func (o *Options) FormatPath(p string) []byte {
	b := []byte(p)
	if o.PathSeparator != 0 && o.PathSeparator != '/' {
		b = bytes.ReplaceAll(b, []byte{'/'}, []byte{o.PathSeparator})
	}
	return b
}

// AppendPath appends p with --path-separator applied to dst, as FormatPath
// formats it, without a copy of its own.
func (o *Options) AppendPath(dst []byte, p string) []byte {
	if o.PathSeparator == 0 || o.PathSeparator == '/' {
		return append(dst, p...)
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '/' {
			c = o.PathSeparator
		}
		dst = append(dst, c)
	}
	return dst
}

// out is a per-file output buffer with color helpers.
type out struct {
	opts *Options
	buf  growbuf.Buffer // one file's output (growbuf: it may hold a huge line)
	esc  uint64         // bytes of escape sequences in buf (writeEsc)
}

func (w *out) write(b []byte) { w.buf.Write(b) }

// writeEsc writes an escape sequence (colour, hyperlink), which rg does
// not count in "bytes printed".
func (w *out) writeEsc(s string) {
	w.buf.WriteString(s)
	w.esc += uint64(len(s))
}

// printed is what --stats counts as printed: the bytes written but the
// escape sequences.
func (w *out) printed() uint64      { return uint64(w.buf.Written()) - w.esc }
func (w *out) writeString(s string) { w.buf.WriteString(s) }

// reset empties the buffer for the next file.
func (w *out) reset() {
	w.buf.Reset()
	w.esc = 0
}

func (w *out) writeSpec(spec Spec, b []byte) {
	// termcolor resets before and after every coloured field, even when the
	// spec itself holds no colour.
	if !w.opts.Color {
		w.buf.Write(b)
		return
	}
	w.writeEsc(spec.Start())
	w.buf.Write(b)
	w.writeEsc(colorReset)
}

func (w *out) writeLineTerm() { w.buf.Write(w.opts.LineTerm) }

// writeLinkedPath writes a path on its own (a heading, a summary line),
// inside a hyperlink to its first line when hpath is set.
func (w *out) writeLinkedPath(spec Spec, path, hpath []byte) {
	if hpath == nil {
		w.writeSpec(spec, path)
		return
	}
	w.writeEsc(string(w.opts.Hyperlink.appendOpen(nil, hpath, 0, 0)))
	w.writeSpec(spec, path)
	w.writeEsc(hyperlinkClose)
}

func (w *out) writeUint(n uint64) { w.buf.WriteString(strconv.FormatUint(n, 10)) }

// findMatches records the occurrences in buf[start:end] (trimmed of its
// final line terminator) the way grep-printer's find_iter_at_in_context
// does, relative to start.
func findMatches(s *search.Searcher, m Matcher, buf []byte, start, end int, multi bool, dst []Range) []Range {
	if s.Config().Multiline && multi {
		// Multiline blocks keep their terminator and may look ahead a
		// little past it, but only matches starting inside count.
		hayEnd := min(len(buf), end+multilineLookAhead)
		dst = m.OccurrencesIn(buf, start, hayEnd, dst[:0])
		n := 0
		for _, r := range dst {
			if r.Start < end-start {
				dst[n] = r
				n++
			}
		}
		return dst[:n]
	}
	hayEnd := max(start, trimTerm(s, buf[:end]))
	dst = m.OccurrencesIn(buf, start, hayEnd, dst[:0])
	if n := len(dst); n > 0 && pastLine(dst[n-1], start, hayEnd, end) {
		dst = dst[:n-1]
	}
	return dst
}

// countMatches returns len(findMatches(s, m, buf, start, end, multi, nil))
// without building the list: a huge line with millions of matches costs
// no more memory than one (--count-matches, --stats).
func countMatches(s *search.Searcher, m Matcher, buf []byte, start, end int, multi bool) uint64 {
	var n uint64
	if s.Config().Multiline && multi {
		hayEnd := min(len(buf), end+multilineLookAhead)
		m.EachOccurrenceIn(buf, start, hayEnd, func(r Range) bool {
			if r.Start >= end-start {
				return false // the occurrences come in order
			}
			n++
			return true
		})
		return n
	}
	hayEnd := max(start, trimTerm(s, buf[:end]))
	m.EachOccurrenceIn(buf, start, hayEnd, func(r Range) bool {
		if !pastLine(r, start, hayEnd, end) {
			n++
		}
		return true
	})
	return n
}

// pastLine reports whether r (relative to start) is the empty match at the
// end of a last line that has no terminator (hayEnd == end): rg counts only
// matches that start before the end of the line with its terminator.
func pastLine(r Range, start, hayEnd, end int) bool {
	return hayEnd == end && r.Start == r.End && r.Start >= hayEnd-start
}

// multilineLookAhead is how far past a multiline match block the printers
// let the regex look (grep-printer's MAX_LOOK_AHEAD).
const multilineLookAhead = 128

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
