package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
)

// TestHardLinkedCredentialNotRead: a hard link made inside a project to a
// credential file is neither searched nor inspected, while files of the
// project that are hard links of each other still are.
func TestHardLinkedCredentialNotRead(t *testing.T) {
	base := t.TempDir()
	home, proj := filepath.Join(base, "home"), filepath.Join(base, "proj")
	key := filepath.Join(home, ".ssh", "id_rsa")
	write(t, key, "BEGIN KEY secret-material\n")
	write(t, filepath.Join(proj, "a.txt"), "KEY harmless\n")
	for _, l := range [][2]string{{key, "x.txt"}, {filepath.Join(proj, "a.txt"), "b.txt"}} {
		if err := os.Link(l[0], filepath.Join(proj, l[1])); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
	}
	t.Setenv("HOME", home)
	env := Env{Store: snapshot.NewStore(t.TempDir()), Cwd: proj}
	a := askJSON(t, env, `{"pattern":"KEY"}`)
	// The link may be named (as a file the policy did not read), never
	// searched: no line of it, no content.
	if a.Failed || strings.Contains(a.Text, "secret-material") || strings.Contains(a.Text, "x.txt:1:") {
		t.Errorf("search shows the linked key:\n%s", a.Text)
	}
	for _, m := range a.Details.Matches {
		if m.Path == "x.txt" {
			t.Errorf("a match line of the linked key: %+v", m)
		}
	}
	if !strings.Contains(a.Text, "a.txt") || !strings.Contains(a.Text, "b.txt") {
		t.Errorf("search lost the project's own linked files:\n%s", a.Text)
	}
	for _, req := range []string{
		`{"mode":"inspect","path":"x.txt","line":1}`,
		`{"mode":"inspect","targets":[{"path":"x.txt","line":1}]}`,
		`{"mode":"outline","path":"x.txt"}`,
	} {
		if a := askJSON(t, env, req); strings.Contains(a.Text, "secret-material") {
			t.Errorf("%s shows the linked key:\n%s", req, a.Text)
		}
	}
}

// TestRootForbidsEveryHome: running as root, the credential stores of
// every home folder (those of /home and /root, present or not) are
// forbidden, and an explicit path into one answers forbidden, not "not
// found".
func TestRootForbidsEveryHome(t *testing.T) {
	old := runningAsRoot
	runningAsRoot = true
	defer func() { runningAsRoot = old }()
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"/home/evgrep-nosuchuser/.ssh/id_rsa", true},
		{"/home/evgrep-nosuchuser/.ssh", true},
		{"/home/evgrep-nosuchuser/.config/gh/hosts.yml", true},
		{"/root/.aws/credentials", true},
		{"/home/evgrep-nosuchuser/src/main.go", false},
		{"/home/evgrep-nosuchuser/.sshx", false},
		{"/home/evgrep-nosuchuser", false},
	} {
		if got := forbidden(tc.path); got != tc.want {
			t.Errorf("forbidden(%s) = %v, want %v", tc.path, got, tc.want)
		}
	}
	env := Env{Store: snapshot.NewStore(t.TempDir()), Cwd: t.TempDir()}
	for _, req := range []string{
		`{"pattern":"x","path":"/home/evgrep-nosuchuser/.ssh"}`,
		`{"mode":"inspect","path":"/home/evgrep-nosuchuser/.ssh/id_rsa","line":1}`,
	} {
		a := askJSON(t, env, req)
		if !strings.Contains(a.Text, "E_PATH_FORBIDDEN") {
			t.Errorf("%s: %s", req, a.Text)
		}
	}
}
