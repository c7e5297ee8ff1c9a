package app

import (
	"fmt"

	"github.com/evgrep/evgrep/gitrev"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/walker"
)

// runFunc is pipeline.Run or a Git revision's stand-in for it.
type runFunc func(roots []string, opts *pipeline.Options, m search.Matcher, newSink func() pipeline.Sink) error

// gitRepo opens the repository holding the first root (the current folder
// when there is none) and resolves rev in it. Errors are worded for rg's
// one-line message: "--rev: ...".
func (r *run) gitRepo(flag, rev string) (*gitrev.Repo, gitrev.Commit, error) {
	start := "."
	for _, p := range r.cfg.Paths {
		if p != "-" {
			start = p
			break
		}
	}
	repo, err := gitrev.Open(start, gitrev.DefaultLimits())
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
// added or changed since the commit). done closes the repository.
func (r *run) gitRun(opts *pipeline.Options) (run runFunc, done func(), err error) {
	cfg := r.cfg
	if cfg.Rev != "" {
		repo, c, err := r.gitRepo("--rev", cfg.Rev)
		if err != nil {
			return nil, nil, err
		}
		tree := repo.Tree(c)
		return func(roots []string, opts *pipeline.Options, m search.Matcher, newSink func() pipeline.Sink) error {
			return pipeline.RunTree(tree, roots, opts, m, newSink)
		}, func() { repo.Close() }, nil
	}
	repo, c, err := r.gitRepo("--changed-since", cfg.ChangedSince)
	if err != nil {
		return nil, nil, err
	}
	ch := repo.Changes(c)
	term := opts.Search.LineTerm
	opts.Lines = func(path string, raw []byte) ([]pipeline.LineRun, error) {
		lines, _, err := ch.Lines(path, raw, term)
		if err != nil {
			return nil, err
		}
		runs := make([]pipeline.LineRun, len(lines))
		for i, l := range lines {
			runs[i] = pipeline.LineRun{First: l.First, Last: l.Last}
		}
		return runs, nil
	}
	return pipeline.Run, func() { repo.Close() }, nil
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
