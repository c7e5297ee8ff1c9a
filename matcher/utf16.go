package matcher

import (
	"sort"

	"github.com/evgrep/evgrep/internal/textpos"
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
	var w textpos.UTF16Cursor
	w.Reset(line)
	if sorted {
		for i := range out {
			out[i].Start = w.At(out[i].Start)
			out[i].End = w.At(out[i].End)
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
	for _, r := range refs {
		*r.p = w.At(r.off)
	}
	return dst
}
