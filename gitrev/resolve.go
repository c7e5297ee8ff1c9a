package gitrev

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// RevisionError is a commit-ish that names no commit of the repository.
type RevisionError struct {
	// Rev is the commit-ish as given.
	Rev string
	// Msg says why.
	Msg string
}

func (e *RevisionError) Error() string { return fmt.Sprintf("bad revision '%s': %s", e.Rev, e.Msg) }

// Commit is a resolved commit-ish.
type Commit struct {
	// Hash is the commit's object name.
	Hash plumbing.Hash
	tree plumbing.Hash
}

// String returns the commit's 40-digit name.
func (c Commit) String() string { return c.Hash.String() }

// Resolve turns a commit-ish into a commit: HEAD (or @), a full or
// abbreviated (at least 4 digits) object name, a ref name as Git
// abbreviates them (X, refs/X, refs/tags/X, refs/heads/X, refs/remotes/X,
// refs/remotes/X/HEAD, in that order, as git rev-parse tries them), then
// any of the suffixes ~N, ~, ^N, ^, ^{commit}, ^{}. Annotated tags are
// peeled to their commit. Other forms (ranges, :path, @{...}) are refused.
func (r *Repo) Resolve(rev string) (Commit, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	bad := func(format string, a ...any) error {
		return &RevisionError{Rev: shorten(rev), Msg: fmt.Sprintf(format, a...)}
	}
	if rev == "" {
		return Commit{}, bad("empty")
	}
	if len(rev) > maxRevisionLength {
		return Commit{}, bad("longer than %d bytes", maxRevisionLength)
	}
	for i := 0; i < len(rev); i++ {
		if c := rev[i]; c <= ' ' || c == 0x7f || c == ':' || c == '\\' {
			return Commit{}, bad("this form is not supported (a commit-ish: a name, a ref, ~N, ^N)")
		}
	}
	if strings.Contains(rev, "..") || strings.Contains(rev, "@{") {
		return Commit{}, bad("this form is not supported (a commit-ish: a name, a ref, ~N, ^N)")
	}
	base, suffix := rev, ""
	if i := strings.IndexAny(rev, "~^"); i >= 0 {
		base, suffix = rev[:i], rev[i:]
	}
	h, err := r.resolveBase(base)
	if err != nil {
		var re *RevisionError
		if errors.As(err, &re) {
			re.Rev = shorten(rev)
			return Commit{}, re
		}
		return Commit{}, err
	}
	h, c, err := r.readCommit(h)
	if err != nil {
		return Commit{}, bad("%v", err)
	}
	steps := 0
	for suffix != "" {
		op := suffix[0]
		suffix = suffix[1:]
		if op == '^' && strings.HasPrefix(suffix, "{") {
			end := strings.IndexByte(suffix, '}')
			if end < 0 {
				return Commit{}, bad("unclosed ^{")
			}
			switch suffix[1:end] {
			case "", "commit":
			default:
				return Commit{}, bad("^{%s} is not supported (^{commit} and ^{} are)", suffix[1:end])
			}
			suffix = suffix[end+1:]
			continue
		}
		j := 0
		for j < len(suffix) && '0' <= suffix[j] && suffix[j] <= '9' {
			j++
		}
		n := 1
		if j > 0 {
			v, err := strconv.Atoi(suffix[:j])
			if err != nil || v > maxAncestrySteps {
				return Commit{}, bad("%c%s: too far back (at most %d)", op, suffix[:j], maxAncestrySteps)
			}
			n = v
		}
		suffix = suffix[j:]
		if op == '^' {
			if n == 0 {
				continue
			}
			if n > len(c.parents) {
				return Commit{}, bad("commit %s has no parent %d", h, n)
			}
			if h, c, err = r.readCommit(c.parents[n-1]); err != nil {
				return Commit{}, bad("%v", err)
			}
			steps++
			continue
		}
		for range n {
			if steps++; steps > maxAncestrySteps {
				return Commit{}, bad("more than %d steps back", maxAncestrySteps)
			}
			if len(c.parents) == 0 {
				return Commit{}, bad("commit %s has no parent", h)
			}
			if h, c, err = r.readCommit(c.parents[0]); err != nil {
				return Commit{}, bad("%v", err)
			}
		}
	}
	return Commit{Hash: h, tree: c.tree}, nil
}

// resolveBase resolves the part of a commit-ish before its suffixes to an
// object name.
func (r *Repo) resolveBase(base string) (plumbing.Hash, error) {
	if base == "" || base == "@" {
		base = "HEAD"
	}
	if h, ok := parseHash(base); ok {
		return h, nil
	}
	var candidates []string
	if base == "HEAD" || !strings.Contains(base, "/") && strings.ToUpper(base) == base && strings.HasSuffix(base, "HEAD") {
		candidates = append(candidates, base)
	}
	candidates = append(candidates, "refs/"+base, "refs/tags/"+base, "refs/heads/"+base, "refs/remotes/"+base, "refs/remotes/"+base+"/HEAD")
	if strings.HasPrefix(base, "refs/") {
		candidates = append([]string{base}, candidates...)
	}
	for _, name := range candidates {
		ref, err := storer.ResolveReference(r.st, plumbing.ReferenceName(name))
		if err == nil && !ref.Hash().IsZero() {
			return ref.Hash(), nil
		}
		if err != nil && !errors.Is(err, plumbing.ErrReferenceNotFound) {
			return plumbing.ZeroHash, &RevisionError{Msg: fmt.Sprintf("reading ref %s: %v", name, err)}
		}
	}
	if len(base) >= 4 && len(base) < 40 && isHex(base) {
		matches := r.odb.withPrefix(base)
		switch len(matches) {
		case 1:
			return matches[0], nil
		case 0:
		default:
			return plumbing.ZeroHash, &RevisionError{Msg: fmt.Sprintf("ambiguous: %d objects start with %s", len(matches), base)}
		}
	}
	return plumbing.ZeroHash, &RevisionError{Msg: "unknown revision (no such ref or commit in the repository at " + r.top + ")"}
}

// prefixBytes is the whole bytes of a hex prefix (an odd last digit is
// checked by the caller on the full names).
func prefixBytes(hex string) []byte {
	n := len(hex) / 2
	out := make([]byte, n)
	for i := range n {
		v, _ := strconv.ParseUint(hex[2*i:2*i+2], 16, 8)
		out[i] = byte(v)
	}
	return out
}

// shorten bounds a commit-ish quoted in an error.
func shorten(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
