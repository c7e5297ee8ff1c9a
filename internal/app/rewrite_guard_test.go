//go:build linux || darwin

package app

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/evgrep/evgrep/syntax"
)

// TestRewriteApplyGuards: the CLI's --apply follows the agent's apply
// rules: nothing is written through a link out of the root (-L), into Git
// internals (--hidden) or a credential store, nor into a file with
// several hard links; a written file keeps its owner, group and mode
// (setgid included).
func TestRewriteApplyGuards(t *testing.T) {
	if !syntax.Supported(syntax.Python) {
		t.Skip("no parsers in this build")
	}
	base := t.TempDir()
	proj, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
	for _, d := range []string{"proj/.git/hooks", "proj/.git/objects", "proj/.git/refs", "outside", "home/.aws"} {
		os.MkdirAll(filepath.Join(base, d), 0o755)
	}
	os.WriteFile(filepath.Join(proj, ".git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
	files := []string{"proj/a.py", "proj/g.py", "proj/l1.py", "proj/.git/hooks/h.py", "outside/o.py", "home/.aws/creds.py"}
	for _, f := range files {
		os.WriteFile(filepath.Join(base, f), []byte("print(1)\n"), 0o644)
	}
	os.Symlink("../outside", filepath.Join(proj, "out"))
	os.Symlink("../home/.aws", filepath.Join(proj, "aws"))
	if err := os.Link(filepath.Join(proj, "l1.py"), filepath.Join(proj, "l2.py")); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	g := filepath.Join(proj, "g.py")
	uid, gid := os.Getuid(), os.Getgid()
	if uid == 0 {
		uid, gid = 1234, 5678
	}
	if err := os.Chown(g, uid, gid); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(g, 0o640|os.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)

	args := []string{"--ast", "print($A)", "--rewrite", "p($A)", "--lang", "python", "--apply"}
	r, errText := runEvgrepErr(t, proj, append(args, "-L", "--hidden"), "")
	if r.code != 2 || r.stdout != "rewrote a.py (1 edits)\nrewrote g.py (1 edits)\n" {
		t.Errorf("-L --hidden: exit %d, stdout %q, stderr %q", r.code, r.stdout, errText)
	}
	for _, want := range []string{
		"rg: .git/hooks/h.py: a system or credential store, or git internals, is never written; not rewritten\n",
		"rg: aws/creds.py: outside the searched roots (through a link); not rewritten\n",
		"rg: out/o.py: outside the searched roots (through a link); not rewritten\n",
		"rg: l1.py: has more than one hard link, which a rewrite would split; not rewritten\n",
	} {
		if !strings.Contains(errText, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errText)
		}
	}
	r, errText = runEvgrepErr(t, home, append(args, "--hidden"), "")
	if r.code != 2 || r.stdout != "" || !strings.Contains(errText, "rg: .aws/creds.py: a system or credential store") {
		t.Errorf("in HOME: exit %d, stdout %q, stderr %q", r.code, r.stdout, errText)
	}
	for _, f := range files {
		want := "print(1)\n"
		if f == "proj/a.py" || f == "proj/g.py" {
			want = "p(1)\n"
		}
		if b, _ := os.ReadFile(filepath.Join(base, f)); string(b) != want {
			t.Errorf("%s holds %q, want %q", f, b, want)
		}
	}
	fi, err := os.Stat(g)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if fi.Mode() != 0o640|os.ModeSetgid || int(st.Uid) != uid || int(st.Gid) != gid {
		t.Errorf("g.py is %v %d:%d, want %v %d:%d", fi.Mode(), st.Uid, st.Gid, 0o640|os.ModeSetgid, uid, gid)
	}
	l1, _ := os.Stat(filepath.Join(proj, "l1.py"))
	if l1.Sys().(*syscall.Stat_t).Nlink != 2 {
		t.Errorf("l1.py's links were split")
	}
}
