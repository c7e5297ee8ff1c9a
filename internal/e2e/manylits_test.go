//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManyLiteralsWordLine (issue 24, item 6): -w and -x with 100,000
// literals from -f end within the timeout and the address-space limit,
// with the counts the literals give. At 5943618 -c -w -F over this tree
// was still running after 130 s (the regex engines over one alternation
// of the literals), and -c -x ran out of memory under the 3 GiB limit
// after 18 s (1.4 GB); now 1.7 s / 280 MB and 1.9 s / 220 MB (rg 15.2:
// 1.4 s / 100 MB).
func TestManyLiteralsWordLine(t *testing.T) {
	dir := t.TempDir()
	var ids, words, lines strings.Builder
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&ids, "id%06dq\n", i*2)
	}
	wantW, wantX := 0, 0
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&words, "\tcall(id%06dq, other_id%06dq) // id%06dqz\n", i, i, i)
		fmt.Fprintf(&lines, "id%06dq\n", i)
		if i%2 == 0 {
			wantW++
			wantX++
		}
	}
	for name, s := range map[string]string{"ids.txt": ids.String(), "corpus/words.go": words.String(), "corpus/lines.txt": lines.String()} {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := binary(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-c", "-w", "-f", "ids.txt", "corpus/words.go"}, fmt.Sprint(wantW)},
		{[]string{"-c", "-w", "-F", "-f", "ids.txt", "corpus/words.go"}, fmt.Sprint(wantW)},
		{[]string{"-c", "-x", "-f", "ids.txt", "corpus/lines.txt"}, fmt.Sprint(wantX)},
		{[]string{"-c", "-w", "-F", "-f", "ids.txt", "corpus/lines.txt"}, fmt.Sprint(wantX)},
	} {
		out, code, rss, stderr := runLimited(t, dir, nil, nestedAS, 1<<20, bin, c.args...)
		if code != 0 || strings.TrimSpace(string(out)) != c.want {
			t.Errorf("%q: exit %d, %q (want %s) %s", c.args, code, out, c.want, stderr)
		}
		if rss > nestedRSS {
			t.Errorf("%q: peak RSS %d MiB, bound %d MiB", c.args, rss>>20, nestedRSS>>20)
		}
		t.Logf("%q: peak RSS %d MiB", c.args, rss>>20)
	}
}
