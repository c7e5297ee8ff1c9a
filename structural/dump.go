package structural

import (
	"fmt"
	"strings"

	"github.com/evgrep/evgrep/syntax"
)

// Dump renders the subtree of node i as an indented outline, one node a
// line: its kind (anonymous kinds quoted), byte range and, for leaves, its
// text. It is what `--debug-query` shows of a pattern or a source.
func Dump(t *syntax.Tree, i int32) string {
	var b strings.Builder
	var walk func(i int32, depth int)
	walk = func(i int32, depth int) {
		n := &t.Nodes[i]
		k := t.Kind(i)
		if !n.Named() {
			k = fmt.Sprintf("%q", k)
		}
		fmt.Fprintf(&b, "%s%s [%d,%d)", strings.Repeat("  ", depth), k, n.Start, n.End)
		if n.Missing() {
			b.WriteString(" MISSING")
		}
		if n.NumChildren == 0 && n.Named() {
			fmt.Fprintf(&b, " %q", t.Text(i))
		}
		b.WriteByte('\n')
		for c := t.FirstChild(i); c >= 0; c = t.Nodes[c].Next {
			walk(c, depth+1)
		}
	}
	walk(i, 0)
	return b.String()
}
