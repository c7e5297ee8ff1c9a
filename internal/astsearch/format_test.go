package astsearch

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLinesColumns: the UTF-16 columns of Lines (counted by blocks on
// long lines) are those counted rune by rune, in ASCII, valid UTF-8 with
// 2-, 3- and 4-byte sequences, and text that is not UTF-8.
func TestLinesColumns(t *testing.T) {
	srcs := []string{
		strings.Repeat("ab c", 300) + "\n" + strings.Repeat("x", 10),
		strings.Repeat("é😀€a", 200) + "\n" + strings.Repeat("😀\n", 50) + strings.Repeat("ü", 999),
		strings.Repeat("a\xffé", 300) + "\n\xf0\x9f",
	}
	for _, src := range srcs {
		l := NewLines([]byte(src))
		for off := 0; off <= len(src); off++ {
			if off < len(src) && !utf8.RuneStart(src[off]) {
				continue
			}
			p := l.At(off)
			s := l.starts[p.Line-1]
			if want := utf16Len([]byte(src[s:off])) + 1; p.Column16 != want {
				t.Fatalf("offset %d of %.20q: column %d, want %d", off, src, p.Column16, want)
			}
		}
	}
}
