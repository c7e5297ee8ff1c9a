package agent

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evgrep/evgrep/snapshot"
)

// rows renders the source lines of a span as "N| text". A line longer
// than maxSourceLineBytes is shown as an excerpt of MaxExcerptChars
// characters: around the match on the target line, else its start, so
// every row is bounded and a continuation always advances.
type rows struct {
	sp      *span
	base    int   // first line of offs
	offs    []int // byte offsets of lines base..sp.last+1
	line    int   // the target line (0: none)
	col     int   // byte column of the match on the target line, or -1
	excerpt bool  // a row was excerpted
}

func newRows(sp *span, t inspectTarget) *rows {
	return &rows{sp: sp, base: sp.first, offs: lineOffsets(sp.data, sp.first, sp.last), line: t.line, col: t.col}
}

// maxSourceLineBytes is the longest line inspect shows whole.
const maxSourceLineBytes = 4 << 10

func (r *rows) row(n int) (string, bool) {
	i := n - r.base
	text := bytes.TrimRight(r.sp.data[r.offs[i]:r.offs[i+1]], "\n")
	if len(text) <= maxSourceLineBytes {
		return strconv.Itoa(n) + "| " + strings.ToValidUTF8(string(text), "\uFFFD") + "\n", false
	}
	col := 0
	if n == r.line && r.col >= 0 {
		col = min(r.col, len(text))
	}
	return fmt.Sprintf("%d| (excerpt of a %d-byte line) %s\n", n, len(text), excerptAt(text, col)), true
}

func (r *rows) size(first, last int) int {
	n := 0
	for l := first; l <= last; l++ {
		s, _ := r.row(l)
		n += len(s)
	}
	return n
}

func (r *rows) write(b *strings.Builder, first, last int) {
	for l := first; l <= last; l++ {
		s, ex := r.row(l)
		b.WriteString(s)
		r.excerpt = r.excerpt || ex
	}
}

// window grows a range of lines around line (within first..last) while it
// fits in budget bytes, alternating below and above; it returns an empty
// range (lo > hi) when the line itself does not fit.
func (r *rows) window(first, last, line, budget int) (int, int) {
	line = max(first, min(line, last))
	s, _ := r.row(line)
	if len(s) > budget {
		return line, line - 1
	}
	lo, hi, used := line, line, len(s)
	for lo > first || hi < last {
		grew := false
		if hi < last {
			if s, _ := r.row(hi + 1); used+len(s) <= budget {
				hi, used, grew = hi+1, used+len(s), true
			}
		}
		if lo > first {
			if s, _ := r.row(lo - 1); used+len(s) <= budget {
				lo, used, grew = lo-1, used+len(s), true
			}
		}
		if !grew {
			break
		}
	}
	return lo, hi
}

// excerptAt gives MaxExcerptChars characters of text around byte col,
// marked with "…" where cut.
func excerptAt(text []byte, col int) string {
	const keep = snapshot.MaxExcerptChars
	lo := max(0, col-keep*4)
	hi := min(len(text), col+keep*4)
	for lo > 0 && !utf8.RuneStart(text[lo]) {
		lo--
	}
	seg := text[lo:hi]
	at := utf8.RuneCount(text[lo:col])
	runes := []rune(strings.ToValidUTF8(string(seg), "\uFFFD"))
	start := max(0, at-keep/4)
	end := min(len(runes), start+keep)
	start = max(0, end-keep)
	out := string(runes[start:end])
	if lo > 0 || start > 0 {
		out = "…" + out
	}
	if hi < len(text) || end < len(runes) {
		out += "…"
	}
	return out
}

// lineOffsets returns the byte offsets of lines first..last+1.
func lineOffsets(data []byte, first, last int) []int {
	out := make([]int, 0, last-first+2)
	line, off := 1, 0
	for line < first && off < len(data) {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			off = len(data)
			break
		}
		off += i + 1
		line++
	}
	out = append(out, off)
	for n := first; n <= last; n++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			off = len(data)
		} else {
			off += i + 1
		}
		out = append(out, off)
	}
	return out
}

// windowFrom grows a range from anchor (first or last) toward the other
// end while it fits in budget bytes; it always holds the anchor line.
func (r *rows) windowFrom(first, last, anchor, budget int) (int, int) {
	lo, hi := anchor, anchor
	s, _ := r.row(anchor)
	used := len(s)
	for {
		if anchor == first && hi < last {
			if s, _ := r.row(hi + 1); used+len(s) <= budget {
				hi, used = hi+1, used+len(s)
				continue
			}
		}
		if anchor == last && lo > first {
			if s, _ := r.row(lo - 1); used+len(s) <= budget {
				lo, used = lo-1, used+len(s)
				continue
			}
		}
		return lo, hi
	}
}
