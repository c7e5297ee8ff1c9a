//go:build linux

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCountMatchesHugeLineMemory: --count-matches and --stats count the
// 16 M matches of a 16 MiB line of one character without listing them
// (the printer once kept every match of the line: 1.1 GB), under 64 MiB.
func TestCountMatchesHugeLineMemory(t *testing.T) {
	bin := binary(t)
	dir := hugeFiles(t)
	os.Remove(filepath.Join(dir, "words.txt"))
	n := fmt.Sprint(hugeLine)
	cases := []struct {
		args []string
		want string // a line the output holds
	}{
		{[]string{"--count-matches", "a", "a.txt"}, n + "\n"},
		{[]string{"--count-matches", "-j1", ".", "a.txt"}, n + "\n"},
		{[]string{"-c", "--stats", "a", "a.txt"}, "\n" + n + " matches\n"},
		{[]string{"--stats", "a", "a.txt"}, "\n" + n + " matches\n"},
	}
	for _, tc := range cases {
		d, code, rss := run(t, dir, nil, bin, tc.args...)
		t.Logf("evgrep %q: peak RSS %.1f MiB", tc.args, float64(rss)/(1<<20))
		if code != 0 {
			t.Errorf("%q: exit %d", tc.args, code)
		}
		// The output's short lines (the --stats block) are kept in head
		// when they come first, else as the last lines.
		out := d.head
		if len(out) >= maxShort {
			for i := keptShort - 1; i >= 0; i-- {
				out = append(out, d.lastShort(i)...)
			}
		}
		if !bytes.Contains(out, []byte(tc.want)) {
			t.Errorf("%q: output lacks %q: %.300q", tc.args, tc.want, out)
		}
		if rss >= maxHugeRSS {
			t.Errorf("%q: peak RSS %d bytes, want < %d", tc.args, rss, maxHugeRSS)
		}
	}
}
