package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/gittest"
)

// revHistory is a scripted repository: two commits, then working-tree
// edits (see the comments of each file).
func revHistory(t *testing.T) (*gittest.Repo, string) {
	r := gittest.New(t)
	r.Write(map[string]string{
		".gitignore":     "*.log\n",
		"a.go":           "package a\n// needle one\nfunc A() {}\n",
		"sub/b.go":       "package sub\nvar needle = 1\n",
		"sub/.gitignore": "gen.go\n",
		".hidden/c.txt":  "needle hidden\n",
		"old.txt":        "needle in a file removed later\n",
	})
	first := r.Commit("first").String()
	r.Write(map[string]string{"a.go": "package a\n// needle one\n// needle two\nfunc A() {}\n"})
	r.Remove("old.txt")
	r.Commit("second")
	return r, first
}

func TestRevSearch(t *testing.T) {
	r, first := revHistory(t)
	// Working-tree changes a --rev search must not see.
	r.Write(map[string]string{"a.go": "needle working\n", "new.txt": "needle new\n", "x.log": "needle log\n", "sub/gen.go": "needle gen\n"})
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"-n", "--rev", "HEAD", "needle"}, 0, "a.go:2:// needle one\na.go:3:// needle two\nsub/b.go:2:var needle = 1\n"},
		{[]string{"-n", "--rev", first, "needle"}, 0, "a.go:2:// needle one\nold.txt:1:needle in a file removed later\nsub/b.go:2:var needle = 1\n"},
		{[]string{"-n", "--hidden", "--rev", "HEAD~1", "needle"}, 0, ".hidden/c.txt:1:needle hidden\na.go:2:// needle one\nold.txt:1:needle in a file removed later\nsub/b.go:2:var needle = 1\n"},
		{[]string{"-c", "--rev", "HEAD", "needle", "sub"}, 0, "sub/b.go:1\n"},
		{[]string{"--rev", "HEAD", "needle", "./sub/"}, 0, "./sub/b.go:var needle = 1\n"},
		{[]string{"--rev", "HEAD", "needle", "a.go"}, 0, "// needle one\n// needle two\n"},
		{[]string{"--rev", "HEAD", "-g", "*.txt", "needle", "."}, 1, ""},
		{[]string{"--files", "--rev", "HEAD"}, 0, "a.go\nsub/b.go\n"},
		{[]string{"--files", "--sort", "path", "--hidden", "--rev", "HEAD"}, 0, ".gitignore\n.hidden/c.txt\na.go\nsub/.gitignore\nsub/b.go\n"},
		{[]string{"-l", "--rev", "HEAD", "nomatch"}, 1, ""},
	}
	for _, c := range cases {
		got := runEvgrepFull(t, r.Dir, c.args)
		if got.code != c.code || got.stdout != c.out || got.stderrText != "" {
			t.Errorf("evgrep %q: code %d, stdout\n%s\nstderr %q\nwant code %d, stdout\n%s", c.args, got.code, got.stdout, got.stderrText, c.code, c.out)
		}
	}
	// --json gives rg's events for the commit's blobs.
	got := runEvgrepFull(t, r.Dir, []string{"--json", "--rev", "HEAD", "needle", "sub"})
	if got.code != 0 || !strings.Contains(got.stdout, `{"type":"match","data":{"path":{"text":"sub/b.go"},"lines":{"text":"var needle = 1\n"},"line_number":2,`) {
		t.Errorf("--json --rev: %d\n%s", got.code, got.stdout)
	}
}

// gitGrep runs git grep -n in dir and strips the "COMMIT:" prefix it
// prints before each path.
func gitGrep(t *testing.T, gitBin, dir, pattern, commit string) string {
	cmd := exec.Command(gitBin, "grep", "-n", "--no-color", pattern, commit)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("git grep: %v", err)
		}
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(out), "\n") {
		b.WriteString(strings.TrimPrefix(line, commit+":"))
	}
	return b.String()
}

// TestRevEqualsGitGrep compares evgrep -n --hidden --rev C PATTERN with
// git grep -n PATTERN C line for line (the path prefix "C:" of git grep
// stripped: evgrep prints paths as a search of the checked-out commit
// would), on a scripted repository and on this repository at an older
// commit. --hidden because git grep searches every tracked file.
func TestRevEqualsGitGrep(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	r, first := revHistory(t)
	for _, c := range []struct{ pattern, commit string }{{"needle", first}, {"needle", "HEAD"}, {"^package", "HEAD"}, {"e", first}} {
		want := gitGrep(t, gitBin, r.Dir, c.pattern, c.commit)
		got := runEvgrepFull(t, r.Dir, []string{"-n", "--hidden", "--rev", c.commit, c.pattern})
		if got.stdout != want || want == "" {
			t.Errorf("scripted, %s at %s: evgrep\n%s\ngit grep\n%s", c.pattern, c.commit, got.stdout, want)
		}
	}
	// From a sub-folder, both print paths relative to it.
	sub := filepath.Join(r.Dir, "sub")
	if want, got := gitGrep(t, gitBin, sub, "needle", first), runEvgrepFull(t, sub, []string{"-n", "--hidden", "--rev", first, "needle"}); got.stdout != want || want == "" {
		t.Errorf("scripted, from sub: evgrep\n%s\ngit grep\n%s", got.stdout, want)
	}
	// This repository, ten commits back.
	top, err := exec.Command(gitBin, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not run inside a git checkout")
	}
	dir := strings.TrimSpace(string(top))
	cmd := exec.Command(gitBin, "rev-list", "--max-count=1", "--skip=10", "HEAD")
	cmd.Dir = dir
	out, err := cmd.Output()
	old := strings.TrimSpace(string(out))
	if err != nil || old == "" {
		t.Skip("this checkout has fewer than 11 commits")
	}
	for _, pattern := range []string{"func [A-Z]", "TODO", "ripgrep"} {
		want := gitGrep(t, gitBin, dir, pattern, old)
		got := runEvgrepFull(t, dir, []string{"-n", "--hidden", "--rev", old, pattern})
		if got.stdout != want || want == "" || got.code != 0 {
			gl, wl := strings.Split(got.stdout, "\n"), strings.Split(want, "\n")
			for i := 0; i < len(gl) && i < len(wl); i++ {
				if gl[i] != wl[i] {
					t.Errorf("this repository, %q at %s: line %d differs:\nevgrep   %q\ngit grep %q", pattern, old[:12], i+1, gl[i], wl[i])
					break
				}
			}
			t.Errorf("this repository, %q at %s: %d lines from evgrep (exit %d, %q), %d from git grep", pattern, old[:12], len(gl), got.code, got.stderrText, len(wl))
		}
	}
}

func TestChangedSince(t *testing.T) {
	r := gittest.New(t)
	r.Write(map[string]string{
		".gitignore": "*.log\n",
		"f.txt": strings.Join([]string{
			"needle kept as is", // 1: unchanged
			"needle to modify",  // 2: modified
			"needle to delete",  // 3: deleted
			"plain",             // 4
			"block needle one",  // 5: moved below
			"block needle two",  // 6: moved below
			"alpha",             // 7
			"beta",              // 8
			"gamma",             // 9
			"needle start",      // 10: stays; the line after it changes
			"end",               // 11: modified to "end changed"
		}, "\n") + "\n",
		"same.txt": "needle unchanged file\n",
	})
	r.Commit("base")
	r.Write(map[string]string{
		"f.txt": strings.Join([]string{
			"needle kept as is",  // 1 unchanged
			"needle modified",    // 2 changed
			"plain",              // 3 unchanged
			"alpha",              // 4
			"beta",               // 5
			"gamma",              // 6
			"block needle one",   // 7 moved here: added
			"block needle two",   // 8 added
			"needle start",       // 9 unchanged
			"end changed",        // 10 changed
			"added needle",       // 11 added
			"added needle start", // 12 added
			"end added",          // 13 added
		}, "\n") + "\n",
		"untracked.txt": "needle untracked\n",
		"x.log":         "needle ignored\n",
	})
	cases := []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"lines", []string{"-n", "--sort", "path", "--changed-since", "HEAD", "needle"}, 0,
			"f.txt:2:needle modified\nf.txt:7:block needle one\nf.txt:8:block needle two\nf.txt:11:added needle\nf.txt:12:added needle start\nuntracked.txt:1:needle untracked\n"},
		{"count", []string{"-c", "--changed-since", "HEAD", "needle", "f.txt"}, 0, "5\n"},
		{"only", []string{"-o", "--changed-since", "HEAD", "needle", "f.txt"}, 0, "needle\nneedle\nneedle\nneedle\nneedle\n"},
		{"unchanged file", []string{"--changed-since", "HEAD", "needle", "same.txt"}, 1, ""},
		{"no match in changed lines", []string{"--changed-since", "HEAD", "kept"}, 1, ""},
		{"plain search sees all", []string{"-c", "needle", "f.txt"}, 0, "7\n"},
		{"context shows unchanged matches as context", []string{"-n", "-C1", "--changed-since", "HEAD", "needle start", "f.txt"}, 0,
			"11-added needle\n12:added needle start\n13-end added\n"},
		{"multiline within changed lines", []string{"-n", "-U", "--changed-since", "HEAD", `added needle start\nend added`, "f.txt"}, 0,
			"12:added needle start\n13:end added\n"},
		{"multiline across a changed and an unchanged line", []string{"-n", "-U", "--changed-since", "HEAD", `needle start\nend changed`, "f.txt"}, 1, ""},
		{"multiline, plain search finds it", []string{"-c", "-U", `needle start\nend changed`, "f.txt"}, 0, "1\n"},
		{"files of .git (--hidden) are not the commit's: all added", []string{"-c", "--hidden", "--changed-since", "HEAD", "^ref: refs/heads/"}, 0, ".git/HEAD:1\n"},
		{"since the commit itself by name", []string{"-c", "--changed-since", "master", "needle", "f.txt"}, 0, "5\n"},
	}
	for _, c := range cases {
		got := runEvgrepFull(t, r.Dir, c.args)
		if got.code != c.code || got.stdout != c.out || got.stderrText != "" {
			t.Errorf("%s: evgrep %q: code %d, stdout\n%s\nstderr %q\nwant code %d, stdout\n%s", c.name, c.args, got.code, got.stdout, got.stderrText, c.code, c.out)
		}
	}
}

func TestGitFlagsHostile(t *testing.T) {
	r, _ := revHistory(t)
	partial := gittest.New(t)
	partial.Write(map[string]string{"a": "needle\n"})
	partial.Commit("one")
	cfg := filepath.Join(partial.Dir, ".git", "config")
	old, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(old, "[extensions]\n\tpartialClone = origin\n"...), 0o644)
	outside := t.TempDir()
	cases := []struct {
		dir  string
		args []string
		want string
	}{
		{r.Dir, []string{"--rev", "nosuch", "needle"}, "rg: --rev: bad revision 'nosuch': unknown revision"},
		{r.Dir, []string{"--rev", "HEAD~5", "needle"}, "rg: --rev: bad revision 'HEAD~5': commit"},
		{r.Dir, []string{"--rev", "HEAD:a.go", "needle"}, "rg: --rev: bad revision 'HEAD:a.go': this form is not supported"},
		{r.Dir, []string{"--changed-since", "nosuch", "needle"}, "rg: --changed-since: bad revision 'nosuch'"},
		{r.Dir, []string{"--rev=", "needle"}, "rg: --rev needs a commit"},
		{r.Dir, []string{"--rev", "HEAD", "--changed-since", "HEAD", "needle"}, "rg: --rev and --changed-since cannot be used together"},
		{r.Dir, []string{"-v", "--changed-since", "HEAD", "needle"}, "rg: --changed-since cannot be used with -v/--invert-match"},
		{r.Dir, []string{"--files", "--changed-since", "HEAD"}, "rg: --changed-since does not apply to --files"},
		{outside, []string{"--rev", "HEAD", "needle"}, "rg: --rev: " + outside},
		{outside, []string{"--changed-since", "HEAD", "needle"}, "not in a Git repository"},
		{partial.Dir, []string{"--rev", "HEAD", "needle"}, "a partial clone (extensions.partialClone = origin); its missing objects would have to be fetched"},
		{r.Dir, []string{"--rev", "HEAD", "needle", "nosuchdir"}, "rg: nosuchdir: IO error for operation on nosuchdir: No such file or directory (os error 2)"},
		{r.Dir, []string{"--rev", "HEAD", "zzzz", ".", outside}, "outside the repository at " + r.Dir},
	}
	for _, c := range cases {
		got := runEvgrepFull(t, c.dir, c.args)
		lines := strings.Split(strings.TrimSuffix(got.stderrText, "\n"), "\n")
		if got.code != 2 || len(lines) != 1 || !strings.HasPrefix(lines[0], "rg: ") || !strings.Contains(lines[0], c.want) || got.stdout != "" {
			t.Errorf("evgrep %q: code %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, got.code, got.stdout, got.stderrText, c.want)
		}
	}
}

// TestRevHugeBlob: a blob over gitrev's 64 MiB bound is an error for its
// path (exit 2, one rg-style line), never read whole; the other files are
// still searched.
func TestRevHugeBlob(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 65 MiB blob")
	}
	r := gittest.New(t)
	r.Write(map[string]string{"big.txt": strings.Repeat("needle\n", (65<<20)/7), "small.txt": "needle\n"})
	r.Commit("big")
	os.Remove(filepath.Join(r.Dir, "big.txt"))
	got := runEvgrepFull(t, r.Dir, []string{"-c", "--sort", "path", "--rev", "HEAD", "needle"})
	lines := strings.Split(strings.TrimSuffix(got.stderrText, "\n"), "\n")
	if got.code != 2 || got.stdout != "small.txt:1\n" || len(lines) != 1 || !strings.HasPrefix(lines[0], "rg: big.txt: ") || !strings.Contains(lines[0], "blob too large") {
		t.Errorf("huge blob: code %d, stdout %q, stderr %q", got.code, got.stdout, got.stderrText)
	}
}

// TestRevShallow: in a shallow clone the commits it holds are searched;
// one beyond its boundary is one rg-style error.
func TestRevShallow(t *testing.T) {
	r := gittest.New(t)
	r.Write(map[string]string{"a.txt": "needle old\n"})
	parent := r.Commit("one").String()
	r.Write(map[string]string{"a.txt": "needle new\n"})
	head := r.Commit("two").String()
	gd := filepath.Join(r.Dir, ".git")
	if err := os.WriteFile(filepath.Join(gd, "shallow"), []byte(head+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(gd, "objects", parent[:2], parent[2:])); err != nil {
		t.Fatal(err)
	}
	if got := runEvgrepFull(t, r.Dir, []string{"--rev", "HEAD", "needle"}); got.code != 0 || got.stdout != "a.txt:needle new\n" || got.stderrText != "" {
		t.Errorf("HEAD of a shallow clone: %d %q %q", got.code, got.stdout, got.stderrText)
	}
	for _, rev := range []string{"HEAD~1", parent} {
		got := runEvgrepFull(t, r.Dir, []string{"--rev", rev, "needle"})
		if got.code != 2 || got.stdout != "" || strings.Count(got.stderrText, "\n") != 1 || !strings.Contains(got.stderrText, "shallow clone") {
			t.Errorf("%s beyond the boundary: %d %q %q", rev, got.code, got.stdout, got.stderrText)
		}
	}
}
