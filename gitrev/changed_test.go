package gitrev_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/gitrev"
	"github.com/evgrep/evgrep/internal/gittest"
)

// changeCases are old (committed) and new (working) contents with the
// lines of new a line diff shows as added or changed.
var changeCases = []struct {
	name     string
	old, new string
	want     []gitrev.LineRange
}{
	{"unchanged", "a\nb\nc\n", "a\nb\nc\n", nil},
	{"added line", "a\nb\nc\n", "a\nb\nX\nc\n", []gitrev.LineRange{{3, 3}}},
	{"added at start", "a\nb\n", "X\na\nb\n", []gitrev.LineRange{{1, 1}}},
	{"added at end", "a\nb\n", "a\nb\nX\nY\n", []gitrev.LineRange{{3, 4}}},
	{"modified line", "a\nb\nc\n", "a\nB\nc\n", []gitrev.LineRange{{2, 2}}},
	{"deleted line", "a\nb\nc\n", "a\nc\n", nil},
	{"moved block", "A\nB\nC\nD\nE\nF\n", "A\nD\nE\nF\nB\nC\n", []gitrev.LineRange{{5, 6}}},
	{"two changes", "1\n2\n3\n4\n5\n6\n7\n", "1\nX\n3\n4\n5\nY\nZ\n7\n", []gitrev.LineRange{{2, 2}, {6, 7}}},
	{"newline added at end", "a\nb", "a\nb\n", []gitrev.LineRange{{2, 2}}},
	{"emptied", "a\nb\n", "", nil},
	{"from empty", "", "a\nb\n", []gitrev.LineRange{{1, 2}}},
	{"crlf changed", "a\r\nb\r\n", "a\r\nb\n", []gitrev.LineRange{{2, 2}}},
	{"repeated lines", "x\nx\nx\n", "x\nx\ny\nx\nx\n", []gitrev.LineRange{{3, 4}}},
}

func TestChangedLines(t *testing.T) {
	r := gittest.New(t)
	files := map[string]string{}
	for i, c := range changeCases {
		files[fmt.Sprintf("case%02d.txt", i)] = c.old
	}
	r.Write(files)
	r.Commit("old")
	repo, err := gitrev.Open(r.Dir, gitrev.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	c, _ := repo.Resolve("HEAD")
	ch := repo.Changes(c)
	for i, cs := range changeCases {
		path := filepath.Join(r.Dir, fmt.Sprintf("case%02d.txt", i))
		got, approx, err := ch.Lines(path, []byte(cs.new), '\n')
		if err != nil || approx || fmt.Sprint(got) != fmt.Sprint(cs.want) {
			t.Errorf("%s: Lines = %v (approx %v), %v; want %v", cs.name, got, approx, err, cs.want)
		}
	}
	// A file the commit does not have is all added.
	got, _, err := ch.Lines(filepath.Join(r.Dir, "new.txt"), []byte("p\nq\nr"), '\n')
	if err != nil || fmt.Sprint(got) != "[{1 3}]" {
		t.Errorf("untracked file: %v, %v", got, err)
	}
	// Past the edit bound the part between the first and last
	// difference counts whole.
	lim := gitrev.DefaultLimits()
	lim.MaxDiffEdits = 2
	small, _ := gitrev.Open(r.Dir, lim)
	defer small.Close()
	got, approx, err := small.Changes(c).Lines(filepath.Join(r.Dir, "case07.txt"), []byte(changeCases[7].new), '\n')
	if err != nil || !approx || fmt.Sprint(got) != "[{2 7}]" {
		t.Errorf("edit bound: %v (approx %v), %v; want [{2 7}] approximate", got, approx, err)
	}
}

var hunkRE = regexp.MustCompile(`(?m)^@@ -\S+ \+(\d+)(?:,(\d+))? @@`)

// TestChangedLinesAgainstGitDiff checks the table's expectations against
// git diff's own hunks (git's default Myers diff), where git is
// installed.
func TestChangedLinesAgainstGitDiff(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	for _, c := range changeCases {
		a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
		os.WriteFile(a, []byte(c.old), 0o644)
		os.WriteFile(b, []byte(c.new), 0o644)
		out, _ := exec.Command(gitBin, "diff", "--no-index", "--no-color", "--diff-algorithm=myers", "-U0", a, b).Output()
		var want []gitrev.LineRange
		for _, m := range hunkRE.FindAllStringSubmatch(string(out), -1) {
			start, _ := strconv.Atoi(m[1])
			n := 1
			if m[2] != "" {
				n, _ = strconv.Atoi(m[2])
			}
			if n > 0 {
				want = append(want, gitrev.LineRange{First: start, Last: start + n - 1})
			}
		}
		if fmt.Sprint(want) != fmt.Sprint(c.want) {
			t.Errorf("%s: git diff shows %v added, the table says %v\n%s", c.name, want, c.want, strings.TrimSpace(string(out)))
		}
	}
}
