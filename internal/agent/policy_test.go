package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evgrep/evgrep/internal/credpolicy"
	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/syntax"
)

// probeEnv marks a re-executed test binary that prints forbidden(path) for
// the path it holds (see TestMain), so that a policy can be tried with a
// HOME the test process never had.
const probeEnv = "EVGREP_AGENT_TEST_FORBIDDEN"

// mkdirs creates folders under root.
func mkdirs(t *testing.T, root string, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// TestCredentialStoresResolved: credential stores are matched after
// resolving both sides, for every entry of the one table.
func TestCredentialStoresResolved(t *testing.T) {
	base := tree(t, nil)
	// A home reached through a symlink, whose ~/.ssh and ~/.config are
	// themselves links into a dotfiles folder.
	real := filepath.Join(base, "real-home")
	link := filepath.Join(base, "home-link")
	dot := filepath.Join(base, "dotfiles")
	mkdirs(t, base, "real-home/project", "dotfiles/ssh", "dotfiles/config")
	symlink(t, real, link)
	symlink(t, filepath.Join(dot, "ssh"), filepath.Join(real, ".ssh"))
	symlink(t, filepath.Join(dot, "config"), filepath.Join(real, ".config"))
	t.Setenv("HOME", link)

	for _, tc := range []struct {
		path string
		want bool
	}{
		{filepath.Join(real, ".ssh/id_ed25519"), true},
		{filepath.Join(link, ".ssh/id_ed25519"), true},
		{filepath.Join(dot, "ssh"), true},
		{filepath.Join(dot, "ssh/id_ed25519"), true},
		{filepath.Join(dot, "config/gh/hosts.yml"), true}, // not created yet
		{filepath.Join(real, ".aws/credentials"), true},
		{filepath.Join(real, ".gnupg/private-keys-v1.d/x.key"), true},
		{filepath.Join(real, ".vault-token"), true},
		{filepath.Join(real, ".terraform.d/credentials.tfrc.json"), true},
		{filepath.Join(real, ".m2/settings.xml"), true},
		{filepath.Join(real, ".local/share/keyrings/login.keyring"), true},
		{filepath.Join(real, ".bash_history"), true},
		{filepath.Join(real, ".zsh_history"), true},
		{filepath.Join(real, ".python_history"), true},
		{filepath.Join(real, ".psql_history"), true},
		{filepath.Join(real, ".mysql_history"), true},
		{filepath.Join(real, ".config/hub"), true},
		{filepath.Join(real, ".config/op/config"), true},
		{filepath.Join(real, ".docker/config.json"), true},
		{filepath.Join(real, ".kube/config"), true},
		{filepath.Join(real, ".git-credentials"), true},
		{filepath.Join(real, ".netrc"), true},
		{filepath.Join(real, ".pgpass"), true},
		{"/proc/self/environ", true},
		{"/etc/shadow", true},
		{"/etc/ssh/ssh_host_ed25519_key", true},
		{"/etc/hostname", false},
		{filepath.Join(real, "project/main.go"), false},
		{filepath.Join(real, ".sshrc"), false},
		{filepath.Join(dot, "config/nvim/init.lua"), false},
		{filepath.Join(dot, "sshx"), false},
	} {
		if got := forbidden(tc.path); got != tc.want {
			t.Errorf("HOME=%s: forbidden(%s) = %v, want %v", link, strings.TrimPrefix(tc.path, base), got, tc.want)
		}
	}

	// End to end: a search over the folder that holds both the home and
	// the dotfiles never shows the key behind the links.
	write(t, filepath.Join(dot, "ssh/id_ed25519"), "needle PRIVATE KEY\n")
	write(t, filepath.Join(real, "project/main.go"), "needle\n")
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: base}
	a := ask(t, env, `{"pattern":"needle","mode":"matches"}`)
	if a.Details.Totals.Lines != 1 || strings.Contains(a.Text, "PRIVATE") {
		t.Errorf("search over the home's parent read the linked ~/.ssh:\n%s", a.Text)
	}
	for _, req := range []string{
		fmt.Sprintf(`{"pattern":"needle","path":%q}`, filepath.Join(dot, "ssh")),
		fmt.Sprintf(`{"pattern":"needle","paths":[%q]}`, "dotfiles/ssh"),
		fmt.Sprintf(`{"mode":"inspect","path":%q,"line":1}`, filepath.Join(dot, "ssh/id_ed25519")),
		`{"mode":"outline","paths":["dotfiles/ssh"]}`,
		// Missing stores are refused too: the answer tells nothing of them.
		fmt.Sprintf(`{"pattern":"needle","path":%q}`, filepath.Join(link, ".aws/credentials")),
		`{"pattern":"needle","paths":["real-home/.kube/config"]}`,
	} {
		a := HandleJSON(context.Background(), []byte(req), env)
		if !a.Failed || a.Details.Error.Code != CodePathForbidden || strings.Contains(a.Text, "PRIVATE") {
			t.Errorf("%s: want %s, got %s", req, CodePathForbidden, a.Text)
		}
	}
}

// TestHomeUnsetUsesAccountHome: with HOME unset, empty or relative, the
// account's home from the password database is still protected. Each case
// runs in a fresh process, which never saw a usable HOME.
func TestHomeUnsetUsesAccountHome(t *testing.T) {
	u, err := user.Current()
	if err != nil || u.HomeDir == "" || u.HomeDir == "/" {
		t.Skip("no usable home in the password database")
	}
	key := filepath.Join(u.HomeDir, ".ssh", "id_rsa")
	for _, home := range []*string{nil, ptr(""), ptr("relative/home"), ptr(".")} {
		var env []string
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "HOME=") {
				env = append(env, kv)
			}
		}
		desc := "unset"
		if home != nil {
			env = append(env, "HOME="+*home)
			desc = fmt.Sprintf("%q", *home)
		}
		cmd := exec.Command(os.Args[0])
		cmd.Dir = t.TempDir()
		cmd.Env = append(env, probeEnv+"="+key)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("probe: %v", err)
		}
		if strings.TrimSpace(string(out)) != "true" {
			t.Errorf("HOME %s: forbidden(%s) = %s, want true", desc, key, out)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestGitStoresByStructure: git stores are recognised by what they are
// (HEAD, objects/, refs/; a linked worktree's commondir), whatever their
// name: a --separate-git-dir store, a bare x.git, a worktree's store.
func TestGitStoresByStructure(t *testing.T) {
	root := tree(t, map[string]string{
		"work/src.txt":              "needle\n",
		"work/.git":                 "gitdir: ../store\n",
		"store/HEAD":                "ref: refs/heads/main\n",
		"store/config":              "[remote] needle = https://token@example.com\n",
		"store/refs/heads/main":     "0000\n",
		"store/objects/info/packs":  "needle\n",
		"repo.git/HEAD":             "ref: refs/heads/main\n",
		"repo.git/description":      "needle secret\n",
		"repo.git/refs/tags/v1":     "0000\n",
		"repo.git/objects/pack/x":   "needle\n",
		"wtstore/HEAD":              "0000\n",
		"wtstore/commondir":         "../store\n",
		"wtstore/ORIG_HEAD":         "needle\n",
		"notgit/HEAD":               "needle, a file named HEAD in an ordinary folder\n",
		"notgit/objects/README.txt": "needle\n",
	})
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	a := ask(t, env, `{"pattern":"needle","mode":"matches"}`)
	var got []string
	for _, m := range a.Details.Matches {
		got = append(got, m.Path)
	}
	if want := "notgit/HEAD notgit/objects/README.txt work/src.txt"; strings.Join(got, " ") != want {
		t.Errorf("search read git internals: matched %q, want %q", got, want)
	}
	for _, req := range []string{
		`{"pattern":"needle","path":"store"}`,
		`{"pattern":"needle","path":"repo.git/objects"}`,
		`{"pattern":"needle","paths":["wtstore"]}`,
		`{"pattern":"needle","paths":["repo.git"]}`,
		`{"mode":"inspect","path":"store/config","line":1}`,
		`{"mode":"outline","paths":["store"]}`,
	} {
		a := HandleJSON(context.Background(), []byte(req), env)
		if !a.Failed || a.Details.Error.Code != CodePathForbidden {
			t.Errorf("%s: want %s, got %s", req, CodePathForbidden, a.Text)
		}
	}
	a = ask(t, env, `{"mode":"inspect","targets":[{"path":"repo.git/description","line":1},{"path":"work/src.txt","line":1}]}`)
	if tg := a.Details.Targets; len(tg) != 2 || tg[0].Outcome != outcomeError || !strings.HasPrefix(tg[0].Error, CodePathForbidden) || tg[1].Outcome != outcomeReturned || strings.Contains(a.Text, "secret") {
		t.Errorf("inspect of a bare store's file: %s", a.Text)
	}
}

// TestSwappedForSymlinkNotRead: a file the walk saw as regular and that
// became a symlink (or whose folder became one) before it is opened is not
// read: the open does not follow the last component and the opened file's
// real path is checked.
func TestSwappedForSymlinkNotRead(t *testing.T) {
	home := tree(t, map[string]string{".ssh/secret.go": "package ssh\n\nfunc SecretKeyMaterial() {}\n"})
	t.Setenv("HOME", home)
	root := tree(t, map[string]string{"ok.go": "package ok\n\nfunc Fine() {}\n"})
	symlink(t, filepath.Join(home, ".ssh/secret.go"), filepath.Join(root, "a.go"))
	symlink(t, filepath.Join(home, ".ssh"), filepath.Join(root, "keys"))
	outs := OutlineFiles(root, []string{"a.go", "keys/secret.go", "ok.go"}, input.Options{})
	for _, fo := range outs {
		leaked := false
		for _, it := range fo.Items {
			leaked = leaked || strings.Contains(it.Signature, "Secret")
		}
		refused := strings.Contains(fo.Note, "not read") || strings.Contains(fo.Note, "not followed")
		switch {
		case fo.Path == "ok.go" && (refused || syntax.Supported(syntax.Go) && len(fo.Items) != 1):
			t.Errorf("ok.go not outlined: %+v", fo)
		case fo.Path != "ok.go" && (leaked || len(fo.Items) > 0 || !refused):
			t.Errorf("%s (a link into ~/.ssh) was read: %+v", fo.Path, fo)
		}
	}
}

// releaseFIFO unblocks a reader stuck on a FIFO by opening and closing
// its write end.
func releaseFIFO(path string) {
	if f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
		f.Close()
	}
}

// TestSpecialFilesNoHang: a FIFO or a socket named by a request is refused
// at once, as path, paths, an inspect target or an outline path.
func TestSpecialFilesNoHang(t *testing.T) {
	root := tree(t, map[string]string{"a.txt": "needle\n"})
	fifo := filepath.Join(root, "p.fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	t.Cleanup(func() { releaseFIFO(fifo) })
	sock := filepath.Join(root, "s.sock")
	if l, err := net.Listen("unix", sock); err == nil {
		t.Cleanup(func() { l.Close() })
	} else {
		sock = ""
	}
	// A character device outside /dev (a copy of /dev/zero), where the
	// system lets the test make one.
	dev := filepath.Join(root, "zero.dev")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o644, 1<<8|5); err != nil {
		dev = ""
	}
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	for _, special := range []string{fifo, sock, dev} {
		if special == "" {
			continue
		}
		rel := filepath.Base(special)
		t.Logf("special file %s", rel)
		for _, tc := range []struct {
			req       string
			perTarget bool // the answer does not fail (a batch: one target does)
		}{
			{req: `{"pattern":"needle"}`, perTarget: true}, // the walk skips it
			{req: `{"mode":"outline"}`, perTarget: true},
			{req: fmt.Sprintf(`{"pattern":"needle","path":%q}`, special)},
			{req: fmt.Sprintf(`{"pattern":"needle","paths":[%q]}`, rel)},
			{req: fmt.Sprintf(`{"pattern":"needle","paths":["a.txt",%q]}`, rel)},
			{req: fmt.Sprintf(`{"mode":"inspect","path":%q,"line":1}`, rel)},
			{req: fmt.Sprintf(`{"mode":"inspect","targets":[{"path":%q,"line":1},{"path":"a.txt","line":1}]}`, rel), perTarget: true},
			{req: fmt.Sprintf(`{"mode":"outline","paths":[%q]}`, rel)},
			{req: fmt.Sprintf(`{"mode":"outline","path":%q}`, special)},
		} {
			done := make(chan *Answer, 1)
			go func() { done <- HandleJSON(context.Background(), []byte(tc.req), env) }()
			var a *Answer
			select {
			case a = <-done:
			case <-time.After(10 * time.Second):
				releaseFIFO(fifo)
				t.Fatalf("%s hangs", tc.req)
			}
			if tc.perTarget && a.Details.Mode != ModeInspect {
				if a.Failed {
					t.Errorf("%s: %s", tc.req, a.Text)
				}
				continue
			}
			if tc.perTarget {
				tg := a.Details.Targets
				if a.Failed || len(tg) != 2 || tg[0].Outcome != outcomeError || !strings.HasPrefix(tg[0].Error, CodePathForbidden) || tg[1].Outcome != outcomeReturned {
					t.Errorf("%s: want a per-target error, got %s", tc.req, a.Text)
				}
				continue
			}
			if !a.Failed || a.Details.Error.Code != CodePathForbidden {
				t.Errorf("%s: want %s, got %s", tc.req, CodePathForbidden, a.Text)
			}
		}
		done := make(chan []FileOutline, 1)
		go func() { done <- OutlineFiles(root, []string{rel}, input.Options{}) }()
		select {
		case outs := <-done:
			if len(outs) != 1 || outs[0].Note == "" || len(outs[0].Items) > 0 {
				t.Errorf("OutlineFiles(%s) = %+v", rel, outs)
			}
		case <-time.After(10 * time.Second):
			releaseFIFO(fifo)
			t.Fatalf("OutlineFiles(%s) hangs", rel)
		}
	}
}

// TestAnswersBounded: every answer, errors included, is at most 16 KiB:
// echoed paths and patterns are shortened, a summary of files with very
// long paths ends its page early and its cursor walk lists every file once.
func TestAnswersBounded(t *testing.T) {
	// 30 files with 3,000-byte paths: 11 folders of 250 bytes, then a
	// 240-byte file name.
	var dir []string
	for i := 0; i < 11; i++ {
		dir = append(dir, fmt.Sprintf("%02d", i)+strings.Repeat("d", 248))
	}
	files := map[string]string{}
	for i := 0; i < 30; i++ {
		name := fmt.Sprintf("%02d", i) + strings.Repeat("f", 238)
		files[filepath.Join(append(dir, name)...)] = strings.Repeat("needle\n", i+1)
	}
	// Long lines around a match, shown as context.
	var long strings.Builder
	for i := 0; i < 60; i++ {
		if i%3 == 0 {
			long.WriteString("needle ")
		}
		long.WriteString(strings.Repeat("é", 1500) + "\n")
	}
	files["long/lines.txt"] = long.String()
	root := tree(t, files)
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	huge := strings.Repeat("a", 100_000)
	hugeArg, _ := json.Marshal(huge)
	for _, req := range []string{
		`{"pattern":"(` + huge + `"}`,
		`{"pattern":` + string(hugeArg) + `,"literal":true}`,
		`{"pattern":` + string(hugeArg) + `,"literal":true,"mode":"matches"}`,
		`{"pattern":"needle","path":` + string(hugeArg) + `}`,
		`{"pattern":"needle","path":"/` + strings.Repeat("x/", 50_000) + `"}`,
		`{"pattern":"needle","paths":[` + string(hugeArg) + `]}`,
		`{"pattern":"needle","paths":["/` + huge + `"]}`,
		`{"pattern":"needle","mode":` + string(hugeArg) + `}`,
		`{"pattern":"needle",` + string(hugeArg) + `:1}`,
		`{"mode":"inspect","path":` + string(hugeArg) + `,"line":1}`,
		`{"mode":"inspect","targets":[` + strings.Repeat(`{"path":`+string(hugeArg)+`,"line":1},`, 4) + `{"path":"long/lines.txt","line":1}]}`,
		`{"mode":"inspect","targets":[{"path":"` + strings.Repeat("x/", 50_000) + `","line":1}]}`,
		`{"pattern":"needle","glob":` + string(hugeArg) + `}`,
		`{"cursor":` + string(hugeArg) + `}`,
		`{"pattern":"needle"}`,
		`{"pattern":"needle","mode":"summary"}`,
		`{"pattern":"needle","mode":"matches","limit":100}`,
		`{"pattern":"needle","mode":"matches","limit":100,"context":20,"paths":["long"]}`,
		`{"pattern":"needle","mode":"matches","limit":100,"context":3}`,
		`{"mode":"outline"}`,
	} {
		a := HandleJSON(context.Background(), []byte(req), env)
		short := shortReq(req)
		if len(a.Text) > snapshot.MaxResponseBytes {
			t.Errorf("%s: text of %d bytes", short, len(a.Text))
		}
		if a.Failed {
			if b, _ := json.Marshal(a); len(b) > snapshot.MaxResponseBytes {
				t.Errorf("%s: error answer of %d bytes as JSON", short, len(b))
			}
		}
		if len(a.Details.Pattern) > 1024 || len(a.Details.Root) > 4096 {
			t.Errorf("%s: details echo a %d-byte pattern, %d-byte root", short, len(a.Details.Pattern), len(a.Details.Root))
		}
	}
	// The summary walk lists all 30 long-path files and long/lines.txt,
	// each once.
	seen := map[string]bool{}
	a := ask(t, env, `{"pattern":"needle","mode":"summary"}`)
	for pages := 0; ; pages++ {
		if len(a.Text) > snapshot.MaxResponseBytes || pages > 30 {
			t.Fatalf("summary page %d: %d bytes", pages, len(a.Text))
		}
		for _, f := range a.Details.Files {
			if seen[f.Path] {
				t.Fatalf("summary walk repeats %s", shortReq(f.Path))
			}
			seen[f.Path] = true
		}
		if a.Details.Cursor == "" {
			break
		}
		a = ask(t, env, fmt.Sprintf(`{"cursor":%q}`, a.Details.Cursor))
	}
	if len(seen) != 31 {
		t.Errorf("summary walk listed %d files, want 31", len(seen))
	}
}

func shortReq(s string) string {
	if len(s) > 120 {
		return s[:120] + fmt.Sprintf("…(%d bytes)", len(s))
	}
	return s
}

// TestPolicyTakesStarted: the first policy is the set credpolicy.Start
// computed while the process initialised, when it is for the same HOME
// and fresh; a stale one, or one already used, is computed again.
func TestPolicyTakesStarted(t *testing.T) {
	reset := func() {
		policyCache.Lock()
		policyCache.p = nil
		policyCache.Unlock()
	}
	reset()
	defer reset()
	credpolicy.Start()
	started, ok := credpolicy.Take(os.Getenv("HOME"))
	if !ok {
		t.Fatal("no started set")
	}
	if p := currentPolicy(); p.Set != started && time.Since(started.At) < policyTTL {
		t.Errorf("the first policy is not the started set")
	}
	// Once used, the started set is not taken again past its TTL.
	policyCache.Lock()
	policyCache.p.At = time.Now().Add(-2 * policyTTL)
	policyCache.Unlock()
	if p := currentPolicy(); p.Set == started {
		t.Error("a stale started set was taken again")
	}
}
