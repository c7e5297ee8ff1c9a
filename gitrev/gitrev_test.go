package gitrev_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/gitrev"
	"github.com/evgrep/evgrep/internal/gittest"
)

// history makes a repository of three commits with a tag and a branch.
func history(t *testing.T) (*gittest.Repo, []string) {
	r := gittest.New(t)
	var hs []string
	r.Write(map[string]string{"a.txt": "one\n", "dir/b.txt": "bee\n"})
	hs = append(hs, r.Commit("first").String())
	r.Tag("v1", "release one")
	r.Tag("light", "")
	r.Write(map[string]string{"a.txt": "one\ntwo\n"})
	hs = append(hs, r.Commit("second").String())
	r.Branch("side")
	r.Write(map[string]string{"c.txt": "sea\n"})
	hs = append(hs, r.Commit("third").String())
	return r, hs
}

func TestResolve(t *testing.T) {
	r, hs := history(t)
	repo, err := gitrev.Open(r.Dir, gitrev.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	cases := []struct {
		rev, want, err string
	}{
		{"HEAD", hs[2], ""},
		{"@", hs[2], ""},
		{"HEAD~1", hs[1], ""},
		{"HEAD^", hs[1], ""},
		{"HEAD~2", hs[0], ""},
		{"HEAD^^", hs[0], ""},
		{"HEAD~1^1", hs[0], ""},
		{"HEAD^0", hs[2], ""},
		{"HEAD^{commit}", hs[2], ""},
		{"master", hs[2], ""},
		{"refs/heads/master", hs[2], ""},
		{"side", hs[1], ""},
		{"v1", hs[0], ""},
		{"v1^{}", hs[0], ""},
		{"tags/v1", hs[0], ""},
		{"light", hs[0], ""},
		{hs[1], hs[1], ""},
		{hs[1][:10], hs[1], ""},
		{strings.ToUpper(hs[1][:8]), hs[1], ""},
		{"HEAD~3", "", "has no parent"},
		{"HEAD^2", "", "has no parent 2"},
		{"nosuch", "", "unknown revision"},
		{"", "", "empty"},
		{"HEAD..side", "", "not supported"},
		{"HEAD:a.txt", "", "not supported"},
		{"HEAD@{1}", "", "not supported"},
		{"HEAD^{tree}", "", "not supported"},
		{"HEAD~999999999", "", "too far back"},
		{strings.Repeat("a", 300), "", "longer than"},
		{"0000000000000000000000000000000000000000", "", "missing"},
		{"a b", "", "not supported"},
	}
	for _, c := range cases {
		got, err := repo.Resolve(c.rev)
		if c.err != "" {
			var re *gitrev.RevisionError
			if err == nil || !strings.Contains(err.Error(), c.err) || !errors.As(err, &re) {
				t.Errorf("Resolve(%.20q) = %v, %v; want a RevisionError with %q", c.rev, got, err, c.err)
			}
			continue
		}
		if err != nil || got.String() != c.want {
			t.Errorf("Resolve(%q) = %v, %v; want %s", c.rev, got, err, c.want)
		}
	}
}

func TestTreeReads(t *testing.T) {
	r, _ := history(t)
	if err := os.Symlink("a.txt", filepath.Join(r.Dir, "link")); err != nil {
		t.Fatal(err)
	}
	r.Commit("a link")
	repo, err := gitrev.Open(filepath.Join(r.Dir, "dir"), gitrev.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	if repo.Top() != r.Dir {
		t.Fatalf("Top = %s, want %s", repo.Top(), r.Dir)
	}
	c, err := repo.Resolve("HEAD~2")
	if err != nil {
		t.Fatal(err)
	}
	tr := repo.Tree(c)
	ents, err := tr.List("")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name)
	}
	if got := strings.Join(names, ","); got != "a.txt,dir" {
		t.Errorf("HEAD~2 top = %s", got)
	}
	if b, err := tr.ReadFile("a.txt"); err != nil || string(b) != "one\ntwo\n" {
		t.Errorf("a.txt = %q, %v", b, err)
	}
	if b, err := tr.ReadFile("dir/b.txt"); err != nil || string(b) != "bee\n" {
		t.Errorf("dir/b.txt = %q, %v", b, err)
	}
	if _, err := tr.ReadFile("c.txt"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("c.txt at HEAD~2: %v, want not exist", err)
	}
	if isDir, err := tr.Stat("dir"); err != nil || !isDir {
		t.Errorf("Stat(dir) = %v, %v", isDir, err)
	}
	// The link is left out of a listing, as a walk skips links.
	head, _ := repo.Resolve("HEAD")
	ents, _ = repo.Tree(head).List("")
	for _, e := range ents {
		if e.Name == "link" {
			t.Errorf("a symbolic link was listed")
		}
	}
	if rel, err := repo.Rel(filepath.Join(r.Dir, "dir", "x")); err != nil || rel != "dir/x" {
		t.Errorf("Rel = %q, %v", rel, err)
	}
	if _, err := repo.Rel(filepath.Dir(r.Dir)); err == nil {
		t.Errorf("Rel of the parent folder: no error")
	}
	if _, err := repo.Rel(filepath.Join(r.Dir, ".git", "config")); err == nil {
		t.Errorf("Rel of .git/config: no error")
	}
}

func TestBlobBound(t *testing.T) {
	r := gittest.New(t)
	r.Write(map[string]string{"big.txt": strings.Repeat("x", 4096), "small.txt": "s\n"})
	r.Commit("big")
	lim := gitrev.DefaultLimits()
	lim.MaxBlobSize = 1024
	repo, err := gitrev.Open(r.Dir, lim)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	c, _ := repo.Resolve("HEAD")
	tr := repo.Tree(c)
	if _, err := tr.ReadFile("big.txt"); !errors.Is(err, gitrev.ErrTooLarge) {
		t.Errorf("big blob: %v, want ErrTooLarge", err)
	}
	if b, err := tr.ReadFile("small.txt"); err != nil || string(b) != "s\n" {
		t.Errorf("small blob: %q, %v", b, err)
	}
	if _, _, err := repo.Changes(c).Lines(filepath.Join(r.Dir, "big.txt"), []byte("y"), '\n'); !errors.Is(err, gitrev.ErrTooLarge) {
		t.Errorf("diff against a big blob: %v, want ErrTooLarge", err)
	}
	lim = gitrev.DefaultLimits()
	lim.MaxFiles = 1
	repo2, _ := gitrev.Open(r.Dir, lim)
	defer repo2.Close()
	if _, err := repo2.Tree(c).List(""); err == nil || !strings.Contains(err.Error(), "more than 1 entries") {
		t.Errorf("MaxFiles 1: %v", err)
	}
}

func TestRefused(t *testing.T) {
	cases := []struct {
		name   string
		config string
		file   string
		want   string
	}{
		{"partial clone", "[extensions]\n\tpartialClone = origin\n", "", "partial clone"},
		{"promisor remote", "[remote \"origin\"]\n\turl = x\n\tpromisor = true\n", "", "promisor remote"},
		{"filter", "[remote \"origin\"]\n\tpartialclonefilter = blob:none\n", "", "partial clone filter"},
		{"promisor pack", "", "objects/pack/pack-1.promisor", "promisor packs"},
		{"sha256", "[extensions]\n\tobjectFormat = sha256\n", "", "object format sha256"},
		{"reftable", "[extensions]\n\trefStorage = reftable\n", "", "ref storage reftable"},
	}
	for _, c := range cases {
		r := gittest.New(t)
		r.Write(map[string]string{"a": "a\n"})
		r.Commit("one")
		cfg := filepath.Join(r.Dir, ".git", "config")
		old, _ := os.ReadFile(cfg)
		if err := os.WriteFile(cfg, append(old, c.config...), 0o644); err != nil {
			t.Fatal(err)
		}
		if c.file != "" {
			p := filepath.Join(r.Dir, ".git", c.file)
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, nil, 0o644)
		}
		_, err := gitrev.Open(r.Dir, gitrev.DefaultLimits())
		if !errors.Is(err, gitrev.ErrRefused) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Open = %v, want refused with %q", c.name, err, c.want)
		}
	}
	if _, err := gitrev.Open(t.TempDir(), gitrev.DefaultLimits()); !errors.Is(err, gitrev.ErrNotRepository) {
		t.Errorf("a folder outside any repository: %v", err)
	}
}

func TestShallow(t *testing.T) {
	r, hs := history(t)
	// Make it shallow at HEAD: record the boundary, drop the parent.
	gd := filepath.Join(r.Dir, ".git")
	if err := os.WriteFile(filepath.Join(gd, "shallow"), []byte(hs[2]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(gd, "objects", hs[1][:2], hs[1][2:])); err != nil {
		t.Fatal(err)
	}
	repo, err := gitrev.Open(r.Dir, gitrev.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	c, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatalf("HEAD of a shallow clone: %v", err)
	}
	if b, err := repo.Tree(c).ReadFile("c.txt"); err != nil || string(b) != "sea\n" {
		t.Errorf("c.txt = %q, %v", b, err)
	}
	_, err = repo.Resolve("HEAD~1")
	if err == nil || !strings.Contains(err.Error(), "shallow clone") {
		t.Errorf("HEAD~1 beyond the shallow boundary: %v", err)
	}
}

func TestLinkedWorktree(t *testing.T) {
	r, hs := history(t)
	// A linked worktree as git worktree add lays it out.
	wt := filepath.Join(t.TempDir(), "wt")
	wtGit := filepath.Join(r.Dir, ".git", "worktrees", "wt")
	os.MkdirAll(wt, 0o755)
	os.MkdirAll(wtGit, 0o755)
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+wtGit+"\n"), 0o644)
	os.WriteFile(filepath.Join(wtGit, "commondir"), []byte("../..\n"), 0o644)
	os.WriteFile(filepath.Join(wtGit, "HEAD"), []byte("ref: refs/heads/side\n"), 0o644)
	repo, err := gitrev.Open(wt, gitrev.DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	c, err := repo.Resolve("HEAD")
	if err != nil || c.String() != hs[1] {
		t.Errorf("HEAD of the linked worktree = %v, %v; want %s (side)", c, err, hs[1])
	}
	if c, err := repo.Resolve("master~2"); err != nil || c.String() != hs[0] {
		t.Errorf("master~2 = %v, %v", c, err)
	}
}
