package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/pipeline"
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
	Status   string        `json:"status"` // complete, partial, error
	Mode     string        `json:"mode,omitempty"`
	Pattern  string        `json:"pattern,omitempty"`
	Root     string        `json:"root,omitempty"`
	Paths    []string      `json:"paths,omitempty"`
	Totals   *TotalsJSON   `json:"totals,omitempty"`
	Files    []FileJSON    `json:"files,omitempty"`
	Matches  []MatchJSON   `json:"matches,omitempty"`
	Cursor   string        `json:"cursor,omitempty"`
	Page     *PageJSON     `json:"page,omitempty"`
	Retried  *RetryJSON    `json:"retriedFromRoot,omitempty"`
	Problems []string      `json:"problems,omitempty"`
	Error    *ErrorJSON    `json:"error,omitempty"`
	Notes    []string      `json:"notes,omitempty"`
	Context  []ContextJSON `json:"context,omitempty"`
	Targets  []TargetJSON  `json:"targets,omitempty"`
	Outlines []FileOutline `json:"outlines,omitempty"`
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
}

// RetryJSON says a zero-result search in sub-paths was retried from root.
type RetryJSON struct {
	Paths []string `json:"paths"`
	Lines int      `json:"linesUnderRoot"`
	Files int      `json:"filesUnderRoot"`
}

// ErrorJSON is a stable error.
type ErrorJSON struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ContextJSON is source around a match line, shown only when the file is
// unchanged since the search.
type ContextJSON struct {
	Match     int      `json:"match"`
	Path      string   `json:"path"`
	FirstLine int      `json:"firstLine,omitempty"`
	Lines     []string `json:"lines,omitempty"`
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
)

// Env is what Handle needs from its caller.
type Env struct {
	Store *snapshot.Store
	// Cwd is the directory a relative path field is resolved against.
	Cwd string
}

// Handle answers one request. It never panics on bad input; failures are
// answers with Failed set and a stable code.
func Handle(req *Request, env Env) *Answer {
	if err := req.Validate(); err != nil {
		return errorAnswer(err)
	}
	a, err := handle(req, env)
	if err != nil {
		return errorAnswer(err)
	}
	return a
}

// HandleJSON parses and answers a raw request.
func HandleJSON(data []byte, env Env) *Answer {
	req, err := ParseRequest(data)
	if err != nil {
		return errorAnswer(err)
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
	rootArg := req.Path
	if rootArg == "" {
		rootArg = "."
	}
	if !filepath.IsAbs(rootArg) && env.Cwd != "" {
		rootArg = filepath.Join(env.Cwd, rootArg)
	}
	root, err := snapshot.NormalizeRoot(rootArg)
	if err != nil {
		return nil, &Error{Code: CodePathMissing, Msg: fmt.Sprintf("%s: %v", req.Path, errors.Unwrap(err))}
	}
	if forbidden(root) {
		return nil, &Error{Code: CodePathForbidden, Msg: root + " is not searched (system or credential store, or .git internals)"}
	}
	switch req.Mode {
	case ModeInspect:
		return inspectRequest(req, env, root)
	case ModeOutline:
		return outline(req, env, root)
	}
	if req.Cursor != "" {
		return page(req, env, root)
	}
	subs, err := subPaths(root, req.Paths)
	if err != nil {
		return nil, err
	}
	res, err := runSearch(req, root, subs)
	if err != nil {
		return nil, err
	}
	var retry *RetryJSON
	if res.snap.Totals.Lines == 0 && len(subs) > 0 {
		// Zero results in a sub-path: look under the whole root before
		// claiming there are none.
		wide := *req
		wide.Paths = nil
		if full, err := runSearch(&wide, root, nil); err == nil {
			retry = &RetryJSON{Paths: subs, Lines: full.snap.Totals.Lines, Files: full.snap.Totals.Files}
			if full.snap.Totals.Lines > 0 {
				res = full
				req = &wide
			}
		}
	}
	snap := res.snap
	if env.Store != nil {
		if err := env.Store.Put(snap); err != nil {
			res.problems = append(res.problems, "cursor unavailable: "+err.Error())
		}
	}
	mode := req.Mode
	if mode == "" || mode == ModeAuto {
		mode = ModeSummary
		if fitsOnePage(snap, req) {
			mode = ModeMatches
			if req.Limit == nil {
				// Everything fits: show it all, not just the default page.
				all := snap.Totals.Retained
				req = withLimit(req, all)
			}
		}
	}
	a := &Answer{}
	d := &a.Details
	d.Pattern, d.Root, d.Paths, d.Retried, d.Problems = req.Pattern, root, subs, retry, res.problems
	if mode == ModeMatches {
		err = renderMatches(a, req, env, snap, snapshot.SelectPaths(), 0)
	} else {
		err = renderSummary(a, req, env, snap, 0)
	}
	return a, err
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
	size := 0
	for _, f := range snap.Files() {
		for _, l := range snap.FileLines(f.Path) {
			size += len(formatLine(l, snapshot.MaxExcerptChars)) + (2*req.context()+1)*100*min(req.context(), 1)
		}
	}
	return size <= responseBudget-everythingReserve
}

func withLimit(req *Request, n int) *Request {
	r := *req
	n = max(1, min(n, maxLimit))
	r.Limit = &n
	return &r
}

// page continues from a cursor without searching again.
func page(req *Request, env Env, root string) (*Answer, error) {
	if env.Store == nil {
		return nil, &snapshot.Error{Code: snapshot.CodeUnavailable, Msg: "no snapshot store"}
	}
	fp := ""
	if req.restatesSearch() {
		fp = snapshot.Fingerprint(req.searchOptions())
	}
	kind := snapshot.Kind("")
	switch req.Mode {
	case ModeSummary:
		kind = snapshot.KindSummary
	case ModeMatches:
		kind = snapshot.KindMatches
	}
	rootCheck := ""
	if req.Path != "" {
		rootCheck = root
	}
	snap, cur, err := env.Store.Resolve(req.Cursor, rootCheck, kind, fp)
	if err != nil {
		return nil, err
	}
	if snap.Meta.Options[optKind] == kindSrc {
		return continueSource(env, snap)
	}
	a := &Answer{}
	d := &a.Details
	d.Pattern, d.Root = snap.Meta.Options["pattern"], snap.Meta.Root
	if cur.Kind == snapshot.KindSummary {
		return a, renderSummary(a, req, env, snap, cur.Offset)
	}
	d.Paths = cur.Selection.Paths
	return a, renderMatches(a, req, env, snap, cur.Selection, cur.Offset)
}

// subPaths checks the requested sub-paths: relative to root, inside it.
func subPaths(root string, paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		abs := p
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(root, p)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, &Error{Code: CodePathMissing, Msg: p + ": no such file or directory"}
		}
		rel, err := filepath.Rel(root, real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, invalid("%s is outside the root %s", p, root)
		}
		if forbidden(real) {
			return nil, &Error{Code: CodePathForbidden, Msg: p + " is not searched (system or credential store, or .git internals)"}
		}
		if rel == "." {
			return nil, nil
		}
		out = append(out, filepath.ToSlash(rel))
	}
	return out, nil
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
		scope = fmt.Sprintf(" (selection %s: %d lines in %d files)", strings.Join(sel.Paths, ", "), st.Lines, st.Files)
	}
	state := "complete"
	if t.Partial {
		state = fmt.Sprintf("partial: %d of %d lines retained, totals exact", t.Retained, t.Lines)
	}
	return fmt.Sprintf("evgrep: %d matching lines (%d occurrences) in %d of %d files searched for %s under %s — %s%s\n",
		t.Lines, t.Occurrences, t.Files, t.Searched, quotePattern(snap.Meta.Options["pattern"]), snap.Meta.Root, state, scope)
}

func quotePattern(p string) string {
	b, _ := json.Marshal(p)
	return string(b)
}

// renderSummary writes one page of the count-ranked file list with samples.
func renderSummary(a *Answer, req *Request, env Env, snap *snapshot.Snapshot, offset int) error {
	d := &a.Details
	d.Mode, d.Status, d.Totals = ModeSummary, status(snap.Totals), totalsJSON(snap.Totals)
	var b strings.Builder
	b.WriteString(statusLine(snap, snapshot.SelectPaths()))
	writeRetry(&b, d)
	files, next, done := snap.SummaryPage(offset, snapshot.MaxSummaryFiles)
	total := len(snap.Files())
	if total == 0 {
		b.WriteString("No matches.\n")
	} else {
		fmt.Fprintf(&b, "Files by matching lines (%d–%d of %d):\n", offset+1, offset+len(files), total)
	}
	for _, f := range files {
		fmt.Fprintf(&b, "%7d  %s", f.Lines, f.Path)
		if f.Occurrences != f.Lines {
			fmt.Fprintf(&b, "  (%d occurrences)", f.Occurrences)
		}
		b.WriteByte('\n')
		d.Files = append(d.Files, FileJSON{Path: f.Path, Lines: f.Lines, Occurrences: f.Occurrences})
	}
	d.Page = &PageJSON{Kind: string(snapshot.KindSummary), Offset: offset, Count: len(files), Total: total, Done: done}
	// Samples: real match lines of the first files of the page.
	if len(files) > 0 {
		b.WriteString("Samples:\n")
	}
	for i, f := range files {
		if i == sampleFiles {
			break
		}
		lines := snap.FileLines(f.Path)
		for _, win := range sampleWindowsOf(lines) {
			for _, l := range win {
				row := formatLine(l, sampleTextChars)
				if b.Len()+len(row)+summaryRowReserve > summaryTextBudget {
					break
				}
				b.WriteString(row)
				d.Matches = append(d.Matches, matchJSON(l, sampleTextChars))
			}
		}
	}
	if !done && env.Store != nil {
		if tok, err := env.Store.NewCursor(snap, snapshot.KindSummary, next, snapshot.PathSelection{}); err == nil {
			d.Cursor = tok
			fmt.Fprintf(&b, "Next: {\"cursor\":%q} for files %d–%d.\n", tok, next+1, min(total, next+snapshot.MaxSummaryFiles))
		} else {
			fmt.Fprintf(&b, "Cursor unavailable (%v); narrow the search with paths or glob instead.\n", err)
		}
	}
	if total > 0 {
		fmt.Fprintf(&b, "Then: {\"mode\":\"matches\",\"pattern\":%s,\"paths\":[%q]} lists the numbered lines of one file.\n", quotePattern(snap.Meta.Options["pattern"]), files[0].Path)
	}
	a.Text = b.String()
	return nil
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
	if d.Retried == nil {
		return
	}
	if d.Retried.Lines > 0 {
		fmt.Fprintf(b, "Note: no match in %s; retried under the whole root: %d lines in %d files (shown below).\n", strings.Join(d.Retried.Paths, ", "), d.Retried.Lines, d.Retried.Files)
	} else {
		fmt.Fprintf(b, "Note: no match in %s, nor anywhere else under the root.\n", strings.Join(d.Retried.Paths, ", "))
	}
}

// renderMatches writes one page of numbered match lines.
func renderMatches(a *Answer, req *Request, env Env, snap *snapshot.Snapshot, sel snapshot.PathSelection, offset int) error {
	d := &a.Details
	d.Mode, d.Status, d.Totals = ModeMatches, status(snap.Totals), totalsJSON(snap.Totals)
	var b strings.Builder
	b.WriteString(statusLine(snap, sel))
	writeRetry(&b, d)
	ctx := req.context()
	budget := responseBudget - b.Len() - 600
	size := func(l snapshot.Line) int {
		n := len(formatLine(l, snapshot.MaxExcerptChars))
		if ctx > 0 {
			n += (2*ctx + 1) * 100
		}
		return n
	}
	lines, next, done := snap.MatchesPage(sel, offset, req.limit(), budget, size)
	selTotal := snap.Count(sel).Retained
	if len(lines) == 0 {
		b.WriteString("No match lines in this selection.\n")
	} else {
		fmt.Fprintf(&b, "Match lines %d–%d of %d (path:line:columns {match #N}):\n", offset+1, offset+len(lines), selTotal)
	}
	sources := map[string]*source{}
	for _, l := range lines {
		b.WriteString(formatLine(l, snapshot.MaxExcerptChars))
		d.Matches = append(d.Matches, matchJSON(l, snapshot.MaxExcerptChars))
		if ctx > 0 {
			writeContext(&b, d, snap, sources, l, ctx)
		}
	}
	d.Page = &PageJSON{Kind: string(snapshot.KindMatches), Offset: offset, Count: len(lines), Total: selTotal, Done: done}
	if !done && env.Store != nil {
		if tok, err := env.Store.NewCursor(snap, snapshot.KindMatches, next, sel); err == nil {
			d.Cursor = tok
			fmt.Fprintf(&b, "Next: {\"cursor\":%q} for lines %d–%d.\n", tok, next+1, min(selTotal, next+req.limit()))
		} else {
			fmt.Fprintf(&b, "Cursor unavailable (%v).\n", err)
		}
	}
	if snap.Totals.Partial && done {
		b.WriteString("Only the first retained lines are listed; narrow the search (paths, glob) to see the rest.\n")
	}
	a.Text = b.String()
	return nil
}

// source is a file read back for context, verified against its revision.
type source struct {
	lines   [][]byte
	changed bool
	shown   int // last line already shown as context (windows never repeat)
}

func writeContext(b *strings.Builder, d *Details, snap *snapshot.Snapshot, cache map[string]*source, l snapshot.Line, ctx int) {
	src := cache[l.Path]
	if src == nil {
		src = &source{}
		cache[l.Path] = src
		f, _ := snap.File(l.Path)
		data, st, err := revisions.ReadVerified(filepath.Join(snap.Meta.Root, l.Path), f.Revision, snapshot.MaxInspectBytes)
		if err != nil || st != revisions.Same {
			src.changed = true
		} else {
			src.lines = bytes.SplitAfter(pipeline.Decode(l.Path, data, input.Options{}), []byte("\n"))
		}
	}
	if src.changed {
		fmt.Fprintf(b, "    (context not shown: %s changed since the search)\n", l.Path)
		d.Context = append(d.Context, ContextJSON{Match: l.Match, Path: l.Path, Changed: true})
		return
	}
	first := max(1, l.Number-ctx, src.shown+1)
	last := min(len(src.lines), l.Number+ctx)
	if first > last {
		return // the previous match's window already showed these lines
	}
	src.shown = last
	cj := ContextJSON{Match: l.Match, Path: l.Path, FirstLine: first}
	for n := first; n <= last; n++ {
		text := strings.TrimRight(string(src.lines[n-1]), "\r\n")
		text = clip(text, sampleTextChars*2)
		mark := "-"
		if n == l.Number {
			mark = ">"
		}
		fmt.Fprintf(b, "    %s%d %s\n", mark, n, text)
		cj.Lines = append(cj.Lines, text)
	}
	d.Context = append(d.Context, cj)
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
