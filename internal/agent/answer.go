package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evgrep/evgrep/internal/credpolicy"
	"github.com/evgrep/evgrep/internal/progress"
	"github.com/evgrep/evgrep/internal/scope"
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

// Env is what Handle needs from its caller.
type Env struct {
	Store *snapshot.Store
	// Cwd is the directory a relative path field is resolved against.
	Cwd string
	// Scope, when set, holds a front end's own walk and decoding rules
	// (the command line's flags); every analysis then walks with them
	// instead of the request's hidden, glob and exclude fields. Its Root
	// and Subs are not used: they come from the request.
	Scope *scope.Scope
	// Walked, when set, is called when the walk of a search (of the tree
	// or of a commit), terms, impact, imports or tests request is over,
	// before its answer is built. The command line gives back there the pages of
	// its executable that the walk touched (internal/startpages), so that
	// the peak resident size is the walk's or the answer's, not their sum.
	Walked func()

	// ctx is the call's context (Handle's): its cancellation stops every
	// walk, parse and index build, and its progress.Reporter hears of
	// every ProgressEvery files.
	ctx context.Context
}

// cancelled reports whether the call was cancelled (polled per file).
func (e Env) cancelled() bool { return e.ctx != nil && progress.Cancelled(e.ctx) }

// walked tells the front end that a walk is over (Env.Walked).
func (e Env) walked() {
	if e.Walked != nil {
		e.Walked()
	}
}

// progress reports files done to the call's reporter, if any.
func (e Env) progress(files int) {
	if e.ctx != nil {
		progress.Report(e.ctx, files)
	}
}

// reports reports whether the call has a progress reporter.
func (e Env) reports() bool { return e.ctx != nil && progress.Reports(e.ctx) }

// context returns the call's context (never nil).
func (e Env) context() context.Context {
	if e.ctx == nil {
		return context.Background()
	}
	return e.ctx
}

// Handle answers one request. It never panics on bad input; failures are
// answers with Failed set and a stable code. Cancelling ctx stops the
// work (the answer is CodeCancelled); a progress.Reporter in ctx hears of
// the files done.
func Handle(ctx context.Context, req *Request, env Env) *Answer {
	if err := req.Validate(); err != nil {
		return bound(errorAnswer(err))
	}
	env.ctx = ctx
	a, err := handle(req, env)
	if err != nil {
		return bound(errorAnswer(err))
	}
	completeNext(a)
	writeProblems(a)
	return bound(a)
}

// HandleJSON parses and answers a raw request.
func HandleJSON(ctx context.Context, data []byte, env Env) *Answer {
	req, err := ParseRequest(data)
	if err != nil {
		return bound(errorAnswer(err))
	}
	return Handle(ctx, req, env)
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

func handle(req *Request, env Env) (*Answer, error) {
	warmEncoders()
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
	if abs, err := filepath.Abs(rootArg); err == nil && forbidden(credpolicy.ResolveExisting(abs)) {
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
	run := analyses[req.Mode]
	if len(req.Terms) > 0 {
		run = termsRequest
	}
	if run == nil {
		return nil, invalid("unknown mode %q", shorten(req.Mode, maxEchoBytes))
	}
	return run(req, env, root)
}

// An analysis answers one kind of request over the files under root:
// every mode is one, and handle is the only caller. Each walks with
// env's scope (or the request's), reads through the one pipeline
// (pipeline.Decode), polls env.cancelled and reports env.progress per
// file, and stores what it found as the items of a snapshot that the one
// answer layer (page, completeNext, bound) pages, bounds and continues.
type analysis func(req *Request, env Env, root string) (*Answer, error)

// analyses maps each mode to its analysis; a request with terms is the
// terms analysis whatever its mode (Validate allows a search mode only).
var analyses = map[string]analysis{
	"":             searchRequest,
	ModeAuto:       searchRequest,
	ModeSummary:    searchRequest,
	ModeMatches:    searchRequest,
	ModeInspect:    inspectRequest,
	ModeOutline:    outline,
	ModeStructural: structuralRequest,
	ModeImpact:     analysisRequest,
	ModeImports:    navRequest,
	ModeTests:      navRequest,
	ModeRank:       rankRequest,
}

// StateDir returns the state folder for --agent snapshots (never the
// shared temporary directory: without HOME, a per-user folder in it).
func StateDir() string { return snapshot.DefaultStateDir() }
