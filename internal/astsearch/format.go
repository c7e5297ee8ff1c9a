package astsearch

import (
	"bytes"
	"unicode/utf8"

	"github.com/evgrep/evgrep/structural"
)

// Pos is a position in a source: 1-based line, 1-based byte column and
// 1-based UTF-16 column.
type Pos struct {
	Line, Column, Column16 int
}

// Lines finds line starts of one source, and UTF-16 columns in time
// independent of the line's length.
type Lines struct {
	src    []byte
	starts []int
	// adj[k] is, over src[:k*adjBlock], the bytes UTF-16 does not count
	// less the units it adds: continuation bytes less 4-byte sequences
	// (nil when src is ASCII or not valid UTF-8).
	adj []int32
	// invalid: src is not UTF-8, columns are counted rune by rune.
	invalid bool
}

// adjBlock is the stride of Lines.adj.
const adjBlock = 64

// NewLines indexes the line starts of src.
func NewLines(src []byte) *Lines {
	l := &Lines{src: src, starts: []int{0}}
	ascii := true
	for i, c := range src {
		if c == '\n' {
			l.starts = append(l.starts, i+1)
		}
		if c >= 0x80 {
			ascii = false
		}
	}
	if !ascii && !utf8.Valid(src) {
		l.invalid = true
	} else if !ascii {
		l.adj = make([]int32, len(src)/adjBlock+1)
		var n int32
		for k := 1; k < len(l.adj); k++ {
			n += int32(utf16Adj(src[(k-1)*adjBlock : k*adjBlock]))
			l.adj[k] = n
		}
	}
	return l
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

// col16 is the UTF-16 length of src[s:off].
func (l *Lines) col16(s, off int) int {
	switch {
	case l.invalid || l.adj != nil && off-s <= 2*adjBlock:
		return utf16Len(l.src[s:off])
	case l.adj == nil:
		return off - s
	}
	return off - s - (l.adjAt(off) - l.adjAt(s))
}

// adjAt is utf16Adj(src[:off]).
func (l *Lines) adjAt(off int) int {
	k := off / adjBlock
	return int(l.adj[k]) + utf16Adj(l.src[k*adjBlock:off])
}

// At is the position of byte offset off.
func (l *Lines) At(off int) Pos {
	lo, hi := 0, len(l.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if l.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	s := l.starts[lo]
	return Pos{Line: lo + 1, Column: off - s + 1, Column16: l.col16(s, off) + 1}
}

// Line is the text of 1-based line n, without its terminator.
func (l *Lines) Line(n int) []byte {
	s := l.starts[n-1]
	e := len(l.src)
	if n < len(l.starts) {
		e = l.starts[n] - 1
	}
	return bytes.TrimSuffix(l.src[s:e], []byte("\r"))
}

func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		if r >= 0x10000 && r != utf8.RuneError {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// FirstLine is the first line of the matched text of src (without
// terminator), not copied.
func FirstLine(src []byte, m *structural.Match) []byte {
	b := src[m.Start:m.End]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return bytes.TrimSuffix(b, []byte("\r"))
}
