package astsearch

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/evgrep/evgrep/internal/textpos"
	"github.com/evgrep/evgrep/structural"
)

// Edit replaces Src[Start:End] with Text.
type Edit struct {
	Start, End int
	Text       string
}

// Edits are the replacements of f's matches by template: in source order,
// a match inside (or overlapping) one already replaced is left alone, as
// ast-grep does.
func Edits(f *File, template string) []Edit {
	var out []Edit
	end := -1
	for i := range f.Matches {
		m := &f.Matches[i]
		if m.Start < end {
			continue
		}
		out = append(out, Edit{Start: m.Start, End: m.End, Text: structural.Expand(f.Tree, m, template)})
		end = m.End
	}
	return out
}

// Apply returns src with the edits made.
func Apply(src []byte, edits []Edit) []byte {
	var b bytes.Buffer
	pos := 0
	for _, e := range edits {
		b.Write(src[pos:e.Start])
		b.WriteString(e.Text)
		pos = e.End
	}
	b.Write(src[pos:])
	return b.Bytes()
}

// diffContext is the unchanged lines a hunk shows around a change.
const diffContext = 3

// UnifiedDiff renders the edits of src as a unified diff (`--- a/PATH`,
// `+++ b/PATH`, hunks with 3 lines of context), or "" when nothing
// changes.
func UnifiedDiff(path string, src []byte, edits []Edit) string {
	dst := Apply(src, edits)
	if bytes.Equal(src, dst) {
		return ""
	}
	a, b := splitLines(src), splitLines(dst)
	// Changed line ranges: the lines of each edit in the old text and the
	// new, merged when they touch.
	type change struct{ a0, a1, b0, b1 int } // half-open line ranges
	var chs []change
	delta := 0 // bytes added so far
	la, lb := textpos.NewMapper(src), textpos.NewMapper(dst)
	for _, e := range edits {
		ns := e.Start + delta
		ne := ns + len(e.Text)
		delta += len(e.Text) - (e.End - e.Start)
		c := change{a0: la.Position(e.Start).Line - 1, a1: la.Position(max(e.Start, e.End-1)).Line, b0: lb.Position(ns).Line - 1, b1: lb.Position(max(ns, ne-1)).Line}
		if e.End > e.Start && src[e.End-1] == '\n' {
			c.a1 = la.Position(e.End - 1).Line
		}
		if len(chs) > 0 && c.a0 <= chs[len(chs)-1].a1 {
			p := &chs[len(chs)-1]
			p.a1, p.b1 = max(p.a1, c.a1), max(p.b1, c.b1)
			continue
		}
		chs = append(chs, c)
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", path, path)
	for i := 0; i < len(chs); {
		// One hunk: changes whose context overlaps.
		j := i
		for j+1 < len(chs) && chs[j+1].a0-chs[j].a1 <= 2*diffContext {
			j++
		}
		a0, b0 := max(0, chs[i].a0-diffContext), max(0, chs[i].b0-diffContext)
		a1 := min(len(a), chs[j].a1+diffContext)
		b1 := min(len(b), chs[j].b1+diffContext)
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(a0, a1-a0), hunkRange(b0, b1-b0))
		ai := a0
		for k := i; k <= j; k++ {
			c := chs[k]
			for ; ai < c.a0; ai++ {
				writeLine(&out, ' ', a[ai])
			}
			for x := c.a0; x < c.a1; x++ {
				writeLine(&out, '-', a[x])
			}
			for x := c.b0; x < c.b1; x++ {
				writeLine(&out, '+', b[x])
			}
			ai = c.a1
		}
		for ; ai < a1; ai++ {
			writeLine(&out, ' ', a[ai])
		}
		i = j + 1
	}
	return out.String()
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start + 1)
	}
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}

func writeLine(w *strings.Builder, sign byte, l []byte) {
	w.WriteByte(sign)
	w.Write(l)
	if !bytes.HasSuffix(l, []byte("\n")) {
		w.WriteString("\n\\ No newline at end of file\n")
	}
}

// FixEdits are the replacements of f's matches (of rules) by their rules'
// fixes, as `ast-grep scan -U` makes them: each over the match's fix
// range (widened by expandStart and expandEnd), in source order, a match
// whose range starts inside one already replaced left alone; matches of
// rules without a fix are left as they are.
func FixEdits(f *File, rules []*structural.Rule) []Edit {
	fixes := map[string]*structural.Fix{}
	for _, r := range rules {
		if r.Fix != nil {
			fixes[r.ID] = r.Fix
		}
	}
	var out []Edit
	end := -1
	for i := range f.Matches {
		m := &f.Matches[i]
		fx := fixes[m.Rule]
		if fx == nil || m.Fixed == nil || m.Fixed.Range.Start < end {
			continue
		}
		sp := m.Fixed.Range
		out = append(out, Edit{Start: sp.Start, End: sp.End, Text: structural.Expand(f.Tree, m, fx.Template)})
		end = sp.End
	}
	return out
}
