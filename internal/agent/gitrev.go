package agent

import (
	"errors"

	"github.com/evgrep/evgrep/gitrev"
	"github.com/evgrep/evgrep/internal/gitsearch"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
)

// Error codes of the rev and changedSince fields.
const (
	// CodeRevision: the commit-ish names no commit of the repository.
	CodeRevision = "E_REVISION_INVALID"
	// CodeRepository: the root is in no Git repository, or in one that is
	// not read (a partial clone, a promisor remote, SHA-256, reftable).
	CodeRepository = "E_REPOSITORY_UNAVAILABLE"
)

// runFunc is pipeline.Run or a Git commit's stand-in for it.
type runFunc = gitsearch.RunFunc

// gitSearch prepares a search of a commit's tree (rev) or of the lines
// changed since a commit (changedSince) under root, through package
// gitsearch as the command line's; done closes the repository. The
// working files, for changedSince, are read by the pipeline through the
// collector's Opener, so the path policy and revision tracking apply as
// in any search.
func gitSearch(r *Request, root string, opts *pipeline.Options) (run runFunc, done func(), err error) {
	field, rev, kind := "rev", r.Rev, gitsearch.Rev
	if r.ChangedSince != "" {
		field, rev, kind = "changedSince", r.ChangedSince, gitsearch.ChangedSince
	}
	run, done, err = gitsearch.Open(root, rev, kind, opts)
	var re *gitrev.RevisionError
	switch {
	case errors.As(err, &re):
		return nil, nil, &Error{Code: CodeRevision, Msg: field + ": " + err.Error()}
	case err != nil:
		return nil, nil, &Error{Code: CodeRepository, Msg: field + ": " + err.Error()}
	}
	return run, done, nil
}

// TreeFile implements pipeline.TreeSink: a file of a commit's tree is
// recorded with the revision of its blob (size and content hash, no file
// identity). Lines shown later from disk (context, inspect) are checked
// against it, so a file that differs on disk from the commit is reported
// changed instead of showing other lines.
func (c *collector) TreeFile(e walker.Entry, raw []byte) {
	c.b.AddFile(c.path, revisions.Revision{Identity: revisions.Identity{Size: int64(len(raw))}, Hash: revisions.Hash(raw), Verified: true})
}

// gitScope is what the status line adds after the root for a search of a
// commit or of changed lines.
func gitScope(snap *snapshot.Snapshot) string {
	if v := snap.Meta.Options["rev"]; v != "" {
		return " at commit " + quotePattern(v)
	}
	if v := snap.Meta.Options["changedSince"]; v != "" {
		return " in lines added or changed since " + quotePattern(v)
	}
	return ""
}
