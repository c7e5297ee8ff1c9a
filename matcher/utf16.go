package matcher

import (
	"sort"
	"unicode/utf8"
)

// UTF16Columns converts byte offsets in line to UTF-16 code unit offsets
// (0-based, so an editor's 1-based column is the result plus one) and
// appends one converted Range per input range to dst. Each invalid UTF-8
// byte counts as one unit (it is shown as U+FFFD), as does each byte of a
// character that an offset cuts. Offsets beyond the line are clamped. The
// line is decoded once for all ranges.
func UTF16Columns(line []byte, ranges []Range, dst []Range) []Range {
	base := len(dst)
	dst = append(dst, ranges...)
	out := dst[base:]
	sorted := true
	prev := 0
	for _, r := range ranges {
		if r.Start < prev || r.End < r.Start {
			sorted = false
			break
		}
		prev = r.End
	}
	if sorted {
		w := utf16Walker{line: line}
		for i := range out {
			out[i].Start = w.at(out[i].Start)
			out[i].End = w.at(out[i].End)
		}
		return dst
	}
	type ref struct {
		off int
		p   *int
	}
	refs := make([]ref, 0, 2*len(out))
	for i := range out {
		refs = append(refs, ref{out[i].Start, &out[i].Start}, ref{out[i].End, &out[i].End})
	}
	sort.SliceStable(refs, func(i, j int) bool { return refs[i].off < refs[j].off })
	w := utf16Walker{line: line}
	for _, r := range refs {
		*r.p = w.at(r.off)
	}
	return dst
}

// utf16Walker converts increasing byte offsets to UTF-16 offsets.
type utf16Walker struct {
	line  []byte
	pos   int // byte position of the next character
	units int // UTF-16 units before pos
}

func (w *utf16Walker) at(off int) int {
	if off < 0 {
		off = 0
	}
	if off > len(w.line) {
		off = len(w.line)
	}
	for w.pos < off {
		c := w.line[w.pos]
		if c < utf8.RuneSelf {
			w.pos++
			w.units++
			continue
		}
		r, n := utf8.DecodeRune(w.line[w.pos:])
		if r == utf8.RuneError && n <= 1 {
			w.pos++
			w.units++
			continue
		}
		if w.pos+n > off {
			// The offset cuts this character: each byte before it
			// decodes as U+FFFD.
			return w.units + (off - w.pos)
		}
		w.pos += n
		if r >= 0x10000 {
			w.units += 2
		} else {
			w.units++
		}
	}
	return w.units
}
