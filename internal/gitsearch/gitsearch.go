// Package gitsearch puts a Git commit under the one search pipeline, for
// every front end: a search of the commit's files (rev: its tree walked
// and its blobs searched) or of the lines added or changed since it
// (changedSince: the working files, each searched only in those lines).
// The command line's --rev and --changed-since and the agent's rev and
// changedSince fields both run through Open.
package gitsearch

import (
	"github.com/evgrep/evgrep/gitrev"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/search"
)

// RunFunc is pipeline.Run, or pipeline.RunTree bound to a commit's tree.
type RunFunc func(roots []string, opts *pipeline.Options, m search.Matcher, newSink func() pipeline.Sink) error

// Kind says what is searched of the commit.
type Kind int

const (
	// Rev searches the commit's files.
	Rev Kind = iota
	// ChangedSince searches the working files' lines added or changed
	// since the commit.
	ChangedSince
)

// Open opens the repository holding start, resolves the commit-ish rev in
// it and returns the search to run: for ChangedSince, opts.Lines is set to
// the lines changed since the commit (with opts.Search.LineTerm as the
// line terminator). done closes the repository. The error is gitrev's: a
// *gitrev.RevisionError when rev names no commit.
func Open(start, rev string, kind Kind, opts *pipeline.Options) (run RunFunc, done func(), err error) {
	repo, err := gitrev.Open(start, gitrev.DefaultLimits())
	if err != nil {
		return nil, nil, err
	}
	c, err := repo.Resolve(rev)
	if err != nil {
		repo.Close()
		return nil, nil, err
	}
	done = func() { repo.Close() }
	if kind == Rev {
		tree := repo.Tree(c)
		return func(roots []string, opts *pipeline.Options, m search.Matcher, newSink func() pipeline.Sink) error {
			return pipeline.RunTree(tree, roots, opts, m, newSink)
		}, done, nil
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
	return pipeline.Run, done, nil
}
