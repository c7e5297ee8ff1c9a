// Package pcre2 is evgrep's second regex engine: PCRE2 (look-around,
// backreferences, possessive quantifiers, atomic groups, \K, …) for rg's
// -P/--pcre2 and --engine auto. It is pure Go (PCRE2's C source translated
// by ccgo, from go.elara.ws/pcre), so a CGO_ENABLED=0 build keeps it.
//
// A Matcher serves the searcher and the printers as the default
// matcher.Matcher does, with the semantics of ripgrep's grep-pcre2: the
// patterns are wrapped and joined as its RegexMatcherBuilder does, lines
// are matched one at a time (PCRE2 gives rg no line-terminator guarantee),
// and a multiline search restarts on the rest of the buffer after each
// match. The package knows nothing of flags or printing.
package pcre2

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.elara.ws/pcre/lib"

	"github.com/evgrep/evgrep/matcher"
)

// Range is a half-open byte range.
type Range = matcher.Range

// Matcher is a compiled PCRE2 pattern set. It is safe for concurrent use.
type Matcher struct {
	c    *code
	term byte
	crlf bool
	// req is a byte every match holds (PCRE2's last or first code unit)
	// when hasReq: lines without it are not handed to PCRE2.
	req    byte
	hasReq bool
	utf    bool // UTF mode: offsets inside a character are skipped
	// pre finds the lines an over-approximation of the pattern matches
	// (prefilter.go): the others cannot match and are not handed to
	// PCRE2. nil: every line is.
	pre *matcher.Matcher
}

// Version is the PCRE2 library's version, "10.40".
func Version() string { return lib.DPACKAGE_VERSION }

// VersionText is rg's --pcre2-version line for this build.
func VersionText() string {
	jit := "unavailable"
	if jitAvailable() {
		jit = "available"
	}
	return "PCRE2 " + Version() + " is available (JIT is " + jit + ")"
}

// escape makes a -F pattern literal: every ASCII punctuation character is
// escaped (PCRE2 accepts an escaped non-alphanumeric ASCII character as
// itself).
func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == ' ') {
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

// hasUppercaseLiteral is grep-pcre2's smart-case test: an uppercase
// character not right after a backslash.
func hasUppercaseLiteral(p string) bool {
	skip := false
	for _, r := range p {
		switch {
		case skip:
			skip = false
		case r == '\\':
			skip = true
		case unicode.IsUpper(r):
			return true
		}
	}
	return false
}

// Pattern is the single pattern grep-pcre2 compiles for o: each pattern
// wrapped in a group (escaped with -F), alternated, then wrapped for -x or
// -w. It also reports whether smart case turns caseless matching on.
func Pattern(o matcher.Options) (string, bool) {
	pats := make([]string, len(o.Patterns))
	for i, p := range o.Patterns {
		// rg 15.2 wraps a (?x) pattern as any other: a '#' comment in it
		// swallows the closing parenthesis (a compile error), as there.
		if o.Fixed {
			p = escape(p)
		}
		pats[i] = "(?:" + p + ")"
	}
	single := strings.Join(pats, "|")
	if len(o.Patterns) == 0 {
		single = `[^\S\s]`
	}
	caseless := o.Case == matcher.Insensitive || o.Case == matcher.Smart && !hasUppercaseLiteral(single)
	switch {
	case o.Line:
		single = `(?m:^)(?:` + single + `)(?m:$)`
	case o.Word:
		single = `(?<!\w)(?:` + single + `)(?!\w)`
	}
	return single, caseless
}

// Compile builds a Matcher for o as rg's PCRE2 matcher: multi-line anchors,
// UTF and Unicode properties unless NoUnicode (with invalid UTF-8 never
// matching), dot-all with -U --multiline-dotall, ANYCRLF newlines with
// --crlf. Errors are in rg's words ("PCRE2: error compiling pattern at
// offset N: …").
func Compile(o matcher.Options) (*Matcher, error) {
	pat, caseless := Pattern(o)
	opts := uint32(optMultiline)
	if caseless {
		opts |= optCaseless
	}
	if !o.NoUnicode {
		opts |= optUTF | optUCP | optInvalidUTF
	}
	if o.Multiline && o.DotAll {
		opts |= optDotAll
	}
	c, err := compileCode(pat, opts, o.CRLF)
	if err != nil {
		return nil, err
	}
	m := &Matcher{c: c, term: o.LineTerminator, crlf: o.CRLF, utf: !o.NoUnicode}
	if !caseless && !hasInlineFlags(pat) {
		// PCRE2 reports these code units without saying whether they are
		// caseless (a (?i) part), so only fully case-sensitive patterns
		// use them.
		m.req, m.hasReq = c.requiredByte()
		// PCRE2 also records a code unit whose alternatives differ only
		// in case ('A' for `\x41b|ab`) without saying so: a letter (or
		// a byte of a wider character) may be either case.
		if m.req >= 0x80 || 'a' <= m.req|0x20 && m.req|0x20 <= 'z' {
			m.hasReq = false
		}
	}
	m.pre = compilePrefilter(pat, caseless, o)
	return m, nil
}

// hasInlineFlags reports whether p may set options inline: "(?" followed by
// a letter, '^' or '-' ((?i), (?-i:, (?^), and conservatively (?P<n>).
func hasInlineFlags(p string) bool {
	for i := 0; i+2 < len(p); i++ {
		if p[i] == '(' && p[i+1] == '?' {
			c := p[i+2]
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '^' || c == '-' {
				return true
			}
		}
	}
	return false
}

// NumCaptures returns the number of capture groups (without group 0).
func (m *Matcher) NumCaptures() int { return m.c.ncap }

// CaptureIndex returns the index of a named group, or -1.
func (m *Matcher) CaptureIndex(name string) int {
	if i, ok := m.c.names[name]; ok {
		return i
	}
	return -1
}

// MatchesMayCross is always true: PCRE2 promises rg nothing about line
// terminators, so -U searches whole buffers.
func (m *Matcher) MatchesMayCross() bool { return true }

// IsMatch reports whether line (without its terminator) has a match.
func (m *Matcher) IsMatch(line []byte) bool {
	if m.hasReq && bytes.IndexByte(line, m.req) < 0 {
		return false
	}
	if m.pre != nil && !m.pre.IsMatch(line) {
		return false
	}
	s := m.c.get()
	defer m.c.put(s)
	return m.c.match(s, line, 0)
}

// NextLine returns the first line in buf[from:] (from at a line start)
// with a match, each line searched alone without its terminator (and the
// '\r' before it with CRLF), as rg's line-by-line search does for PCRE2;
// end includes the terminator.
func (m *Matcher) NextLine(buf []byte, from int) (start, end int, ok bool) {
	if from < 0 || from >= len(buf) {
		return 0, 0, false
	}
	s := m.c.get()
	defer m.c.put(s)
	for ls := from; ls < len(buf); {
		if m.pre != nil {
			// Skip to the next line the over-approximation matches.
			st, _, ok := m.pre.NextLine(buf, ls)
			if !ok {
				return 0, 0, false
			}
			ls = st
		} else if m.hasReq {
			// Skip to the line holding the next required byte.
			i := bytes.IndexByte(buf[ls:], m.req)
			if i < 0 {
				return 0, 0, false
			}
			if j := bytes.LastIndexByte(buf[ls:ls+i], m.term); j >= 0 {
				ls += j + 1
			}
		}
		le := len(buf)
		next := le
		if i := bytes.IndexByte(buf[ls:], m.term); i >= 0 {
			le = ls + i
			next = le + 1
		}
		line := buf[ls:le]
		if m.crlf && le < len(buf) && len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		if m.c.match(s, line, 0) {
			return ls, next, true
		}
		ls = next
	}
	return 0, 0, false
}

// FindAll appends the matches of a multiline search of buf: after each
// match the search restarts on the rest of the buffer (one byte later
// after an empty match), as rg's multi-line searcher does. An empty match
// at the end of a buffer that ends with the terminator (or is empty) is
// left out: rg has no line to report there.
func (m *Matcher) FindAll(buf []byte, dst []Range) []Range {
	s := m.c.get()
	defer m.c.put(s)
	p := s.load(buf)
	for pos := 0; pos < len(buf); {
		if !m.c.exec(s, p+uintptr(pos), len(buf)-pos, 0) {
			break
		}
		st, en := pos+int(s.ovec[0]), pos+int(s.ovec[1])
		if st == en && st == len(buf) && buf[len(buf)-1] == m.term {
			break
		}
		dst = append(dst, Range{Start: st, End: en})
		pos = en
		if st == en {
			if pos >= len(buf) {
				break
			}
			pos++
		}
	}
	return dst
}

// each calls fn for every match in h from at with grep-matcher's iteration
// rule (after an empty match the search resumes one byte later, and an
// empty match where the previous match ended is skipped); s.ovec holds the
// match's groups during fn, relative to base. fn returns false to stop.
// PCRE2 searches h[base:], base being as far before at as the pattern can
// look behind: the same answers as over all of h, without copying all of a
// buffer for each of its lines.
func (m *Matcher) each(s *state, h []byte, at int, fn func(st, en, base int) bool) {
	base := max(0, at-m.c.lookBehind)
	p := s.load(h[base:])
	lastEnd, lastMatch := at, -1
	for lastEnd <= len(h) {
		if !m.c.exec(s, p, len(h)-base, lastEnd-base) {
			return
		}
		st, en := base+int(s.ovec[0]), base+int(s.ovec[1])
		if en < st {
			// \K in a look-ahead can end a match before its start; PCRE2
			// reports it, rg's iteration would not terminate on it.
			en = st
		}
		if st == en {
			lastEnd = en + 1
			if m.utf {
				// rg resumes one byte later, inside the character; PCRE2's
				// interpreter would take that byte as invalid UTF-8 and
				// let no look-behind see past it, so resume after the
				// character (rg's JIT may also report an empty match
				// inside it: not reproduced).
				lastEnd = en + charLen(h[en:])
			}
			if en == lastMatch {
				continue
			}
		} else {
			lastEnd = en
		}
		lastMatch = en
		if !fn(st, en, base) {
			return
		}
	}
}

// OccurrencesIn appends the matches in buf[:end] that start in
// buf[start:end], relative to start: buf[:start] is look-behind context, as
// rg's printers search a line inside its buffer.
func (m *Matcher) OccurrencesIn(buf []byte, start, end int, dst []Range) []Range {
	if start < 0 || start > end || end > len(buf) {
		return dst
	}
	h := buf[:end]
	s := m.c.get()
	defer m.c.put(s)
	m.each(s, h, start, func(st, en, _ int) bool {
		dst = append(dst, Range{Start: st - start, End: en - start})
		return true
	})
	return dst
}

// EachOccurrenceIn calls fn with each occurrence OccurrencesIn(buf, start,
// end) would return, in order, without building the list; it stops when
// fn returns false.
func (m *Matcher) EachOccurrenceIn(buf []byte, start, end int, fn func(Range) bool) {
	if start < 0 || start > end || end > len(buf) {
		return
	}
	s := m.c.get()
	defer m.c.put(s)
	m.each(s, buf[:end], start, func(st, en, _ int) bool {
		return fn(Range{Start: st - start, End: en - start})
	})
}

// Occurrences is OccurrencesIn for a line alone.
func (m *Matcher) Occurrences(line []byte, dst []Range) []Range {
	return m.OccurrencesIn(line, 0, len(line), dst)
}

// Replace appends hay with every match replaced by the expanded template
// (see ReplaceIn), and the ranges of the replacements in dst.
func (m *Matcher) Replace(dst, hay, template []byte, ranges []Range) ([]byte, []Range) {
	return m.ReplaceIn(dst, hay, 0, len(hay), template, ranges)
}

// ReplaceIn appends hay[start:min(end, len(hay))] to dst with every match
// that starts before end (which may lie past hay: an empty match at the
// end of a line's text counts when end is after its terminator) replaced by the expanded template ($1, ${1},
// $name, ${name}, $$), searching hay from start: hay[:start] is
// look-behind context and hay[end:] look-ahead, as rg 15's replacer sees a
// line or a multiline block inside its buffer. It also appends the ranges
// of the replacements in the result.
func (m *Matcher) ReplaceIn(dst, hay []byte, start, end int, template []byte, ranges []Range) ([]byte, []Range) {
	stop := end
	end = min(end, len(hay))
	if start < 0 || start > end {
		return dst, ranges
	}
	s := m.c.get()
	defer m.c.put(s)
	out := len(dst)
	copied := start
	m.each(s, hay, start, func(st, en, base int) bool {
		if st >= stop {
			return false
		}
		if st > copied {
			dst = append(dst, hay[copied:st]...)
		}
		rs := len(dst)
		dst = m.interpolate(dst, template, hay[base:], s.ovec)
		ranges = append(ranges, Range{Start: rs - out, End: len(dst) - out})
		copied = max(copied, en)
		return true
	})
	if copied < end {
		dst = append(dst, hay[copied:end]...)
	}
	return dst, ranges
}

// charLen is the length of the valid UTF-8 character b starts with, else 1.
func charLen(b []byte) int {
	if len(b) == 0 || b[0] < 0x80 {
		return 1
	}
	if _, n := utf8.DecodeRune(b); n > 1 {
		return n
	}
	return 1
}

// interpolate expands a replacement template with grep-matcher's rules
// (matcher.ExpandTemplate); ovec holds the match's group offsets.
func (m *Matcher) interpolate(dst, tmpl, h []byte, ovec []uint64) []byte {
	return matcher.ExpandTemplate(dst, tmpl, func(name string) (int, bool) {
		i, ok := m.c.names[name]
		return i, ok
	}, func(dst []byte, i int) []byte {
		if i < 0 || 2*i+1 >= len(ovec) || i > m.c.ncap {
			return dst
		}
		st, en := ovec[2*i], ovec[2*i+1]
		if st == unset || en == unset || st > en || en > uint64(len(h)) {
			return dst
		}
		return append(dst, h[st:en]...)
	})
}
