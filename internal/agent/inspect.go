package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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
	Lossy        bool      `json:"lossy,omitempty"`
	Error        string    `json:"error,omitempty"`
}

// DeclJSON describes the declaration shown.
type DeclJSON struct {
	Kind      string      `json:"kind"`
	Name      string      `json:"name"`
	StartLine int         `json:"startLine"`
	EndLine   int         `json:"endLine"`
	Signature string      `json:"signature"`
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
	rev   *revisions.Revision // nil: take the file as it is now
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
		snap, _, err := env.Store.Resolve(req.Cursor, "", "", "")
		if err != nil {
			return nil, err
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
			targets = append(targets, inspectTarget{path: l.Path, line: l.Number, match: n, rev: &rev})
		}
	case len(req.Targets) > 0:
		for _, t := range req.Targets {
			targets = append(targets, inspectTarget{path: t.Path, line: t.Line})
		}
	default:
		targets = append(targets, inspectTarget{path: req.Paths[0], line: req.Line})
	}
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Root, d.Status = ModeInspect, root, "complete"
	var b strings.Builder
	budget := responseBudget - 200
	fmt.Fprintf(&b, "evgrep inspect: %d target(s) under %s\n", len(targets), shorten(root, maxEchoBytes))
	shown := map[string][][2]int{} // path → line ranges already shown
	shownBy := map[string][]int{}  // path → index of the target that showed each range
	for i, t := range targets {
		tj := TargetJSON{Path: t.path, Line: t.line, Match: t.match}
		sp, err := resolveSpan(root, t)
		if err != nil {
			tj.Outcome, tj.Error = outcomeError, err.Error()
			fmt.Fprintf(&b, "== %s:%d — error: %s\n", shorten(t.path, inspectEchoBytes), t.line, shorten(err.Error(), inspectEchoBytes))
			d.Targets = append(d.Targets, tj)
			continue
		}
		tj.Lossy = sp.lossy
		if sp.decl != nil {
			tj.Decl = declJSON(sp.decl)
		}
		tj.Fallback = sp.fallback
		// Overlapping ranges of one file are shown once.
		if j := overlapping(shown[t.path], sp.first, sp.last); j >= 0 {
			tj.Outcome, tj.SharedWith = outcomeReturned, shownBy[t.path][j]+1
			tj.FirstLine, tj.LastLine = sp.first, sp.last
			fmt.Fprintf(&b, "== %s:%d — shown above with target %d\n", shorten(t.path, inspectEchoBytes), t.line, tj.SharedWith)
			d.Targets = append(d.Targets, tj)
			continue
		}
		left := budget - b.Len() - inspectReserve*(len(targets)-i)
		writeSpanHeader(&b, t, sp)
		last, wrote := writeSource(&b, sp, sp.first, sp.last, left)
		tj.FirstLine = sp.first
		if wrote == 0 {
			tj.Outcome = outcomeDeferred
		} else {
			tj.Outcome = outcomeReturned
			tj.LastLine = last
			shown[t.path] = append(shown[t.path], [2]int{sp.first, last})
			shownBy[t.path] = append(shownBy[t.path], i)
		}
		if last < sp.last && !sp.lossy {
			from := sp.first
			if wrote > 0 {
				from = last + 1
			}
			tok, err := newSourceCursor(env, root, t.path, sp.rev, from, sp.last)
			if err == nil {
				tj.SourceCursor = tok
				fmt.Fprintf(&b, "   … lines %d–%d not shown (budget); continue: {\"cursor\":%q}\n", from, sp.last, tok)
			} else {
				fmt.Fprintf(&b, "   … lines %d–%d not shown (budget; cursor unavailable: %v)\n", from, sp.last, err)
			}
		} else if last < sp.last {
			fmt.Fprintf(&b, "   … lines %d–%d not shown (budget; no continuation for a file that is not UTF-8)\n", last+1, sp.last)
		}
		d.Targets = append(d.Targets, tj)
	}
	a.Text = b.String()
	return a, nil
}

func overlapping(ranges [][2]int, first, last int) int {
	for i, r := range ranges {
		if first <= r[1] && r[0] <= last {
			return i
		}
	}
	return -1
}

func declJSON(dc *syntax.Decl) *DeclJSON {
	j := &DeclJSON{Kind: dc.Kind, Name: dc.Name, StartLine: dc.StartLine, EndLine: dc.EndLine, Signature: dc.Signature}
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
	t.path = shorten(t.path, inspectEchoBytes)
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

// writeSource writes whole lines first..last as "N| text" while they fit in
// budget bytes; it returns the last line written and how many were.
func writeSource(b *strings.Builder, sp *span, first, last, budget int) (int, int) {
	lineStart := lineOffsets(sp.data, first, last)
	wrote := 0
	end := first - 1
	for n := first; n <= last; n++ {
		i := n - first
		text := sp.data[lineStart[i]:lineStart[i+1]]
		text = bytes.TrimRight(text, "\n")
		row := strconv.Itoa(n) + "| " + strings.ToValidUTF8(string(text), "\uFFFD") + "\n"
		if len(row) > budget {
			break
		}
		b.WriteString(row)
		budget -= len(row)
		wrote++
		end = n
	}
	return end, wrote
}

// lineOffsets returns the byte offsets of lines first..last+1.
func lineOffsets(data []byte, first, last int) []int {
	out := make([]int, 0, last-first+2)
	line, off := 1, 0
	for line < first && off < len(data) {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			off = len(data)
			break
		}
		off += i + 1
		line++
	}
	out = append(out, off)
	for n := first; n <= last; n++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			off = len(data)
		} else {
			off += i + 1
		}
		out = append(out, off)
	}
	return out
}

// Source cursors continue an inspect range that did not fit. They are
// cursors of a tiny snapshot that records the file's revision and the
// remaining line range, so replaying one gives the same page and a changed
// file is refused.
const (
	optKind  = "kind"
	kindSrc  = "source"
	optPath  = "source.path"
	optFirst = "source.first"
	optLast  = "source.last"
	optRev   = "source.revision"
)

func newSourceCursor(env Env, root, path string, rev revisions.Revision, first, last int) (string, error) {
	if env.Store == nil {
		return "", errors.New("no snapshot store")
	}
	revJSON, _ := json.Marshal(rev)
	snap := snapshot.NewBuilder().Build(snapshot.Meta{Root: root, Created: time.Now(), Options: map[string]string{
		optKind: kindSrc, optPath: path, optFirst: strconv.Itoa(first), optLast: strconv.Itoa(last), optRev: string(revJSON),
	}})
	return env.Store.NewCursor(snap, snapshot.KindMatches, 0, snapshot.PathSelection{})
}

// continueSource answers a source cursor: the next lines of the range.
func continueSource(env Env, snap *snapshot.Snapshot) (*Answer, error) {
	path := snap.Meta.Options[optPath]
	first, _ := strconv.Atoi(snap.Meta.Options[optFirst])
	last, _ := strconv.Atoi(snap.Meta.Options[optLast])
	var rev revisions.Revision
	if err := json.Unmarshal([]byte(snap.Meta.Options[optRev]), &rev); err != nil {
		return nil, &snapshot.Error{Code: snapshot.CodeUnavailable, Msg: "corrupt source cursor"}
	}
	root := snap.Meta.Root
	// The cursor's snapshot may come from the state folder: what it names
	// is checked again.
	real, err := filepath.EvalSymlinks(filepath.Join(root, path))
	if err == nil && forbidden(real) {
		return nil, &Error{Code: CodePathForbidden, Msg: shorten(path, maxEchoBytes) + " " + forbiddenMsg}
	}
	var data []byte
	st := revisions.Missing
	if err == nil {
		data, st, err = revisions.ReadVerified(real, rev, snapshot.MaxInspectBytes)
	}
	if err != nil || st != revisions.Same {
		return nil, &Error{Code: CodeSourceChanged, Msg: shorten(path, maxEchoBytes) + " changed since it was inspected; inspect it again"}
	}
	sp := &span{first: first, last: last, data: data, rev: rev}
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Root, d.Status = ModeInspect, root, "complete"
	var b strings.Builder
	fmt.Fprintf(&b, "evgrep inspect (continued): %s lines %d–%d\n", shorten(path, maxEchoBytes), first, last)
	end, _ := writeSource(&b, sp, first, last, responseBudget-600)
	tj := TargetJSON{Path: path, Line: first, Outcome: outcomeReturned, FirstLine: first, LastLine: end}
	if end < last {
		tok, err := newSourceCursor(env, root, path, rev, end+1, last)
		if err == nil {
			tj.SourceCursor = tok
			fmt.Fprintf(&b, "   … lines %d–%d not shown (budget); continue: {\"cursor\":%q}\n", end+1, last, tok)
		}
	}
	d.Targets = []TargetJSON{tj}
	a.Text = b.String()
	return a, nil
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
