package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evgrep/evgrep/internal/credpolicy"
	"github.com/evgrep/evgrep/internal/scope"
	"github.com/evgrep/evgrep/snapshot"
)

// searchRequest runs a new search and answers it.
func searchRequest(req *Request, env Env, root string) (*Answer, error) {
	req, root, subs, err := requestPaths(req, root)
	if err != nil {
		return nil, err
	}
	res, err := runSearch(req, env, root, subs)
	if err != nil {
		return nil, err
	}
	var retry *RetryJSON
	if res.snap.Totals.Lines == 0 {
		// Zero results in a sub-path: look under the whole root (or the
		// working directory) before claiming there are none.
		if wideRoot, wide, scope := widen(req, env, root, subs); wide != nil {
			if full, err := runSearch(wide, env, wideRoot, nil); err == nil {
				from := retryFromRoot
				if wideRoot != root {
					from = retryFromCwd
				}
				retry = &RetryJSON{Paths: scope, Root: wideRoot, From: from, Lines: full.snap.Totals.Lines, Files: full.snap.Totals.Files}
				if full.snap.Totals.Lines > 0 {
					res, req, root, subs = full, wide, wideRoot, nil
				}
			}
		}
	}
	snap := res.snap
	mode := req.Mode
	if mode == "" || mode == ModeAuto {
		if req.Budget != "" && req.Limit == nil {
			// The host's context budget shortens an implicit auto answer
			// only (never an explicit limit, another mode or a cursor).
			r := *req
			r.budgetChars = budgetTokens(req.Budget) * charsPerToken
			req = &r
		}
		switch {
		case req.Limit != nil:
			// An explicit limit asks for a page of lines at once.
			mode = ModeMatches
		case fitsOnePage(snap, req):
			// Everything fits: show it all, not just the default page.
			mode = ModeMatches
			req = withLimit(req, snap.Totals.Retained)
		default:
			mode = ModeSummary
		}
	}
	a := &Answer{}
	d := &a.Details
	d.Pattern, d.Root, d.Paths, d.Retried, d.Problems = req.Pattern, root, subs, retry, res.problems
	v := view{env: env, snap: snap, limit: req.limit(), context: req.context(), budget: req.budgetChars}
	if mode == ModeMatches {
		err = renderMatches(a, v, snapshot.SelectPaths(), 0)
	} else {
		if env.Store != nil && len(snap.Files()) > 0 {
			// The summary's cursor needs the snapshot on disk: its write
			// overlaps the rendering (snapshot.Store.Prestore).
			env.Store.Prestore(snap)
		}
		err = renderSummary(a, v, 0)
	}
	if req.budgetChars > 0 {
		addBudgetNote(a, req)
	}
	return a, err
}

// requestPaths is where a request walks: its root (a file's folder when
// path names a file, the file then its one sub-path) and its checked,
// de-duplicated sub-paths.
func requestPaths(req *Request, root string) (*Request, string, []string, error) {
	req, root, err := fileAsRoot(req, root)
	if err != nil {
		return nil, "", nil, err
	}
	subs, err := subPaths(root, req.Paths)
	if err != nil {
		return nil, "", nil, err
	}
	return req, root, subs, nil
}

// fileAsRoot is the request and root to use when path names a file: its
// folder as the root and the file as the one sub-path, so that it is shown
// (and its parser found) by its name, in every mode that walks.
func fileAsRoot(req *Request, root string) (*Request, string, error) {
	fi, err := os.Stat(root)
	if err != nil || fi.IsDir() {
		return req, root, nil
	}
	if len(req.Paths) > 0 {
		return nil, "", invalid("path %s names a file: paths (sub-paths of a folder) do not apply", shorten(req.Path, maxEchoBytes))
	}
	r := *req
	r.Path, r.Paths = filepath.Dir(root), StringList{filepath.Base(root)}
	return &r, r.Path, nil
}

// addBudgetNote states the budget the answer was kept to, after the status
// line and in the details.
func addBudgetNote(a *Answer, req *Request) {
	tokens := budgetTokens(req.Budget)
	a.Details.Budget = &BudgetJSON{Budget: req.Budget, Tokens: tokens, Chars: req.budgetChars}
	note := fmt.Sprintf("Budget %s: this answer is kept within about %d tokens (%d characters); cursors and explicit limits page at full size.\n", req.Budget, tokens, req.budgetChars)
	i := strings.IndexByte(a.Text, '\n') + 1
	a.Text = a.Text[:i] + note + a.Text[i:]
}

// BudgetJSON states the context budget an answer was kept to.
type BudgetJSON struct {
	Budget string `json:"budget"`
	Tokens int    `json:"tokens"`
	Chars  int    `json:"chars"`
}

// textBudget is the bound of an answer's text: the response budget, or
// the request's context budget when one applies, less reserve.
func (r *Request) textBudget(full, reserve int) int { return budgeted(r.budgetChars, full, reserve) }

// textBudget is the bound of the view's text (see Request.textBudget).
func (v view) textBudget(full, reserve int) int { return budgeted(v.budget, full, reserve) }

// budgeted is full, or chars less reserve when a budget of chars applies.
func budgeted(chars, full, reserve int) int {
	if chars > 0 {
		return min(full, chars-reserve)
	}
	return full
}

// widen returns the search to run when one found nothing: from the working
// directory when root is a folder below it, else from root when the search
// was limited to sub-paths (nil when neither). scope is what was searched,
// relative to the wider root.
func widen(req *Request, env Env, root string, subs []string) (string, *Request, []string) {
	wide := *req
	wide.Paths = nil
	scope := subs
	if env.Cwd != "" {
		if cwd, err := snapshot.NormalizeRoot(env.Cwd); err == nil && cwd != root && !forbidden(cwd) && !tooWide(cwd) {
			if rel, err := filepath.Rel(cwd, root); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				rel = filepath.ToSlash(rel)
				scope = []string{rel}
				if len(subs) > 0 {
					scope = scope[:0]
					for _, s := range subs {
						scope = append(scope, rel+"/"+s)
					}
				}
				wide.Path = cwd
				return cwd, &wide, scope
			}
		}
	}
	if len(subs) == 0 {
		return "", nil, nil
	}
	return root, &wide, scope
}

// tooWide reports whether dir is too wide to search unasked when a search
// below it found nothing: the file system root or the home directory.
func tooWide(dir string) bool {
	if dir == string(filepath.Separator) {
		return true
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return false
	}
	h, err := snapshot.NormalizeRoot(home)
	return err == nil && h == dir
}

// view is what renders one answer of a snapshot: its store, the page shape
// and the cursor the request came with ("" for a new search).
type view struct {
	env            Env
	snap           *snapshot.Snapshot
	limit, context int
	cursor         string
	// budget is the context budget in characters of an implicit auto
	// answer (Request.Budget), else 0.
	budget int
}

// fitsOnePage reports whether auto mode can answer with every match line:
// the whole search is retained, within the page bound (the request's limit,
// else 100 lines) and the response budget.
func fitsOnePage(snap *snapshot.Snapshot, req *Request) bool {
	t := snap.Totals
	limit := maxLimit
	if req.Limit != nil {
		limit = *req.Limit
	}
	if t.Partial || t.Retained > limit {
		return false
	}
	// Both forms must fit: the text, and the details of every line (a
	// page whose details fill up ends early, and "lines 1–82 of 97" is
	// neither everything nor the summary).
	size, det := 0, 0
	for _, f := range snap.Files() {
		if !f.Revision.Verified {
			det += detailsSize(UnverifiedJSON{Path: shortenJSON(f.Path, maxEchoBytes), Reason: unverifiedReason}) + 1
		}
		for _, l := range snap.FileLines(f.Path) {
			size += len(formatLine(l, snapshot.MaxExcerptChars)) + 2*req.context()*contextLineBytes
			det += detailsSize(matchJSON(l, snapshot.MaxExcerptChars)) + len(`,"unverified":true,`) + 2*req.context()*contextLineBytes
		}
	}
	return size <= req.textBudget(responseBudget-everythingReserve, budgetReserve) && det <= MaxDetailsBytes-matchesDetailsReserve-everythingReserve
}

func withLimit(req *Request, n int) *Request {
	r := *req
	n = max(1, min(n, maxLimit))
	r.Limit = &n
	return &r
}

// subPaths checks the requested sub-paths: relative to root, inside it.
func subPaths(root string, paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, p)
		}
		if len(abs) > maxPathBytes {
			return nil, &Error{Code: CodePathMissing, Msg: shorten(p, maxEchoBytes) + ": file name too long"}
		}
		if forbidden(credpolicy.ResolveExisting(abs)) {
			return nil, &Error{Code: CodePathForbidden, Msg: shorten(p, maxEchoBytes) + " " + forbiddenMsg}
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, &Error{Code: CodePathMissing, Msg: shorten(p, maxEchoBytes) + ": no such file or directory"}
		}
		rel, err := filepath.Rel(root, real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, invalid("%s is outside the root %s", shorten(p, maxEchoBytes), shorten(root, maxEchoBytes))
		}
		if forbidden(real) {
			return nil, &Error{Code: CodePathForbidden, Msg: shorten(p, maxEchoBytes) + " " + forbiddenMsg}
		}
		if err := refuseSpecial(real); err != nil {
			return nil, err
		}
		if rel == "." {
			return nil, nil
		}
		out = append(out, filepath.ToSlash(rel))
	}
	// A path given twice, or inside another given path, is walked once.
	return scope.Dedupe(out), nil
}
