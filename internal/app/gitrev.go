package app

import (
	"fmt"

	"github.com/evgrep/evgrep/gitrev"
	"github.com/evgrep/evgrep/internal/gitsearch"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/walker"
)

// runFunc is pipeline.Run or a Git revision's stand-in for it.
type runFunc = gitsearch.RunFunc

// gitStart is where the repository is looked for: the first root (the
// current folder when there is none).
func (r *run) gitStart() string {
	for _, p := range r.cfg.Paths {
		if p != "-" {
			return p
		}
	}
	return "."
}

// gitRepo opens the repository holding the first root (the current folder
// when there is none) and resolves rev in it. Errors are worded for rg's
// one-line message: "--rev: ...".
func (r *run) gitRepo(flag, rev string) (*gitrev.Repo, gitrev.Commit, error) {
	repo, err := gitrev.Open(r.gitStart(), gitrev.DefaultLimits())
	if err != nil {
		return nil, gitrev.Commit{}, fmt.Errorf("%s: %v", flag, err)
	}
	c, err := repo.Resolve(rev)
	if err != nil {
		repo.Close()
		return nil, gitrev.Commit{}, fmt.Errorf("%s: %v", flag, err)
	}
	return repo, c, nil
}

// gitRun prepares a search with --rev (the commit's tree is walked and
// its blobs searched) or --changed-since (opts.Lines keeps the lines
// added or changed since the commit), through package gitsearch as the
// agent's. done closes the repository.
func (r *run) gitRun(opts *pipeline.Options) (run runFunc, done func(), err error) {
	flag, rev, kind := "--rev", r.cfg.Rev, gitsearch.Rev
	if r.cfg.Rev == "" {
		flag, rev, kind = "--changed-since", r.cfg.ChangedSince, gitsearch.ChangedSince
	}
	run, done, err = gitsearch.Open(r.gitStart(), rev, kind, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", flag, err)
	}
	return run, done, nil
}

// gitFiles is --files with --rev: the commit's files, chosen as a search
// would choose them.
func (r *run) gitFiles(wopts walker.Options, visit func(walker.Entry) bool) error {
	repo, c, err := r.gitRepo("--rev", r.cfg.Rev)
	if err != nil {
		return err
	}
	defer repo.Close()
	return pipeline.FilesTree(repo.Tree(c), r.cfg.Paths, wopts, visit)
}
