package textpos

import (
	"math/rand"
	"strings"
	"testing"
	"unicode/utf16"
)

// oracleUTF16 is the UTF-16 length of b as Go's string conversion decodes
// it (each invalid byte one U+FFFD).
func oracleUTF16(b []byte) int { return len(utf16.Encode([]rune(string(b)))) }

// oracleLines splits src as an editor counts lines.
func oracleLines(src string) []string {
	if src == "" {
		return []string{""}
	}
	lines := strings.SplitAfter(src, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

var pieces = []string{"a", "Z", " ", "\n", "\r\n", "é", "€", "😀", "\xff", "\xe2\x82", "\xf0\x9f", "\x80", "\t", strings.Repeat("x", 70), strings.Repeat("é😀", 40)}

func randomText(r *rand.Rand) []byte {
	var b strings.Builder
	for n := r.Intn(24); n > 0; n-- {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return []byte(b.String())
}

// TestAgainstOracle checks every offset of random texts: lines, line
// starts, byte and UTF-16 columns, the cursor in both directions.
func TestAgainstOracle(t *testing.T) {
	fixed := []string{
		strings.Repeat("ab c", 300) + "\n" + strings.Repeat("x", 10),
		strings.Repeat("é😀€a", 200) + "\n" + strings.Repeat("😀\n", 50) + strings.Repeat("ü", 999),
		strings.Repeat("a\xffé", 300) + "\n\xf0\x9f",
	}
	r := rand.New(rand.NewSource(1))
	for iter := 0; iter < 300+len(fixed); iter++ {
		src := randomText(r)
		if iter < len(fixed) {
			src = []byte(fixed[iter])
		}
		m := NewMapper(src)
		want := oracleLines(string(src))
		if m.Count() != len(want) || len(m.Starts()) != len(want) {
			t.Fatalf("%q: %d lines, want %d", src, m.Count(), len(want))
		}
		off := 0
		for i, l := range want {
			if m.Start(i+1) != off {
				t.Fatalf("%q: line %d starts at %d, want %d", src, i+1, m.Start(i+1), off)
			}
			if got, w := string(m.Text(i+1)), strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r"); got != w {
				t.Fatalf("%q: line %d text %q, want %q", src, i+1, got, w)
			}
			off += len(l)
		}
		var c UTF16Cursor
		c.Reset(src)
		for o := 0; o <= len(src); o++ {
			line := 1
			for line < len(want) && m.Start(line+1) <= o {
				line++
			}
			if got := m.Line(o); got != line {
				t.Fatalf("%q: Line(%d) = %d, want %d", src, o, got, line)
			}
			p := m.Position(o)
			pl := line
			if o == len(src) && len(src) > 0 && src[len(src)-1] == '\n' {
				pl = len(want) + 1 // past a final newline: the next line
			}
			s := m.Start(pl)
			if p.Line != pl || p.Column != o-s+1 || p.Column16 != oracleUTF16(src[s:o])+1 {
				t.Fatalf("%q: Position(%d) = %+v, want line %d col %d col16 %d", src, o, p, pl, o-s+1, oracleUTF16(src[s:o])+1)
			}
			if got := c.At(o); got != oracleUTF16(src[:o]) {
				t.Fatalf("%q: cursor At(%d) = %d, want %d", src, o, got, oracleUTF16(src[:o]))
			}
			if got := UTF16Len(src[:o]); got != oracleUTF16(src[:o]) {
				t.Fatalf("%q: UTF16Len(src[:%d]) = %d", src, o, got)
			}
		}
		// Backwards, and out of range.
		for o := len(src); o >= 0; o -= 3 {
			if got := c.At(o); got != oracleUTF16(src[:o]) {
				t.Fatalf("%q: cursor back At(%d) = %d", src, o, got)
			}
		}
		if c.At(len(src)+5) != oracleUTF16(src) || c.At(-1) != 0 {
			t.Fatalf("%q: offsets out of range not clamped", src)
		}
	}
}

// TestLines: the line table's answers on a small text, as the syntax
// index and the rank chunker use them.
func TestLines(t *testing.T) {
	src := []byte("ab\ncd\n\nef")
	lt := NewLines(src)
	if lt.Count() != 4 {
		t.Fatalf("Count = %d, want 4", lt.Count())
	}
	for off, want := range []int{1, 1, 1, 2, 2, 2, 3, 4, 4, 4} {
		if got := lt.Line(off); got != want {
			t.Errorf("Line(%d) = %d, want %d", off, got, want)
		}
	}
	for _, c := range []struct{ a, b, s, e int }{{1, 1, 0, 3}, {2, 3, 3, 7}, {4, 4, 7, 9}, {1, 4, 0, 9}} {
		if s, e := lt.Range(c.a, c.b); s != c.s || e != c.e {
			t.Errorf("Range(%d, %d) = %d, %d; want %d, %d", c.a, c.b, s, e, c.s, c.e)
		}
	}
	lt = NewLines([]byte("x\n"))
	if lt.Count() != 1 || lt.Line(2) != 1 || len(lt.Starts()) != 1 {
		t.Errorf("a trailing newline opens no line: %d lines, Line(2) = %d", lt.Count(), lt.Line(2))
	}
	if m := NewMapper([]byte("x\n")); m.Position(2) != (Pos{Line: 2, Column: 1, Column16: 1}) {
		t.Errorf("past a final newline: %+v, want line 2 column 1", m.Position(2))
	}
}
