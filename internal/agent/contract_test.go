package agent

import (
	"fmt"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
)

// TestContextContract (issue 11, point 6): context rows count in the 16 KiB
// bound by their bytes, never run past the end of the file, and never show
// a match line as context — neither one of a later page nor one of the
// same page a second time.
func TestContextContract(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 400; i++ {
		if i%41 == 0 {
			fmt.Fprintf(&long, "needle %d\n", i)
			continue
		}
		long.WriteString(strings.Repeat("日", 400) + "\n") // 1,200 bytes
	}
	root := tree(t, map[string]string{
		"long.txt":  long.String(),
		"end.txt":   "first\nsecond needle-end\n",
		"close.txt": "a\nneedle-one\nb\nneedle-two\nc\nd\n",
	})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}

	// The bound holds by bytes.
	a := ask(t, env, `{"pattern":"needle","mode":"matches","context":20,"paths":["long.txt"],"limit":100}`)
	for pages := 0; ; pages++ {
		if len(a.Text) > snapshot.MaxResponseBytes {
			t.Fatalf("page %d is %d bytes, over %d", pages, len(a.Text), snapshot.MaxResponseBytes)
		}
		if a.Details.Cursor == "" || pages > 20 {
			break
		}
		a = ask(t, env, fmt.Sprintf(`{"cursor":%q,"context":20}`, a.Details.Cursor))
	}

	// No line past the end of the file.
	a = ask(t, env, `{"pattern":"needle-end","mode":"matches","context":3}`)
	if strings.Contains(a.Text, "-3 ") || len(a.Details.Context) != 1 {
		t.Fatalf("context past the end of a 2-line file:\n%s\n%+v", a.Text, a.Details.Context)
	}

	// A match line is not context of the page before its own...
	a = ask(t, env, `{"pattern":"needle-(one|two)","mode":"matches","context":2,"limit":1}`)
	if strings.Contains(a.Text, "needle-two") {
		t.Fatalf("match #2 shown as context on the page before its own:\n%s", a.Text)
	}
	b := ask(t, env, fmt.Sprintf(`{"cursor":%q,"context":2}`, a.Details.Cursor))
	if !strings.Contains(b.Text, "{match #2}") || strings.Count(b.Text, "needle-two") != 1 {
		t.Fatalf("match #2 not shown once on its page:\n%s", b.Text)
	}
	// ...nor twice on one page, and each context line is shown once.
	a = ask(t, env, `{"pattern":"needle-(one|two)","mode":"matches","context":2}`)
	for _, s := range []string{"needle-one", "needle-two", " a\n", " b\n", " c\n", " d\n"} {
		if n := strings.Count(a.Text, s); n != 1 {
			t.Fatalf("%q shown %d times:\n%s", s, n, a.Text)
		}
	}
}
