package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/syntax"
)

// Inspect bounds.
const (
	// fallbackLines is the half-height of the window shown when no
	// declaration can be found.
	fallbackLines = 15
	// inspectReserve is what one target's header and notes may take.
	inspectReserve = 400
	// inspectEchoBytes bounds a target's path or error echoed in its
	// header line, so that a header fits inspectReserve.
	inspectEchoBytes = 160
)

// Inspect outcomes.
const (
	outcomeReturned = "returned"
	outcomeDeferred = "deferred"
	outcomeError    = "error"
)

// TargetJSON is the outcome of one inspect target.
type TargetJSON struct {
	Path         string    `json:"path"`
	Line         int       `json:"line"`
	Match        int       `json:"match,omitempty"`
	Outcome      string    `json:"outcome"`
	Decl         *DeclJSON `json:"decl,omitempty"`
	Fallback     string    `json:"fallback,omitempty"`
	FirstLine    int       `json:"firstLine,omitempty"`
	LastLine     int       `json:"lastLine,omitempty"`
	SharedWith   int       `json:"sharedWith,omitempty"`
	SourceCursor string    `json:"sourceCursor,omitempty"`
	// SourceCursorBefore continues with the lines before the ones shown.
	SourceCursorBefore string `json:"sourceCursorBefore,omitempty"`
	// Excerpt: a line longer than 4 KiB is shown as an excerpt.
	Excerpt bool   `json:"excerpt,omitempty"`
	Lossy   bool   `json:"lossy,omitempty"`
	Error   string `json:"error,omitempty"`
	// Retry is the request that inspects a deferred target on its own.
	Retry *Request `json:"retry,omitempty"`
}

// DeclJSON describes the declaration shown.
type DeclJSON struct {
	Kind      string      `json:"kind"`
	Name      string      `json:"name"`
	StartLine int         `json:"startLine"`
	EndLine   int         `json:"endLine"`
	Signature string      `json:"signature"`
	Exported  bool        `json:"exported,omitempty"`
	Header    *HeaderJSON `json:"header,omitempty"`
}

// HeaderJSON is the enclosing container's header of a member (a Rust impl,
// a Python class) shown with it.
type HeaderJSON struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Signature string `json:"signature"`
}

// inspectTarget is one resolved target: a file, a line, and the revision
// the source must still have.
type inspectTarget struct {
	path  string // relative to root
	line  int
	match int
	col   int                 // byte column of the match in the line, -1 unknown
	rev   *revisions.Revision // nil: take the file as it is now
	retry *Request            // the request that inspects this target alone
}

// span is a range of source to show: lines first..last of path.
type span struct {
	first, last int
	decl        *syntax.Decl
	fallback    string
	data        []byte // whole file (verified)
	rev         revisions.Revision
	lossy       bool
}

// inspect answers mode inspect.
func inspect(req *Request, env Env, root string) (*Answer, error) {
	var targets []inspectTarget
	switch {
	case req.Cursor != "" && (req.MatchIndex != 0 || len(req.MatchIndices) > 0):
		snap, cur, err := env.Store.Resolve(req.Cursor, "", "", "")
		if err != nil {
			return nil, err
		}
		if cur.Kind != snapshot.KindSummary && cur.Kind != snapshot.KindMatches {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: fmt.Sprintf("a %s cursor has no match numbers; use the cursor of a search", cur.Kind)}
		}
		root = snap.Meta.Root
		idx := req.MatchIndices
		if req.MatchIndex != 0 {
			idx = append([]int{req.MatchIndex}, idx...)
		}
		for _, n := range idx {
			l, ok := snap.Line(n)
			if !ok {
				return nil, &snapshot.Error{Code: snapshot.CodeOffsetInvalid, Msg: fmt.Sprintf("match #%d is not in the cursor's search (1..%d)", n, snap.Totals.Retained)}
			}
			f, _ := snap.File(l.Path)
			rev := f.Revision
			col := -1
			if len(l.Ranges) > 0 {
				col = l.Ranges[0].Start
			}
			retry := &Request{Mode: ModeInspect, Cursor: req.Cursor, MatchIndex: n}
			targets = append(targets, inspectTarget{path: pathOf(l.Path), line: l.Number, match: n, col: col, rev: &rev, retry: retry})
		}
	case len(req.Targets) > 0:
		for _, t := range req.Targets {
			targets = append(targets, inspectTarget{path: t.Path, line: t.Line, col: -1})
		}
	default:
		targets = append(targets, inspectTarget{path: req.Paths[0], line: req.Line, col: -1})
	}
	for i := range targets {
		if targets[i].retry == nil {
			abs := targets[i].path
			if !filepath.IsAbs(abs) {
				abs = filepath.Join(root, abs)
			}
			targets[i].retry = &Request{Mode: ModeInspect, Path: nameOf(abs), Line: targets[i].line}
		}
	}
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Root, d.Status = ModeInspect, root, "complete"
	var b strings.Builder
	budget := responseBudget - 200
	fmt.Fprintf(&b, "evgrep inspect: %d target(s) under %s\n", len(targets), shorten(root, maxEchoBytes))
	shown := map[string][]shownRange{} // path → line ranges already shown
	for i, t := range targets {
		tj := inspectOne(&b, env, root, t, i, len(targets), budget, shown)
		if tj.Outcome != outcomeReturned || tj.SourceCursor != "" || tj.SourceCursorBefore != "" {
			d.Status = "partial"
		}
		d.Targets = append(d.Targets, tj)
	}
	a.Text = b.String()
	return a, nil
}

// inspectOne writes target i of n and returns its outcome. The lines of
// its span that earlier targets showed are not repeated; when the rest does
// not fit in what is left of the budget, a window around the target line is
// shown with cursors for the lines before and after it.
func inspectOne(b *strings.Builder, env Env, root string, t inspectTarget, i, n, budget int, shown map[string][]shownRange) TargetJSON {
	tj := TargetJSON{Path: nameOf(t.path), Line: t.line, Match: t.match}
	sp, err := resolveSpan(root, t)
	if err != nil {
		tj.Outcome, tj.Error = outcomeError, err.Error()
		fmt.Fprintf(b, "== %s:%d — error: %s\n", shorten(nameOf(t.path), inspectEchoBytes), t.line, shorten(err.Error(), inspectEchoBytes))
		return tj
	}
	tj.Lossy = sp.lossy
	if sp.decl != nil {
		tj.Decl = declJSON(sp.decl)
	}
	tj.Fallback = sp.fallback
	tj.FirstLine, tj.LastLine = sp.first, sp.last
	pieces, covering := uncovered(shown[t.path], sp.first, sp.last)
	if len(covering) > 0 {
		tj.SharedWith = covering[0] + 1
	}
	if len(pieces) == 0 {
		tj.Outcome = outcomeReturned
		fmt.Fprintf(b, "== %s:%d — shown above with target %d\n", shorten(nameOf(t.path), inspectEchoBytes), t.line, tj.SharedWith)
		return tj
	}
	left := budget - b.Len() - inspectReserve*(n-i-1)
	rows := newRows(sp, t)
	var head strings.Builder
	writeSpanHeader(&head, t, sp)
	need := head.Len()
	for _, p := range pieces {
		need += rows.size(p[0], p[1]) + 60
	}
	if need <= left {
		b.WriteString(head.String())
		for k, p := range pieces {
			if k == 0 && p[0] > sp.first || k > 0 {
				from := sp.first
				if k > 0 {
					from = pieces[k-1][1] + 1
				}
				fmt.Fprintf(b, "   (lines %d–%d shown above)\n", from, p[0]-1)
			}
			rows.write(b, p[0], p[1])
			shown[t.path] = append(shown[t.path], shownRange{p[0], p[1], i})
		}
		if last := pieces[len(pieces)-1][1]; last < sp.last {
			fmt.Fprintf(b, "   (lines %d–%d shown above)\n", last+1, sp.last)
		}
		tj.Outcome, tj.Excerpt = outcomeReturned, rows.excerpt
		return tj
	}
	// A window around the target line, with the declaration's header: a
	// fair share of what is left when more targets follow, and at least
	// minWindowBytes, else the target is deferred.
	share := left
	if rest := n - i; rest > 1 {
		share = max(left/rest, min(left, minWindowBytes))
	}
	share -= head.Len() + 2*cursorNoteBytes
	if sp.decl != nil {
		share -= len(sp.decl.Signature) + 16
	}
	lo, hi := 1, 0
	if share >= minWindowBytes/2 {
		lo, hi = rows.window(sp.first, sp.last, t.line, share)
	}
	if lo > hi {
		tj.Outcome = outcomeDeferred
		tj.FirstLine, tj.LastLine = 0, 0
		tj.Retry = t.retry
		retry, _ := json.Marshal(t.retry)
		if len(retry) > maxEchoBytes {
			retry = []byte("the request in this target's details (retry)")
		}
		fmt.Fprintf(b, "== %s:%d — deferred (the batch's 16 KiB budget is used up); retry: %s\n", shorten(nameOf(t.path), inspectEchoBytes), t.line, retry)
		if tok, err := newSourceCursor(env, root, t.path, sp.rev, sp.first, sp.last, false); err == nil && !sp.lossy {
			tj.SourceCursor = tok
			fmt.Fprintf(b, "   or continue lines %d–%d: {\"cursor\":%q}\n", sp.first, sp.last, tok)
		}
		return tj
	}
	b.WriteString(head.String())
	if sp.decl != nil && lo > sp.decl.StartLine {
		fmt.Fprintf(b, "   header: %s\n", sp.decl.Signature)
	}
	rows.write(b, lo, hi)
	shown[t.path] = append(shown[t.path], shownRange{lo, hi, i})
	tj.Outcome, tj.Excerpt = outcomeReturned, rows.excerpt
	tj.FirstLine, tj.LastLine = lo, hi
	tj.SourceCursorBefore = continuation(b, env, root, t.path, sp, sp.first, lo-1, true)
	tj.SourceCursor = continuation(b, env, root, t.path, sp, hi+1, sp.last, false)
	return tj
}

// minWindowBytes is the smallest share of the budget a window around a
// target is given; with less left, the target is deferred.
const minWindowBytes = 1024

func declJSON(dc *syntax.Decl) *DeclJSON {
	j := &DeclJSON{Kind: dc.Kind, Name: dc.Name, StartLine: dc.StartLine, EndLine: dc.EndLine, Signature: dc.Signature, Exported: dc.Exported}
	if h := dc.Header; h != nil {
		j.Header = &HeaderJSON{Kind: h.Kind, Name: h.Name, StartLine: h.StartLine, EndLine: h.EndLine, Signature: h.Signature}
	}
	return j
}

// resolveSpan reads the target's file (verified against its revision when
// it has one) and finds what to show.
func resolveSpan(root string, t inspectTarget) (*span, error) {
	abs := filepath.Join(root, t.path)
	if filepath.IsAbs(t.path) {
		abs = t.path
	}
	if len(abs) > maxPathBytes {
		return nil, errors.New("file name too long")
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, errors.New("no such file")
	}
	if forbidden(real) {
		return nil, &Error{Code: CodePathForbidden, Msg: "not inspected: " + forbiddenMsg}
	}
	if err := refuseSpecial(real); err != nil {
		return nil, err
	}
	var data []byte
	var rev revisions.Revision
	if t.rev != nil {
		var st revisions.Status
		data, st, err = revisions.ReadVerified(real, *t.rev, snapshot.MaxInspectBytes)
		if err != nil || st != revisions.Same {
			return nil, errors.New("the file changed since the search; search again to inspect it")
		}
		rev = *t.rev
	} else {
		f, err := openChecked(real)
		if err != nil {
			return nil, errors.New(firstLine(err.Error()))
		}
		defer f.Close()
		tr, err := revisions.NewTracker(f)
		if err != nil {
			return nil, err
		}
		buf := make([]byte, 0, 64<<10)
		r := tr.Reader(f)
		for len(buf) < snapshot.MaxInspectBytes {
			if len(buf) == cap(buf) {
				buf = append(buf, 0)[:len(buf)]
			}
			n, err := r.Read(buf[len(buf):min(cap(buf), snapshot.MaxInspectBytes)])
			buf = buf[:len(buf)+n]
			if err != nil {
				break
			}
		}
		data = buf
		rev = tr.Finish()
	}
	lines := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		lines++
	}
	if t.line < 1 || t.line > lines {
		if int64(len(data)) >= snapshot.MaxInspectBytes {
			return nil, fmt.Errorf("line %d lies beyond the %d MiB inspect cap", t.line, snapshot.MaxInspectBytes>>20)
		}
		return nil, fmt.Errorf("line %d is outside the file (1..%d)", t.line, lines)
	}
	sp := &span{data: data, rev: rev, lossy: !utf8.Valid(data)}
	lang, ok := syntax.Detect(t.path, data[:min(len(data), 4096)])
	var why string
	switch {
	case !ok:
		why = "no parser for this file type"
	case int64(len(data)) >= snapshot.MaxInspectBytes:
		why = "file over the inspect size cap"
	default:
		dc, err := syntax.Enclosing(lang, data, t.line)
		if err == nil {
			sp.decl = &dc
			sp.first, sp.last = dc.StartLine, dc.EndLine
			return sp, nil
		}
		switch {
		case errors.Is(err, syntax.ErrNoParser):
			why = "no parser in this build"
		case errors.Is(err, syntax.ErrSyntax):
			why = "syntax error around the line"
		case errors.Is(err, syntax.ErrNoDecl):
			why = "the line is not inside a declaration"
		default:
			why = err.Error()
		}
	}
	sp.fallback = why
	sp.first, sp.last = max(1, t.line-fallbackLines), min(lines, t.line+fallbackLines)
	return sp, nil
}

func writeSpanHeader(b *strings.Builder, t inspectTarget, sp *span) {
	t.path = shorten(nameOf(t.path), inspectEchoBytes)
	label := ""
	if t.match > 0 {
		label = fmt.Sprintf(" {match #%d}", t.match)
	}
	if sp.decl != nil {
		fmt.Fprintf(b, "== %s:%d%s → %s %s, lines %d–%d\n", t.path, t.line, label, sp.decl.Kind, shorten(sp.decl.Name, inspectEchoBytes), sp.decl.StartLine, sp.decl.EndLine)
		if h := sp.decl.Header; h != nil {
			fmt.Fprintf(b, "   in %s %s (lines %d–%d): %s\n", h.Kind, shorten(h.Name, inspectEchoBytes), h.StartLine, h.EndLine, h.Signature)
		}
	} else {
		fmt.Fprintf(b, "== %s:%d%s → lines %d–%d (window: %s)\n", t.path, t.line, label, sp.first, sp.last, sp.fallback)
	}
	if sp.lossy {
		b.WriteString("   (not UTF-8: lossy preview, invalid bytes shown as U+FFFD)\n")
	}
}

// inspectRequest resolves the root of an inspect request and runs it: the
// cursor's root, or for path+line and targets the current directory (or
// path, when it names a directory for targets).
func inspectRequest(req *Request, env Env, root string) (*Answer, error) {
	if req.Cursor != "" {
		if env.Store == nil {
			return nil, &snapshot.Error{Code: snapshot.CodeUnavailable, Msg: "no snapshot store"}
		}
		return inspect(req, env, root)
	}
	cwd := env.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	base, err := snapshot.NormalizeRoot(cwd)
	if err != nil {
		return nil, &Error{Code: CodePathMissing, Msg: err.Error()}
	}
	if len(req.Targets) > 0 {
		if req.Path != "" {
			base = root
		}
		return inspect(req, env, base)
	}
	// path+line: path names the file.
	file := req.Path
	if !filepath.IsAbs(file) {
		file = filepath.Join(cwd, file)
	}
	r2 := *req
	rel, err := filepath.Rel(base, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		base, rel = filepath.Dir(file), filepath.Base(file)
	}
	r2.Paths = StringList{rel}
	return inspect(&r2, env, base)
}
