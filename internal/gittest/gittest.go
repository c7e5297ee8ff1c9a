// Package gittest builds Git repositories for tests with go-git, in
// process, so that tests of --rev and --changed-since run where no git
// program is installed. It is test support only.
package gittest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Repo is a scripted repository with a working tree.
type Repo struct {
	t    testing.TB
	Dir  string
	repo *git.Repository
	n    int
}

// New makes an empty repository in a new temporary folder.
func New(t testing.TB) *Repo {
	t.Helper()
	dir := t.TempDir()
	// The canonical path, as gitrev reports it (TMPDIR may be a link).
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	return &Repo{t: t, Dir: dir, repo: r}
}

// Write writes files (path → content, '/'-separated) into the working
// tree, making folders as needed.
func (r *Repo) Write(files map[string]string) {
	r.t.Helper()
	for p, c := range files {
		full := filepath.Join(r.Dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}

// Remove deletes working files.
func (r *Repo) Remove(paths ...string) {
	r.t.Helper()
	for _, p := range paths {
		if err := os.Remove(filepath.Join(r.Dir, filepath.FromSlash(p))); err != nil {
			r.t.Fatal(err)
		}
	}
}

// Commit stages every change of the working tree (additions and
// removals; ignored files stay out) and commits it.
func (r *Repo) Commit(msg string) plumbing.Hash {
	r.t.Helper()
	wt, err := r.repo.Worktree()
	if err != nil {
		r.t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		r.t.Fatal(err)
	}
	r.n++
	sig := &object.Signature{Name: "t", Email: "t@example.com", When: time.Unix(1700000000+int64(r.n)*60, 0).UTC()}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true})
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

// Tag makes a tag of HEAD: annotated when msg is not empty.
func (r *Repo) Tag(name, msg string) {
	r.t.Helper()
	head, err := r.repo.Head()
	if err != nil {
		r.t.Fatal(err)
	}
	var opts *git.CreateTagOptions
	if msg != "" {
		opts = &git.CreateTagOptions{Message: msg, Tagger: &object.Signature{Name: "t", Email: "t@example.com", When: time.Unix(1700000000, 0).UTC()}}
	}
	if _, err := r.repo.CreateTag(name, head.Hash(), opts); err != nil {
		r.t.Fatal(err)
	}
}

// Branch makes a branch at HEAD.
func (r *Repo) Branch(name string) {
	r.t.Helper()
	head, err := r.repo.Head()
	if err != nil {
		r.t.Fatal(err)
	}
	ref := plumbing.NewHashReference(plumbing.NewBranchReferenceName(name), head.Hash())
	if err := r.repo.Storer.SetReference(ref); err != nil {
		r.t.Fatal(err)
	}
}

// Storer is the repository's object store, for tests that write odd
// objects themselves.
func (r *Repo) Storer() *git.Repository { return r.repo }
