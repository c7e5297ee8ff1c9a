package rank

import (
	"fmt"
	"slices"
	"testing"

	"github.com/evgrep/evgrep/revisions"
)

// A counter that serves file after file counts each as a fresh one does,
// with and without its runs cached.
func TestCounterReuse(t *testing.T) {
	var srcs [][]byte
	for i := 0; i < 50; i++ {
		srcs = append(srcs, []byte(fmt.Sprintf("func parseArgs%d(routeContext int) { return parseArgs%d(x_y_z) + HTTPServer }\n", i, i+1)))
	}
	for i, src := range srcs {
		path := fmt.Sprintf("a/f%d.go", i)
		got := NewFileDoc(path, revisions.Revision{}, src)
		for k := range got.Chunks {
			c := got.Chunks[k]
			want := countTerms(path, c.Context, string(src[c.StartByte:c.EndByte]))
			if g := got.TermCounts(k); !slices.Equal(g, want) {
				t.Fatalf("file %d chunk %d: %v, want %v", i, k, g, want)
			}
		}
	}
}
