package astsearch

import (
	"bytes"
	"unicode/utf8"

	"github.com/evgrep/evgrep/structural"
	"github.com/evgrep/evgrep/syntax"
)

// Pos is a position in a source: 1-based line, 1-based byte column and
// 1-based UTF-16 column.
type Pos struct {
	Line, Column, Column16 int
}

// Lines finds line starts of one source.
type Lines struct {
	src    []byte
	starts []int
}

// NewLines indexes the line starts of src.
func NewLines(src []byte) *Lines {
	l := &Lines{src: src, starts: []int{0}}
	for i, c := range src {
		if c == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
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
	return Pos{Line: lo + 1, Column: off - s + 1, Column16: utf16Len(l.src[s:off]) + 1}
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

// FirstLine is the first line of the matched text (without terminator).
func FirstLine(t *syntax.Tree, m *structural.Match) []byte {
	b := t.Src[m.Start:m.End]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i]
	}
	return bytes.TrimSuffix(b, []byte("\r"))
}
