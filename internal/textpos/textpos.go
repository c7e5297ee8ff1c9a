// Package textpos maps positions in one text between byte offsets,
// lines and columns (in bytes and in UTF-16 code units), as gopls's
// protocol.Mapper does for a file: every package that reports a position
// (the rg printers' JSON, the agent's ranges, structural matches, rank
// chunks, syntax declarations) counts lines and columns through it, so
// they agree with each other to the unit.
//
// The conventions:
//   - A line ends after its '\n'. A final '\n' ends the last line: a text
//     of "a\nb\n" has two lines (Count), and an empty text one.
//   - Position, as tree-sitter and LSP do, puts the offset just past a
//     final '\n' at column 1 of the line after the last; Line keeps it
//     on the last line.
//   - UTF-16 columns count the text as Go decodes it: each byte that is
//     not part of a valid UTF-8 sequence (or of one an offset cuts) is one
//     unit (it is shown as U+FFFD), a character above U+FFFF two.
package textpos

import (
	"bytes"
	"sort"
	"unicode/utf8"
)

// Lines is the line index of one text. It is immutable once built and
// may be shared between goroutines.
type Lines struct {
	src []byte
	// starts are the byte offsets of each line's first byte, a final
	// '\n' included (starts[len-1] == len(src) then).
	starts []int
}

// NewLines indexes the line starts of src.
func NewLines(src []byte) *Lines {
	starts := make([]int, 1, 64+len(src)/32)
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return &Lines{src: src, starts: starts}
}

// Source is the indexed text.
func (l *Lines) Source() []byte { return l.src }

// Count is the number of lines (an empty text has one empty line).
func (l *Lines) Count() int {
	n := len(l.starts)
	if n > 1 && l.starts[n-1] == len(l.src) {
		n--
	}
	return n
}

// Starts are the byte offsets of the first byte of lines 1..Count(),
// shared: the caller must not change them.
func (l *Lines) Starts() []int { return l.starts[:l.Count()] }

// Start is the byte offset of 1-based line n's first byte (len(src) past
// the last line).
func (l *Lines) Start(n int) int {
	if n-1 < len(l.starts) {
		return l.starts[max(n-1, 0)]
	}
	return len(l.src)
}

// Line is the 1-based line holding byte offset off; an offset at or past
// the end is on the last line.
func (l *Lines) Line(off int) int {
	return min(l.position(off), l.Count())
}

// position is the 1-based line of off, with an offset past a final '\n'
// on the line after the last.
func (l *Lines) position(off int) int {
	return max(sort.Search(len(l.starts), func(i int) bool { return l.starts[i] > off }), 1)
}

// Range is the byte range of lines first..last, the last one's '\n'
// included.
func (l *Lines) Range(first, last int) (start, end int) {
	return l.Start(first), l.Start(last + 1)
}

// Text is the text of 1-based line n without its "\n" or "\r\n".
func (l *Lines) Text(n int) []byte {
	s, e := l.Range(n, n)
	b := l.src[s:e]
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r"))
}

// Pos is a position: a 1-based line, and 1-based columns in bytes and in
// UTF-16 code units.
type Pos struct {
	Line, Column, Column16 int
}

// Mapper is a Lines with an index of UTF-16 columns, so that a column
// takes time independent of its line's length. It is immutable once built.
type Mapper struct {
	*Lines
	// adj[k] is, over src[:k*adjBlock], the bytes UTF-16 does not count
	// less the units it adds: continuation bytes less 4-byte sequences
	// (nil when src is ASCII or not valid UTF-8).
	adj []int32
	// ascii: every byte is below 0x80; invalid: src is not UTF-8, so
	// columns are decoded rune by rune.
	ascii, invalid bool
}

// adjBlock is the stride of Mapper.adj.
const adjBlock = 64

// NewMapper indexes src's lines and UTF-16 columns.
func NewMapper(src []byte) *Mapper {
	m := &Mapper{Lines: NewLines(src), ascii: true}
	for _, c := range src {
		if c >= utf8.RuneSelf {
			m.ascii = false
			break
		}
	}
	switch {
	case m.ascii:
	case !utf8.Valid(src):
		m.invalid = true
	default:
		m.adj = make([]int32, len(src)/adjBlock+1)
		var n int32
		for k := 1; k < len(m.adj); k++ {
			n += int32(utf16Adj(src[(k-1)*adjBlock : k*adjBlock]))
			m.adj[k] = n
		}
	}
	return m
}

// Position is the position of byte offset off (clamped to the text); an
// offset just past a final '\n' is at column 1 of the line after the last.
func (m *Mapper) Position(off int) Pos {
	off = min(max(off, 0), len(m.src))
	n := m.position(off)
	s := m.starts[n-1]
	return Pos{Line: n, Column: off - s + 1, Column16: m.utf16Between(s, off) + 1}
}

// UTF16 is the UTF-16 length of src[from:to].
func (m *Mapper) UTF16(from, to int) int { return m.utf16Between(from, to) }

func (m *Mapper) utf16Between(s, off int) int {
	switch {
	case m.ascii:
		return off - s
	case m.invalid || off-s <= 2*adjBlock || off < len(m.src) && m.src[off]&0xC0 == 0x80 || s < len(m.src) && m.src[s]&0xC0 == 0x80:
		// Short, not UTF-8, or an end that cuts a character (whose
		// bytes count one unit each): decoded.
		return UTF16Len(m.src[s:off])
	}
	return off - s - (m.adjAt(off) - m.adjAt(s))
}

// adjAt is utf16Adj(src[:off]).
func (m *Mapper) adjAt(off int) int {
	k := off / adjBlock
	return int(m.adj[k]) + utf16Adj(m.src[k*adjBlock:off])
}

// utf16Adj counts b's continuation bytes less its 4-byte lead bytes: for
// valid UTF-8, len(b) less it is b's length in UTF-16 units.
func utf16Adj(b []byte) int {
	n := 0
	for _, c := range b {
		switch {
		case c&0xC0 == 0x80:
			n++
		case c >= 0xF0:
			n--
		}
	}
	return n
}

// UTF16Len is the length of b in UTF-16 code units, b decoded as Go
// decodes it (an invalid byte is one unit).
func UTF16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			i++
			n++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		i += size
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// UTF16Cursor converts byte offsets into one line (or any text) to UTF-16
// offsets, in time linear in the text for increasing offsets: each At
// goes on from the last. A smaller offset starts again from 0. At(off)
// is UTF16Len(b[:off]): a character that off cuts counts one unit for
// each byte before off.
type UTF16Cursor struct {
	b     []byte
	pos   int // byte position of the next character
	units int // UTF-16 units before pos
}

// Reset makes c a cursor over b at offset 0.
func (c *UTF16Cursor) Reset(b []byte) { *c = UTF16Cursor{b: b} }

// At is the UTF-16 offset of byte offset off (clamped to the text).
func (c *UTF16Cursor) At(off int) int {
	off = min(max(off, 0), len(c.b))
	if off < c.pos {
		c.pos, c.units = 0, 0
	}
	for c.pos < off {
		ch := c.b[c.pos]
		if ch < utf8.RuneSelf {
			c.pos++
			c.units++
			continue
		}
		r, n := utf8.DecodeRune(c.b[c.pos:])
		if r == utf8.RuneError && n <= 1 {
			c.pos++
			c.units++
			continue
		}
		if c.pos+n > off {
			// off cuts this character: each byte before it decodes
			// as U+FFFD. The cursor stays before the character.
			return c.units + (off - c.pos)
		}
		c.pos += n
		if r >= 0x10000 {
			c.units += 2
		} else {
			c.units++
		}
	}
	return c.units
}
