package agent

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/scope"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
)

// Answer is what an agent receives: text for the model first, and the same
// facts as structured details.
type Answer struct {
	Text    string  `json:"text"`
	Details Details `json:"details"`
	// Failed is true for error answers (the CLI exits 2).
	Failed bool `json:"-"`
}

// Details is the structured form of an answer.
type Details struct {
	Status  string      `json:"status"` // complete, partial, error
	Mode    string      `json:"mode,omitempty"`
	Pattern string      `json:"pattern,omitempty"`
	Root    string      `json:"root,omitempty"`
	Paths   []string    `json:"paths,omitempty"`
	Totals  *TotalsJSON `json:"totals,omitempty"`
	Files   []FileJSON  `json:"files,omitempty"`
	Matches []MatchJSON `json:"matches,omitempty"`
	Cursor  string      `json:"cursor,omitempty"`
	// SummaryCursor is in every summary with files: reusable, it pages
	// the files, selects some (paths), lists the match lines and
	// inspects match numbers (see Next).
	SummaryCursor string `json:"summaryCursor,omitempty"`
	// Selection is the files a matches page is restricted to.
	Selection []string  `json:"selection,omitempty"`
	Page      *PageJSON `json:"page,omitempty"`
	// PreviewsShown and PreviewsOmitted count a summary's sample lines
	// and the matching lines of its listed files not shown.
	PreviewsShown   *int `json:"previewsShown,omitempty"`
	PreviewsOmitted *int `json:"previewsOmitted,omitempty"`
	// UnverifiedFiles are the files of the page whose revision could not
	// be verified when they were searched.
	UnverifiedFiles []UnverifiedJSON `json:"unverifiedFiles,omitempty"`
	// ChangedFiles are the files of the page that changed (or went) since
	// the search: their lines and numbers are the search's, not the
	// file's now.
	ChangedFiles []string `json:"changedFiles,omitempty"`
	// Next are the suggested next calls, exact requests.
	Next     []NextCall    `json:"next,omitempty"`
	Retried  *RetryJSON    `json:"retriedFromRoot,omitempty"`
	Problems []string      `json:"problems,omitempty"`
	Error    *ErrorJSON    `json:"error,omitempty"`
	Notes    []string      `json:"notes,omitempty"`
	Context  []ContextJSON `json:"context,omitempty"`
	Targets  []TargetJSON  `json:"targets,omitempty"`
	Outlines []FileOutline `json:"outlines,omitempty"`
	Budget   *BudgetJSON   `json:"budget,omitempty"`
	// OtherFiles are the files of an outline page without a parser.
	OtherFiles []string `json:"otherFiles,omitempty"`
	// Structural is a structural search's page (mode structural).
	Structural *StructuralJSON `json:"structural,omitempty"`
	// Rewrite is a structural rewrite's preview or apply.
	Rewrite *RewriteJSON `json:"rewrite,omitempty"`
	// Impact is a mode impact answer's counts and page of occurrences.
	Impact *ImpactJSON `json:"impact,omitempty"`
	// Navigation is a mode imports or tests answer's links.
	Navigation *NavJSON `json:"navigation,omitempty"`
	// Terms is the answer of a multi-term search (terms.go).
	Terms *TermsJSON `json:"terms,omitempty"`
	// Rank is a rank answer's query, index and page of chunks.
	Rank *RankJSON `json:"rank,omitempty"`
}

// TotalsJSON are exact totals.
type TotalsJSON struct {
	Files       int  `json:"files"`
	Lines       int  `json:"lines"`
	Occurrences int  `json:"occurrences"`
	Searched    int  `json:"searched"`
	Retained    int  `json:"retained"`
	Partial     bool `json:"partial"`
}

// FileJSON is one ranked file.
type FileJSON struct {
	Path        string `json:"path"`
	Lines       int    `json:"lines"`
	Occurrences int    `json:"occurrences"`
	Unverified  bool   `json:"unverified,omitempty"`
}

// UnverifiedJSON is a file whose revision could not be verified: it
// changed while it was read, or was not read to its end. Its lines may not
// be what the file holds, and no source of it is shown.
type UnverifiedJSON struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// unverifiedReason is the reason given for an unverified file.
const unverifiedReason = "changed while it was searched, or not read to its end: its revision could not be verified"

// NextCall is a suggested next call: the exact request, and what it gives.
type NextCall struct {
	Request Request `json:"request"`
	Why     string  `json:"why"`
}

// MatchJSON is one numbered match line.
type MatchJSON struct {
	Match      int         `json:"match"`
	Path       string      `json:"path"`
	Line       int         `json:"line"`
	Text       string      `json:"text"`
	Excerpt    bool        `json:"excerpt,omitempty"`
	Ranges     []RangeJSON `json:"ranges"`
	MoreRanges int         `json:"moreRanges,omitempty"`
	Unverified bool        `json:"unverified,omitempty"`
}

// RangeJSON is one occurrence, 1-based, end exclusive, in UTF-16 code units
// (Unit "utf16") or bytes when the line is not UTF-8 (Unit "byte").
type RangeJSON struct {
	Start int    `json:"start"`
	End   int    `json:"end"`
	Unit  string `json:"unit"`
}

// PageJSON locates the page.
type PageJSON struct {
	Kind   string `json:"kind"`
	Offset int    `json:"offset"`
	Count  int    `json:"count"`
	Total  int    `json:"total"`
	Done   bool   `json:"done"`
	// Limit and Context shape the matches pages (and are kept by their
	// cursors).
	Limit   int `json:"limit,omitempty"`
	Context int `json:"context,omitempty"`
}

// RetryJSON says a zero-result search in sub-paths (or in a sub-folder of
// the working directory) was retried from Root.
type RetryJSON struct {
	Paths []string `json:"paths"`
	// Root is where the search was retried: the search's root, or the
	// working directory (From says which).
	Root  string `json:"root"`
	From  string `json:"from"`
	Lines int    `json:"linesUnderRoot"`
	Files int    `json:"filesUnderRoot"`
}

// The places a zero-result search is retried from (RetryJSON.From).
const (
	retryFromRoot = "root"
	retryFromCwd  = "workingDirectory"
)

// ErrorJSON is a stable error.
type ErrorJSON struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ContextJSON is source around a match line, shown only when the file is
// unchanged since the search: Before holds lines FirstLine.. up to the
// match line, After the lines right after it. Neither holds a line shown
// already on the page, another match line, or a line past the end of the
// file.
type ContextJSON struct {
	Match     int      `json:"match"`
	Path      string   `json:"path"`
	FirstLine int      `json:"firstLine,omitempty"`
	Before    []string `json:"before,omitempty"`
	After     []string `json:"after,omitempty"`
	Changed   bool     `json:"changed,omitempty"`
}

// Budgets of the rendered text.
const (
	// summaryTextBudget keeps a summary page readable in one glance (the
	// issue's bound for a broad search is 8,000 characters).
	summaryTextBudget = 7600
	// responseBudget is the hard bound of one answer.
	responseBudget = snapshot.MaxResponseBytes
	// sampleFiles, sampleWindows and sampleLines shape summary samples.
	sampleFiles   = 5
	sampleWindows = 2
	sampleLines   = 7
	// sampleTextChars bounds one sample line.
	sampleTextChars = 160
	// maxEchoBytes bounds a path or pattern echoed in an answer (errors,
	// status line, details); a longer one is shortened in the middle.
	maxEchoBytes = 512
	// summaryReserve is what a summary page keeps, after its file list,
	// for its cursor and hint lines.
	summaryReserve = 1600
	// contextLineBytes is what one context row is estimated to take when
	// auto mode decides whether a whole result fits (the page itself
	// measures the rows it writes).
	contextLineBytes = 100
	// maxErrorBytes bounds the message of an error answer.
	maxErrorBytes = 2048
	// cutReserve is what the last guard keeps for its note when it cuts
	// an answer's text.
	cutReserve = 200
)

// shorten returns s when it has at most n bytes, else its head and tail
// around a note of how many bytes were left out, cut at UTF-8 boundaries.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	keep := max(0, n-40) / 2
	head, tail := s[:keep], s[len(s)-keep:]
	for len(head) > 0 && !utf8.RuneStart(s[len(head)]) {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s…(%d bytes)…%s", head, len(s)-len(head)-len(tail), tail)
}

// shortenAll returns list with each string shortened to maxEchoBytes, in a
// new slice when one changes (list may belong to a stored cursor).
func shortenAll(list []string) []string {
	var out []string
	for i, s := range list {
		if jsonCost(s)-2 > maxEchoBytes && out == nil {
			out = append([]string(nil), list...)
		}
		if out != nil {
			out[i] = shortenJSON(s, maxEchoBytes)
		}
	}
	if out == nil {
		return list
	}
	return out
}

// bound is the last guard of every answer: the text is at most
// responseBudget bytes (cut at a line end, with a note), the details echo
// no path or pattern longer than maxEchoBytes (as JSON), and they are at
// most MaxDetailsBytes (boundDetails).
func bound(a *Answer) *Answer {
	d := &a.Details
	d.Pattern = shortenJSON(d.Pattern, maxEchoBytes)
	d.Root = shortenJSON(d.Root, maxEchoBytes)
	d.Paths = shortenAll(d.Paths)
	d.Selection = shortenAll(d.Selection)
	d.Problems = shortenAll(d.Problems)
	for i := range d.UnverifiedFiles {
		d.UnverifiedFiles[i].Path = shortenJSON(d.UnverifiedFiles[i].Path, maxEchoBytes)
	}
	if d.Retried != nil {
		r := *d.Retried
		r.Paths = shortenAll(r.Paths)
		r.Root = shortenJSON(r.Root, maxEchoBytes)
		d.Retried = &r
	}
	for i := range d.Targets {
		d.Targets[i].Path = shortenJSON(d.Targets[i].Path, maxEchoBytes)
		d.Targets[i].Error = shortenJSON(d.Targets[i].Error, maxEchoBytes)
	}
	if e := d.Error; e != nil {
		e.Message = shortenJSON(e.Message, maxErrorBytes)
	}
	if len(a.Text) > responseBudget {
		cut := a.Text[:responseBudget-cutReserve]
		if i := strings.LastIndexByte(cut, '\n'); i > 0 {
			cut = cut[:i+1]
		} else {
			cut = strings.ToValidUTF8(cut, "") + "\n"
		}
		a.Text = cut + fmt.Sprintf("… %d more bytes of this answer not shown (16 KiB bound); narrow the request.\n", len(a.Text)-len(cut))
		if d.Status == "complete" {
			d.Status = "partial"
		}
	}
	boundDetails(d)
	return a
}

// Env is what Handle needs from its caller.
type Env struct {
	Store *snapshot.Store
	// Cwd is the directory a relative path field is resolved against.
	Cwd string
	// Cancelled, when set, is polled by a search walk before each file:
	// once it reports true the walk stops and the answer is CodeCancelled.
	Cancelled func() bool
	// Progress, when set, is called by a search walk every ProgressEvery
	// files with the number searched so far. It is called from several
	// goroutines at once.
	Progress func(files int)
	// Scope, when set, holds a front end's own walk and decoding rules
	// (the command line's flags); every analysis then walks with them
	// instead of the request's hidden, glob and exclude fields. Its Root
	// and Subs are not used: they come from the request.
	Scope *scope.Scope
}

// Handle answers one request. It never panics on bad input; failures are
// answers with Failed set and a stable code.
func Handle(req *Request, env Env) *Answer {
	if err := req.Validate(); err != nil {
		return bound(errorAnswer(err))
	}
	a, err := handle(req, env)
	if err != nil {
		return bound(errorAnswer(err))
	}
	completeNext(a)
	writeProblems(a)
	return bound(a)
}

// HandleJSON parses and answers a raw request.
func HandleJSON(data []byte, env Env) *Answer {
	req, err := ParseRequest(data)
	if err != nil {
		return bound(errorAnswer(err))
	}
	return Handle(req, env)
}

func errorAnswer(err error) *Answer {
	code, msg := CodeInvalidRequest, err.Error()
	var ae *Error
	var se *snapshot.Error
	switch {
	case errors.As(err, &ae):
		code, msg = ae.Code, ae.Msg
	case errors.As(err, &se):
		code, msg = string(se.Code), se.Msg
	}
	msg = shorten(msg, maxErrorBytes)
	text := fmt.Sprintf("evgrep error %s: %s\n", code, msg)
	if strings.Contains(msg, "\n") {
		text = fmt.Sprintf("evgrep error %s:\n%s\n", code, msg)
	}
	return &Answer{Text: text, Failed: true, Details: Details{Status: "error", Error: &ErrorJSON{Code: code, Message: msg}}}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func handle(req *Request, env Env) (*Answer, error) {
	if req.Cursor != "" && req.Mode != ModeInspect && req.Mode != ModeStructural {
		return page(req, env)
	}
	rootArg := req.Path
	if rootArg == "" {
		rootArg = "."
	}
	if !filepath.IsAbs(rootArg) && env.Cwd != "" {
		rootArg = filepath.Join(env.Cwd, rootArg)
	}
	if len(rootArg) > maxPathBytes {
		return nil, &Error{Code: CodePathMissing, Msg: shorten(req.Path, maxEchoBytes) + ": file name too long"}
	}
	if abs, err := filepath.Abs(rootArg); err == nil && forbidden(resolveExisting(abs)) {
		// Refused whether it exists or not: the answer tells nothing of
		// what a credential store holds.
		return nil, &Error{Code: CodePathForbidden, Msg: shorten(req.Path, maxEchoBytes) + " " + forbiddenMsg}
	}
	root, err := snapshot.NormalizeRoot(rootArg)
	if err != nil {
		return nil, &Error{Code: CodePathMissing, Msg: fmt.Sprintf("%s: %v", shorten(req.Path, maxEchoBytes), errors.Unwrap(err))}
	}
	if forbidden(root) {
		return nil, &Error{Code: CodePathForbidden, Msg: shorten(root, maxEchoBytes) + " " + forbiddenMsg}
	}
	if err := refuseSpecial(root); err != nil {
		return nil, err
	}
	if len(req.Terms) > 0 {
		return termsRequest(req, env, root)
	}
	switch req.Mode {
	case ModeInspect:
		return inspectRequest(req, env, root)
	case ModeOutline:
		return outline(req, env, root)
	case ModeStructural:
		return structuralRequest(req, env, root)
	case ModeImpact:
		return analysisRequest(req, env, root)
	case ModeImports, ModeTests:
		return navRequest(req, env, root)
	case ModeRank:
		return rankRequest(req, env, root)
	}
	return searchRequest(req, env, root)
}

// searchRequest runs a new search and answers it.
func searchRequest(req *Request, env Env, root string) (*Answer, error) {
	req, root, err := fileAsRoot(req, root)
	if err != nil {
		return nil, err
	}
	subs, err := subPaths(root, req.Paths)
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
		err = renderSummary(a, v, 0)
	}
	if req.budgetChars > 0 {
		addBudgetNote(a, req)
	}
	return a, err
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

// page continues from a cursor without searching again: the next page
// of its kind, or with a summary cursor the match lines (mode matches) or
// those of some files (path, paths).
func page(req *Request, env Env) (*Answer, error) {
	if env.Store == nil {
		return nil, &snapshot.Error{Code: snapshot.CodeUnavailable, Msg: "no snapshot store"}
	}
	kind := snapshot.Kind("")
	if req.Mode == ModeSummary {
		kind = snapshot.KindSummary
	} else if req.Mode == ModeOutline {
		kind = snapshot.KindOutline
	}
	snap, cur, err := env.Store.Resolve(req.Cursor, "", kind, "")
	if err != nil {
		return nil, err
	}
	if cur.Kind == snapshot.KindOutline {
		if req.Pattern != "" || req.Path != "" || len(req.Paths) > 0 || (req.Mode != "" && req.Mode != ModeOutline) {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "an outline cursor only continues the outline: {\"cursor\":…} alone"}
		}
		return continueOutline(env, snap)
	}
	if cur.Kind == snapshot.KindItems && snap.Meta.Options[optAnalysis] == analysisRank {
		return continueRank(req, env, snap, cur)
	}
	if cur.Kind == snapshot.KindItems && snap.Meta.Options["op"] == ModeStructural {
		// A structural page's cursor goes on with or without its mode.
		if req.Pattern != "" || req.Path != "" || len(req.Paths) > 0 || (req.Mode != "" && req.Mode != ModeStructural) {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "a structural cursor only continues its matches: {\"cursor\":…} alone"}
		}
		limit := cur.Limit
		if req.Limit != nil {
			limit = *req.Limit
		}
		return structuralPage(env, snap, cur.Offset, limit, "")
	}
	if cur.Kind == snapshot.KindItems && snap.Meta.Options[optOperation] == opTerms {
		return continueTerms(req, env, snap, cur)
	}
	if cur.Kind == snapshot.KindItems {
		return continueAnalysis(req, env, snap, cur)
	}
	if err := req.checkRestated(snap.Meta.Options); err != nil {
		return nil, err
	}
	switch req.Mode {
	case "", ModeAuto, ModeSummary, ModeMatches:
	default:
		// A search's cursor pages its summary and its lines; another
		// mode is a new request, not a page of this one.
		return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: fmt.Sprintf("a search's cursor continues its summary or match lines (mode summary or matches), not mode %s", shorten(req.Mode, 64))}
	}
	sel, err := cursorSelection(req, env, snap)
	if err != nil {
		return nil, err
	}
	if cur.Kind == snapshot.KindSource {
		if sel != nil || req.Mode != "" {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "a source cursor only continues the inspected source: {\"cursor\":…} alone"}
		}
		return continueSource(env, snap)
	}
	a := &Answer{}
	d := &a.Details
	d.Pattern, d.Root = snap.Meta.Options["pattern"], snap.Meta.Root
	var paths []string
	if json.Unmarshal([]byte(snap.Meta.Options["paths"]), &paths) == nil {
		d.Paths = paths
	}
	v := view{env: env, snap: snap, limit: defaultLimit, context: cur.Context, cursor: req.Cursor}
	if cur.Limit > 0 {
		v.limit = cur.Limit
	}
	if req.Limit != nil {
		v.limit = *req.Limit
	}
	if req.Context != nil {
		v.context = *req.Context
	}
	switch {
	case sel != nil:
		offset := 0
		if cur.Kind == snapshot.KindMatches {
			if !cur.Selection.Equal(*sel) {
				return nil, &snapshot.Error{Code: snapshot.CodeOptionsConflict, Msg: "a matches cursor keeps its selection; select other files with the summary cursor"}
			}
			offset = cur.Offset
		}
		return a, renderMatches(a, v, *sel, offset)
	case cur.Kind == snapshot.KindSummary && req.Mode == ModeMatches:
		return a, renderMatches(a, v, snapshot.SelectPaths(), 0)
	case cur.Kind == snapshot.KindSummary:
		return a, renderSummary(a, v, cur.Offset)
	}
	return a, renderMatches(a, v, cur.Selection, cur.Offset)
}

// cursorSelection is the selection a cursor request asks for with path
// (the cursor's root, or one file of its search) and paths (1-20 files of
// its search, as the answers show them), or nil for none. The files are
// looked up in the snapshot only: a file edited or removed since the
// search is selected all the same, and shows what the search found.
func cursorSelection(req *Request, env Env, snap *snapshot.Snapshot) (*snapshot.PathSelection, error) {
	root := snap.Meta.Root
	var names []string
	if req.Path != "" {
		name, isRoot, ok := retainedFile(req.Path, env.Cwd, snap)
		switch {
		case isRoot:
		case ok:
			names = append(names, name)
		default:
			return nil, &snapshot.Error{Code: snapshot.CodeOptionsConflict, Msg: fmt.Sprintf("path %s is neither the cursor's root %s nor a file with matches in its search", shorten(req.Path, maxEchoBytes), shorten(root, maxEchoBytes))}
		}
	}
	for _, p := range req.Paths {
		name, _, ok := retainedFile(p, "", snap)
		if !ok {
			return nil, invalid("paths: %s is not a file with matches in the cursor's search (name files as its answers show them)", shorten(p, maxEchoBytes))
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, nil
	}
	sel := snapshot.SelectPaths(names...)
	return &sel, nil
}

// retainedFile finds p among the files of snap: as shown (relative to the
// root), or as a path (absolute, or relative to cwd when cwd is given)
// inside the root. isRoot tells that p names the root itself.
func retainedFile(p, cwd string, snap *snapshot.Snapshot) (name string, isRoot, ok bool) {
	root := snap.Meta.Root
	if !filepath.IsAbs(p) {
		rel := filepath.ToSlash(filepath.Clean(p))
		if _, found := snap.File(rel); found {
			return rel, false, true
		}
		if cwd == "" {
			return "", false, false
		}
		p = filepath.Join(cwd, p)
	}
	abs := filepath.Clean(p)
	if real, err := filepath.EvalSymlinks(abs); err == nil && real == root {
		return "", true, false
	}
	if abs == root {
		return "", true, false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false, false
	}
	rel = filepath.ToSlash(rel)
	_, found := snap.File(rel)
	return rel, false, found
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
		if forbidden(resolveExisting(abs)) {
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

func status(t snapshot.Totals) string {
	if t.Partial {
		return "partial"
	}
	return "complete"
}

func totalsJSON(t snapshot.Totals) *TotalsJSON {
	return &TotalsJSON{Files: t.Files, Lines: t.Lines, Occurrences: t.Occurrences, Searched: t.Searched, Retained: t.Retained, Partial: t.Partial}
}

// statusLine is the first line of every answer: exact totals and whether
// the snapshot holds everything.
func statusLine(snap *snapshot.Snapshot, sel snapshot.PathSelection) string {
	t := snap.Totals
	scope := ""
	if !sel.All() {
		st := snap.Count(sel)
		scope = fmt.Sprintf(" (selection %s: %d lines in %d files)", shorten(strings.Join(sel.Paths, ", "), maxEchoBytes), st.Lines, st.Files)
	}
	state := "complete"
	if t.Partial {
		state = fmt.Sprintf("partial: %d of %d lines retained, totals exact", t.Retained, t.Lines)
	}
	return fmt.Sprintf("evgrep: %d matching lines (%d occurrences) in %d of %d files searched for %s under %s — %s%s\n",
		t.Lines, t.Occurrences, t.Files, t.Searched, quotePattern(shorten(snap.Meta.Options["pattern"], maxEchoBytes)), shorten(snap.Meta.Root, maxEchoBytes)+gitScope(snap), state, scope)
}

func quotePattern(p string) string {
	b, _ := json.Marshal(p)
	return string(b)
}

// renderSummary writes one page of the count-ranked file list with samples,
// the reusable summary cursor and the next calls.
func renderSummary(a *Answer, v view, offset int) error {
	snap := v.snap
	d := &a.Details
	d.Mode, d.Status, d.Totals = ModeSummary, status(snap.Totals), totalsJSON(snap.Totals)
	var b strings.Builder
	b.WriteString(statusLine(snap, snapshot.SelectPaths()))
	writeRetry(&b, d)
	files, next, done := snap.SummaryPage(offset, snapshot.MaxSummaryFiles)
	total := len(snap.Files())
	// Under a context budget, the file list takes at most half of it.
	textBudget := v.textBudget(summaryTextBudget, budgetNoteBytes)
	// The file list: as many files of the page as fit, in the text and in
	// the details (long paths end the page early; the cursor goes on from
	// the first file not listed). The samples take what is left.
	detBudget := MaxDetailsBytes - summaryDetailsReserve - detailsSize(d)
	detUsed := 0
	var list strings.Builder
	for i, f := range files {
		fj := FileJSON{Path: f.Path, Lines: f.Lines, Occurrences: f.Occurrences, Unverified: !f.Revision.Verified}
		c := detailsSize(fj) + 1
		if fj.Unverified {
			c += detailsSize(UnverifiedJSON{Path: shortenJSON(f.Path, maxEchoBytes), Reason: unverifiedReason}) + 1
		}
		if i > 0 && detUsed+c > detBudget {
			files, next, done = files[:i], offset+i, false
			break
		}
		row := fmt.Sprintf("%7d  %s", f.Lines, f.Path)
		if f.Occurrences != f.Lines {
			row += fmt.Sprintf("  (%d occurrences)", f.Occurrences)
		}
		if !f.Revision.Verified {
			row += "  [unverified]"
		}
		row += "\n"
		if i > 0 && (b.Len()+list.Len()+len(row)+summaryReserve > responseBudget ||
			v.budget > 0 && list.Len()+len(row) > textBudget/2) {
			files, next, done = files[:i], offset+i, false
			break
		}
		list.WriteString(row)
		d.Files = append(d.Files, fj)
		detUsed += c
	}
	if total == 0 {
		b.WriteString("No matches.\n")
	} else if len(files) == 0 {
		fmt.Fprintf(&b, "No files past %d (of %d).\n", offset, total)
	} else {
		fmt.Fprintf(&b, "Files by matching lines (%d–%d of %d):\n", offset+1, offset+len(files), total)
	}
	b.WriteString(list.String())
	pageLines := 0
	for _, f := range files {
		pageLines += f.Lines
	}
	d.Page = &PageJSON{Kind: string(snapshot.KindSummary), Offset: offset, Count: len(files), Total: total, Done: done, Limit: v.limit, Context: v.context}
	// Samples: real match lines of the first files of the page.
	var samples strings.Builder
	for i, f := range files {
		if i == sampleFiles {
			break
		}
		lines := snap.FileLines(f.Path)
		for _, win := range sampleWindowsOf(lines) {
			for _, l := range win {
				row := formatLine(l, sampleTextChars)
				if b.Len()+samples.Len()+len(row)+summaryRowReserve > textBudget {
					break
				}
				m := matchJSON(l, sampleTextChars)
				m.Unverified = !f.Revision.Verified
				c := detailsSize(m) + 1
				if detUsed+c > detBudget {
					break
				}
				samples.WriteString(row)
				d.Matches = append(d.Matches, m)
				detUsed += c
			}
		}
	}
	shown, omitted := len(d.Matches), pageLines-len(d.Matches)
	d.PreviewsShown, d.PreviewsOmitted = &shown, &omitted
	if len(files) > 0 {
		fmt.Fprintf(&b, "Samples (%d lines shown, %d more matching lines of these files not shown):\n", shown, omitted)
		b.WriteString(samples.String())
	}
	writeUnverified(&b, d, files)
	writeChanged(&b, d, snap, files)
	if total > 0 && v.env.Store != nil {
		at := next
		if done {
			at = 0
		}
		tok, err := v.env.Store.NewPageCursor(snap, snapshot.Page{Kind: snapshot.KindSummary, Offset: at, Limit: v.limit, Context: v.context})
		if err == nil {
			d.SummaryCursor = tok
			if !done {
				d.Cursor = tok
			}
			fmt.Fprintf(&b, "Summary cursor (reusable: pages the files, selects files with paths, lists match lines, inspects match numbers): %s\n", tok)
		} else {
			fmt.Fprintf(&b, "Cursor unavailable (%v).\n", err)
			d.Problems = append(d.Problems, "cursor unavailable: "+err.Error())
		}
	}
	if s := d.SummaryCursor; s != "" {
		if !done {
			addNext(d, Request{Cursor: s}, fmt.Sprintf("files %d–%d of %d", next+1, min(total, next+snapshot.MaxSummaryFiles), total))
		}
		// The first file of the page whose lines the snapshot holds (a
		// partial one may hold none of a file's).
		for _, f := range files {
			if f.Retained > 0 && jsonCost(f.Path)-2 <= maxEchoBytes {
				addNext(d, Request{Cursor: s, Paths: StringList{f.Path}}, fmt.Sprintf("the match lines of %s only, numbered as here (paths takes 1–%d files)", f.Path, maxSelect))
				break
			}
		}
		addNext(d, Request{Cursor: s, Mode: ModeMatches}, fmt.Sprintf("every match line from #1, %d per page", v.limit))
		if n := inspectNumbers(d.Matches); len(n) > 0 && inspectable(snap) {
			addNext(d, Request{Cursor: s, Mode: ModeInspect, MatchIndices: n}, "the code around "+matchList(n))
		}
	} else if len(files) > 0 && echoable(snap, files[0].Path) {
		addNext(d, nextSearch(snap, []string{files[0].Path}, v), fmt.Sprintf("a new search (no cursor to follow): the match lines of %s", files[0].Path))
	}
	writeNext(&b, d)
	a.Text = b.String()
	return nil
}

// writeUnverified lists the files whose revision could not be verified.
func writeUnverified(b *strings.Builder, d *Details, files []snapshot.File) {
	var names []string
	for _, f := range files {
		if !f.Revision.Verified {
			d.UnverifiedFiles = append(d.UnverifiedFiles, UnverifiedJSON{Path: f.Path, Reason: unverifiedReason})
			if len(names) < maxUnverifiedNamed {
				names = append(names, shorten(f.Path, maxEchoBytes))
			}
		}
	}
	if n := len(d.UnverifiedFiles); n > 0 {
		list := strings.Join(names, ", ")
		if n > len(names) {
			list += fmt.Sprintf(" and %d more", n-len(names))
		}
		fmt.Fprintf(b, "Unverified (%s; their lines may not be the files' content now): %s\n", unverifiedReason, list)
	}
}

// writeChanged flags the files of a page that changed since the search,
// by their identity on disk (a stat each; unverified files are flagged
// apart): every page of a snapshot, fresh or from a cursor, says when the
// lines it shows may no longer be the file's.
func writeChanged(b *strings.Builder, d *Details, snap *snapshot.Snapshot, files []snapshot.File) {
	if snap.Meta.Options["rev"] != "" {
		return // a commit's files: the working tree is not what was searched
	}
	var names []string
	for _, f := range files {
		if !f.Revision.Verified {
			continue
		}
		id, err := revisions.StatIdentity(filepath.Join(snap.Meta.Root, filepath.FromSlash(f.Path)))
		if err == nil && id == f.Revision.Identity {
			continue
		}
		d.ChangedFiles = append(d.ChangedFiles, f.Path)
		if len(names) < maxUnverifiedNamed {
			names = append(names, shorten(f.Path, maxEchoBytes))
		}
	}
	if n := len(d.ChangedFiles); n > 0 {
		list := strings.Join(names, ", ")
		if n > len(names) {
			list += fmt.Sprintf(" and %d more", n-len(names))
		}
		fmt.Fprintf(b, "Changed since the search (lines and numbers shown are the search's; search again for the files as they are): %s\n", list)
	}
}

// inspectNumbers returns the first match numbers of a page, for the
// suggested inspect call.
func inspectNumbers(ms []MatchJSON) []int {
	var out []int
	for _, m := range ms {
		if len(out) == nextInspect {
			break
		}
		out = append(out, m.Match)
	}
	return out
}

func matchList(n []int) string {
	parts := make([]string, len(n))
	for i, x := range n {
		parts[i] = fmt.Sprintf("#%d", x)
	}
	return "match " + strings.Join(parts, ", ")
}

// inspectable reports whether the match numbers of snap can be inspected:
// not those of a search of a Git commit's files (inspect reads the working
// files, which are not the lines the search numbered).
func inspectable(snap *snapshot.Snapshot) bool { return snap.Meta.Options["rev"] == "" }

// addNext appends a suggested call.
func addNext(d *Details, r Request, why string) {
	d.Next = append(d.Next, NextCall{Request: r, Why: why})
}

// nextSearch is the exact request of a new search with the options of
// snap's search, limited to paths (when given), for its match lines.
func nextSearch(snap *snapshot.Snapshot, paths []string, v view) Request {
	r := requestOf(snap)
	if len(paths) > 0 {
		r.Paths = paths
	}
	r.Mode = ModeMatches
	if v.limit != defaultLimit {
		n := v.limit
		r.Limit = &n
	}
	if v.context > 0 {
		c := v.context
		r.Context = &c
	}
	return r
}

// echoable reports whether a new search of path with snap's options can be
// suggested whole: its pattern, root and path are short enough to echo.
func echoable(snap *snapshot.Snapshot, path string) bool {
	return jsonCost(path)-2 <= maxEchoBytes && jsonCost(snap.Meta.Root)-2 <= maxEchoBytes && jsonCost(snap.Meta.Options["pattern"])-2 <= maxEchoBytes
}

// requestJSON renders a request as the exact JSON object to send.
func requestJSON(r Request) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(r)
	return strings.TrimSuffix(b.String(), "\n")
}

// writeNext writes the suggested calls, each an exact request.
func writeNext(b *strings.Builder, d *Details) {
	if len(d.Next) == 0 {
		return
	}
	b.WriteString("Next calls (exact requests):\n")
	for _, n := range d.Next {
		fmt.Fprintf(b, "  %s  — %s\n", requestJSON(n.Request), n.Why)
	}
}

// sampleWindowsOf picks up to two windows of up to seven consecutive match
// lines: the first lines of the file, and a later stretch when there is one.
func sampleWindowsOf(lines []snapshot.Line) [][]snapshot.Line {
	if len(lines) <= sampleLines {
		return [][]snapshot.Line{lines}
	}
	out := [][]snapshot.Line{lines[:sampleLines]}
	if sampleWindows > 1 {
		mid := max(sampleLines, len(lines)/2)
		out = append(out, lines[mid:min(len(lines), mid+sampleLines)])
	}
	return out
}

func writeRetry(b *strings.Builder, d *Details) {
	r := d.Retried
	if r == nil {
		return
	}
	where := "under the whole root"
	if r.From == retryFromCwd {
		where = "from the working directory " + r.Root
	}
	if r.Lines > 0 {
		fmt.Fprintf(b, "Note: no match in %s; retried %s: %d lines in %d files (shown below).\n", strings.Join(r.Paths, ", "), where, r.Lines, r.Files)
	} else {
		fmt.Fprintf(b, "Note: no match in %s, nor anywhere else %s.\n", strings.Join(r.Paths, ", "), where)
	}
}

// renderMatches writes one page of numbered match lines of a selection,
// with the cursor of the next page and the next calls. The page ends early
// when its text would pass the text budget or its details MaxDetailsBytes;
// the cursor goes on from the first line left out.
func renderMatches(a *Answer, v view, sel snapshot.PathSelection, offset int) error {
	snap := v.snap
	d := &a.Details
	d.Mode, d.Status, d.Totals = ModeMatches, status(snap.Totals), totalsJSON(snap.Totals)
	d.Selection = sel.Paths
	var head strings.Builder
	head.WriteString(statusLine(snap, sel))
	writeRetry(&head, d)
	ctx := v.context
	budget := v.textBudget(responseBudget-matchesTailReserve, budgetReserve) - head.Len()
	// What the caller put in the details (pattern, root, paths, problems)
	// and the page's own fields are measured; the entries of the lines
	// take what is left.
	detBudget := MaxDetailsBytes - matchesDetailsReserve - detailsSize(d)
	// Each line is rendered when the page measures it, so the bounds hold
	// by the bytes written, context rows and details entries included.
	cw := newContextWriter(snap, ctx)
	rendered := map[int]string{}
	cost := map[int]int{} // details bytes of each line's entries
	unverifiedSeen := map[string]bool{}
	used, detUsed := 0, 0
	size := func(l snapshot.Line) int {
		row := formatLine(l, snapshot.MaxExcerptChars)
		f, _ := snap.File(l.Path)
		c := detailsSize(matchJSON(l, snapshot.MaxExcerptChars)) + len(`,"unverified":true,`)
		if !f.Revision.Verified && !unverifiedSeen[l.Path] {
			c += detailsSize(UnverifiedJSON{Path: shortenJSON(l.Path, maxEchoBytes), Reason: unverifiedReason}) + 1
		}
		if ctx > 0 {
			// The first line of a page always comes, with as much of its
			// context as fits; a later one waits for the next page when
			// its context does not fit.
			allow, allowJSON := 1<<30, 1<<30
			if used == 0 {
				allow, allowJSON = budget, detBudget-c
			}
			row = cw.render(l, row, allow, allowJSON)
			if cj, ok := cw.json[l.Match]; ok {
				c += detailsSize(cj) + 1
			}
		}
		if used > 0 && detUsed+c > detBudget {
			// Over the details bound: the page ends before this line.
			return math.MaxInt / 2
		}
		if !f.Revision.Verified {
			unverifiedSeen[l.Path] = true
		}
		rendered[l.Match], cost[l.Match] = row, c
		used += len(row)
		detUsed += c
		return len(row)
	}
	lines, next, done := snap.MatchesPage(sel, offset, v.limit, budget, size)
	problems := d.Problems
	for {
		text := fillMatches(a, v, sel, offset, lines, next, done, rendered, cw, problems)
		a.Text = head.String() + text
		over := detailsSize(d) - MaxDetailsBytes
		if over <= 0 || len(lines) <= 1 {
			break
		}
		// The parts after the lines took more than their reserve: the
		// page ends earlier (rare; the cursor made for it is not used).
		k := len(lines)
		for k > 1 && over > 0 {
			k--
			over -= cost[lines[k].Match]
		}
		lines, next, done = lines[:k], offset+k, false
	}
	return nil
}

// fillMatches sets the details of a matches page of lines (whose rows are
// rendered) from offset, its cursor at next unless done, and returns the
// text after the status line.
func fillMatches(a *Answer, v view, sel snapshot.PathSelection, offset int, lines []snapshot.Line, next int, done bool, rendered map[int]string, cw *contextWriter, problems []string) string {
	snap, ctx := v.snap, v.context
	d := &a.Details
	d.Matches, d.Context, d.UnverifiedFiles, d.ChangedFiles, d.Next, d.Cursor = nil, nil, nil, nil, nil, ""
	d.Problems = problems
	var b strings.Builder
	count := snap.Count(sel)
	selTotal := count.Retained
	if len(lines) == 0 {
		b.WriteString("No match lines in this selection.\n")
	} else {
		fmt.Fprintf(&b, "Match lines %d–%d of %d (path:line:columns {match #N}):\n", offset+1, offset+len(lines), selTotal)
	}
	var pageFiles []snapshot.File
	for _, l := range lines {
		f, _ := snap.File(l.Path)
		if len(pageFiles) == 0 || pageFiles[len(pageFiles)-1].Path != l.Path {
			pageFiles = append(pageFiles, f)
		}
		b.WriteString(rendered[l.Match])
		m := matchJSON(l, snapshot.MaxExcerptChars)
		m.Unverified = !f.Revision.Verified
		d.Matches = append(d.Matches, m)
		if cj, ok := cw.json[l.Match]; ok {
			d.Context = append(d.Context, cj)
		}
	}
	writeUnverified(&b, d, pageFiles)
	writeChanged(&b, d, snap, pageFiles)
	d.Page = &PageJSON{Kind: string(snapshot.KindMatches), Offset: offset, Count: len(lines), Total: selTotal, Done: done, Limit: v.limit, Context: ctx}
	if !done && v.env.Store != nil {
		tok, err := v.env.Store.NewPageCursor(snap, snapshot.Page{Kind: snapshot.KindMatches, Offset: next, Selection: sel, Limit: v.limit, Context: ctx})
		if err == nil {
			d.Cursor = tok
			addNext(d, Request{Cursor: tok}, fmt.Sprintf("match lines %d–%d of %d", next+1, min(selTotal, next+v.limit), selTotal))
		} else {
			fmt.Fprintf(&b, "Cursor unavailable (%v).\n", err)
			d.Problems = append(d.Problems, "cursor unavailable: "+err.Error())
		}
	}
	if n := inspectNumbers(d.Matches); len(n) > 0 && inspectable(snap) {
		if base := cmp.Or(d.Cursor, v.cursor); base != "" {
			addNext(d, Request{Cursor: base, Mode: ModeInspect, MatchIndices: n}, "the code around "+matchList(n))
		} else {
			var ts []Target
			for _, m := range d.Matches[:len(n)] {
				if jsonCost(m.Path)-2 <= maxEchoBytes {
					ts = append(ts, Target{Path: m.Path, Line: m.Line})
				}
			}
			if len(ts) > 0 && jsonCost(snap.Meta.Root)-2 <= maxEchoBytes {
				addNext(d, Request{Mode: ModeInspect, Path: snap.Meta.Root, Targets: ts}, "the code around these lines (as the files are now)")
			}
		}
	}
	if done && count.Partial {
		// Lines the snapshot does not hold: only a new search shows them.
		for _, f := range snap.Files() {
			if f.Retained < f.Lines && sel.Match(f.Path) {
				b.WriteString("Only the first retained lines are listed (more than 50,000 in all).\n")
				if echoable(snap, f.Path) {
					addNext(d, nextSearch(snap, []string{f.Path}, v), fmt.Sprintf("a new search of %s alone, for its %d lines not retained", f.Path, f.Lines-f.Retained))
				}
				break
			}
		}
	}
	writeNext(&b, d)
	return b.String()
}

// source is a file read back for context, verified against its revision.
type source struct {
	lines   [][]byte // the file's lines, without an empty one past the end
	changed bool
	noted   bool  // the "changed" note was written
	shown   int   // last line already shown (windows never repeat)
	matches []int // the file's retained match line numbers, ascending
}

// contextWriter renders match lines with their context: the lines before
// and after each match line, never past the end of the file, never a line
// shown already, and never another match line (which is shown as itself,
// on its own page).
type contextWriter struct {
	snap  *snapshot.Snapshot
	ctx   int
	files map[string]*source
	json  map[int]ContextJSON // by match number
}

func newContextWriter(snap *snapshot.Snapshot, ctx int) *contextWriter {
	return &contextWriter{snap: snap, ctx: ctx, files: map[string]*source{}, json: map[int]ContextJSON{}}
}

func (cw *contextWriter) source(path string) *source {
	if src := cw.files[path]; src != nil {
		return src
	}
	src := &source{}
	cw.files[path] = src
	f, _ := cw.snap.File(path)
	real, err := filepath.EvalSymlinks(filepath.Join(cw.snap.Meta.Root, path))
	if err == nil && forbidden(real) {
		err = errPathForbidden // a snapshot from the state folder names it
	}
	var data []byte
	st := revisions.Unknown
	if err == nil {
		data, st, err = revisions.ReadVerified(real, f.Revision, snapshot.MaxInspectBytes)
	}
	if err != nil || st != revisions.Same {
		src.changed = true
		return src
	}
	// Decoded as the search read the file, so line numbers agree.
	src.lines = bytes.SplitAfter(pipeline.Decode(path, data, input.Options{}), []byte("\n"))
	if n := len(src.lines); n > 0 && len(src.lines[n-1]) == 0 {
		src.lines = src.lines[:n-1]
	}
	for _, l := range cw.snap.FileLines(path) {
		src.matches = append(src.matches, l.Number)
	}
	return src
}

// render returns the match row with its context rows around it, within
// allow bytes of text and allowJSON bytes of the context's JSON form (the
// rows farthest from the match go first), and records that JSON form.
func (cw *contextWriter) render(l snapshot.Line, row string, allow, allowJSON int) string {
	src := cw.source(l.Path)
	if src.changed {
		cw.json[l.Match] = ContextJSON{Match: l.Match, Path: l.Path, Changed: true}
		if src.noted {
			return row
		}
		src.noted = true
		return row + fmt.Sprintf("    (context not shown: %s changed since the search)\n", shorten(l.Path, maxEchoBytes))
	}
	prev, next := 0, len(src.lines)+1
	i := sort.SearchInts(src.matches, l.Number)
	if i > 0 {
		prev = src.matches[i-1]
	}
	if i < len(src.matches) && src.matches[i] == l.Number {
		i++
	}
	if i < len(src.matches) {
		next = src.matches[i]
	}
	first := max(1, l.Number-cw.ctx, src.shown+1, prev+1)
	last := min(len(src.lines), l.Number+cw.ctx, next-1)
	text := func(n int) string {
		return clip(strings.ToValidUTF8(strings.TrimRight(string(src.lines[n-1]), "\r\n"), "\uFFFD"), sampleTextChars*2)
	}
	rowOf := func(n int) string { return fmt.Sprintf("    -%d %s\n", n, text(n)) }
	// The JSON form holds each row's text as a string; the fields around
	// them take contextJSONBytes and the path.
	jsonOf := func(n int) int { return jsonCost(text(n)) + 1 }
	size, jsize := len(row), contextJSONBytes+jsonCost(l.Path)
	for n := first; n <= last; n++ {
		if n != l.Number {
			size += len(rowOf(n))
			jsize += jsonOf(n)
		}
	}
	for (size > allow || jsize > allowJSON) && (first < l.Number || last > l.Number) {
		if l.Number-first >= last-l.Number {
			size -= len(rowOf(first))
			jsize -= jsonOf(first)
			first++
		} else {
			size -= len(rowOf(last))
			jsize -= jsonOf(last)
			last--
		}
	}
	src.shown = max(src.shown, l.Number, last)
	cj := ContextJSON{Match: l.Match, Path: l.Path}
	var b strings.Builder
	for n := first; n < l.Number; n++ {
		b.WriteString(rowOf(n))
		cj.Before = append(cj.Before, text(n))
	}
	if len(cj.Before) > 0 {
		cj.FirstLine = first
	}
	b.WriteString(row)
	for n := l.Number + 1; n <= last; n++ {
		b.WriteString(rowOf(n))
		cj.After = append(cj.After, text(n))
	}
	cw.json[l.Match] = cj
	return b.String()
}

// formatLine renders "path:line:cols {match #N}  text".
func formatLine(l snapshot.Line, maxChars int) string {
	text, excerpt := lineText(l, maxChars)
	cols := formatRanges(l)
	mark := ""
	if excerpt {
		mark = " (excerpt)"
	}
	return fmt.Sprintf("%s:%d:%s {match #%d}%s  %s\n", l.Path, l.Number, cols, l.Match, mark, text)
}

func formatRanges(l snapshot.Line) string {
	rs := rangesJSON(l)
	var parts []string
	for _, r := range rs {
		suffix := ""
		if r.Unit == "byte" {
			suffix = "b"
		}
		parts = append(parts, fmt.Sprintf("%d-%d%s", r.Start, r.End, suffix))
	}
	s := strings.Join(parts, ",")
	if more := l.Occurrences - len(rs); more > 0 {
		s += fmt.Sprintf("(+%d more)", more)
	}
	return s
}

// rangesJSON gives up to MaxRangesShown occurrences, 1-based, end
// exclusive, in UTF-16 units for UTF-8 lines and bytes otherwise.
func rangesJSON(l snapshot.Line) []RangeJSON {
	utf16 := utf8.Valid(l.Text)
	var out []RangeJSON
	for i, r := range l.Ranges {
		if i == snapshot.MaxRangesShown {
			break
		}
		if utf16 {
			out = append(out, RangeJSON{Start: r.StartUTF16 + 1, End: r.EndUTF16 + 1, Unit: "utf16"})
		} else {
			out = append(out, RangeJSON{Start: r.Start + 1, End: r.End + 1, Unit: "byte"})
		}
	}
	return out
}

func matchJSON(l snapshot.Line, maxChars int) MatchJSON {
	text, excerpt := lineText(l, maxChars)
	rs := rangesJSON(l)
	return MatchJSON{Match: l.Match, Path: l.Path, Line: l.Number, Text: text, Excerpt: excerpt, Ranges: rs, MoreRanges: max(0, l.Occurrences-len(rs))}
}

// lineText returns the line as shown: whole, or an excerpt of maxChars
// characters around the first occurrence. Invalid UTF-8 is shown with
// U+FFFD for each bad byte (the ranges then count bytes).
func lineText(l snapshot.Line, maxChars int) (string, bool) {
	text := strings.ToValidUTF8(string(l.Text), "\uFFFD")
	if utf8.RuneCountInString(text) <= maxChars && !l.Clipped() {
		return text, false
	}
	runes := []rune(text)
	start := 0
	if len(l.Ranges) > 0 {
		first := utf8.RuneCount(l.Text[:min(len(l.Text), max(0, l.Ranges[0].Start-l.TextStart))])
		start = max(0, first-maxChars/4)
	}
	end := min(len(runes), start+maxChars)
	start = max(0, end-maxChars)
	return "…" + string(runes[start:end]) + "…", true
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// StateDir returns the state folder for --agent snapshots (never the
// shared temporary directory: without HOME, a per-user folder in it).
func StateDir() string { return snapshot.DefaultStateDir() }
