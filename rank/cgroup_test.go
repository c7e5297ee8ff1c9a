package rank

import (
	"fmt"
	"testing"

	"github.com/evgrep/evgrep/revisions"
)

const cGroupSrc = `#include <stdio.h>

#define ALT_FORM 1
#define ZERO_PAD 2
#define LEFT_ADJ 4

int fmt_pad(int);
int fmt_out(int);

static int pad(int n)
{
	return n + ZERO_PAD;
}
`

// groupLines: a C file's consecutive one-line #defines and prototypes
// become one chunk each run, naming every declaration; a symbol query
// still finds the group as the definition of one of its names.
func TestGroupLinesC(t *testing.T) {
	var got []string
	for _, c := range Split("src/fmt.c", []byte(cGroupSrc)) {
		got = append(got, fmt.Sprintf("%d-%d %s %q", c.StartLine, c.EndLine, c.Kind, c.Name))
	}
	want := []string{`1-2 lines ""`, `3-5 const "ALT_FORM, ZERO_PAD, LEFT_ADJ"`, `7-8 function "fmt_pad, fmt_out"`, `10-13 function "pad"`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("chunks:\n got %q\nwant %q", got, want)
	}
	d := NewFileDoc("src/fmt.c", revisions.Revision{Verified: true}, []byte(cGroupSrc))
	ix := build(d)
	p := Default
	if hits := ix.Search("ZERO_PAD", &p, 5); len(hits) == 0 || hits[0].Chunk.StartLine != 3 {
		t.Errorf("ZERO_PAD: %v", order(hits))
	}
}
