package agent

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/evgrep/evgrep/internal/astsearch"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/structural"
	"github.com/evgrep/evgrep/walker"
)

// Bounds of structural answers.
const (
	// structuralLimit is the default number of matches a page lists.
	structuralLimit = 30
	// structuralTailReserve is kept free of match lines for the cursor
	// and the next calls.
	structuralTailReserve = 1500
	// maxCaptureText bounds one capture's text in a page.
	maxCaptureText = 200
)

// optUnsearched is the snapshot option that counts the files of a
// structural search that may match but were not searched: its pages say
// partial.
const optUnsearched = "unsearched"

// StructuralJSON is one page of a structural search.
type StructuralJSON struct {
	Lang    string           `json:"lang"`
	Kind    string           `json:"kind,omitempty"`
	Matches []StructMatchRow `json:"matches"`
	// Warning is set when the pattern itself has a syntax error.
	Warning string `json:"warning,omitempty"`
}

// StructMatchRow is one numbered structural match.
type StructMatchRow struct {
	Match   int    `json:"match"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	EndLine int    `json:"endLine"`
	Start   int64  `json:"start"`
	End     int64  `json:"end"`
	Text    string `json:"text"`
	// Captures are the metavariables as NAME=text, one per line.
	Captures string `json:"captures,omitempty"`
}

// validateStructural checks a mode structural request.
func (r *Request) validateStructural() error {
	if r.Line != 0 || r.MatchIndex != 0 || len(r.MatchIndices) > 0 || len(r.Targets) > 0 || r.Items != "" ||
		r.Context != nil || r.Literal || r.IgnoreCase != nil || r.Budget != "" {
		return invalid("mode structural takes pattern, kind, lang, path, paths, glob, exclude, hidden, limit, cursor, rewrite, apply and preview")
	}
	if r.Limit != nil && (*r.Limit < 1 || *r.Limit > maxLimit) {
		return invalid("limit %d: expected 1-%d", *r.Limit, maxLimit)
	}
	if r.Cursor != "" {
		if r.Pattern != "" || r.Kind != "" || r.Lang != "" || r.Rewrite != "" || r.Apply {
			return invalid("a structural cursor pages on its search: {\"mode\":\"structural\",\"cursor\":…} (limit may change)")
		}
		return nil
	}
	if r.Lang == "" {
		return invalid("mode structural needs lang (one of %s)", strings.Join(structural.LangNames(), ", "))
	}
	if r.Pattern == "" && r.Kind == "" {
		return invalid("mode structural needs pattern (ast-grep's: $A one node, $$$A a list) or kind")
	}
	if r.Apply && (r.Rewrite == "" || r.Preview == "") {
		return invalid("apply needs rewrite and preview (the token of the rewrite answer with the same arguments)")
	}
	if r.Preview != "" && !r.Apply {
		return invalid("preview is given with apply only")
	}
	return nil
}

// structuralMeta is the snapshot metadata of a structural search (or
// rewrite) under root: the fields that define it.
func (r *Request) structuralMeta(root string) snapshot.Meta {
	m := r.searchMeta(root)
	m.Analysis = snapshot.AnalysisStructural
	o := m.Options
	delete(o, "literal")
	delete(o, "ignoreCase")
	o["lang"] = r.Lang
	o["kind"] = r.Kind
	o["rewrite"] = r.Rewrite
	return m
}

// structuralQuery compiles the request's pattern and kind (one compiler
// with the command line's: astsearch.Query).
func structuralQuery(r *Request) (*structural.Lang, structural.Matcher, []string, string, error) {
	lang, m, lits, warning, err := astsearch.Query{Lang: r.Lang, Pattern: r.Pattern, Kind: r.Kind}.Compile()
	if err != nil {
		return nil, nil, nil, "", &Error{Code: CodePattern, Msg: err.Error()}
	}
	return lang, m, lits, warning, nil
}

// structFile is one file's outcome kept for the answer.
type structFile struct {
	rel   string
	path  string
	src   []byte
	rev   revisions.Revision
	items []snapshot.Item
	// bytes is what items count against the snapshot's bound (a lower
	// bound); dropped counts the matches whose items were not made or
	// were dropped, the snapshot being full before them (structKeeper).
	bytes, dropped int
	edits          []astsearch.Edit
}

// structProblems are the per-path errors of a structural search, and how
// many files with matches possible were not searched (or not to their
// end): over the parse limit, a parse that timed out, too complex.
type structProblems struct {
	list       []string
	unsearched int
}

// runStructural searches root with the request and returns the files with
// matches (sorted by path) and the builder holding every file read.
func runStructural(r *Request, env Env, root string, m structural.Matcher, lang *structural.Lang, lits []string, keepSrc bool) ([]*structFile, *snapshot.ItemsBuilder, structProblems, error) {
	subs, err := subPaths(root, r.Paths)
	if err != nil {
		return nil, nil, structProblems{}, err
	}
	sc := scopeOf(r, env, root, subs)
	roots, wo := sc.Roots(), sc.Walk
	wo.Threads = runtime.NumCPU()
	var problems []string
	unsearched := 0
	wo.OnError = func(err error) {
		if len(problems) < maxProblems {
			problems = append(problems, err.Error())
		}
	}
	rel := func(p string) string {
		if x, err := filepath.Rel(root, p); err == nil {
			return nameOf(filepath.ToSlash(x))
		}
		return nameOf(p)
	}
	b := snapshot.NewItemsBuilder()
	var files []*structFile
	var keep structKeeper
	var seen atomic.Int64
	var skips skipCount
	_, err = astsearch.Run(env.context(), &astsearch.Options{
		Roots: roots, Walk: wo, Lang: lang, Matcher: m, Literals: lits,
		Skip: func(e walker.Entry) bool {
			// Every file the walk yields passes here once: the progress.
			if n := seen.Add(1); env.reports() && n%ProgressEvery == 0 {
				env.progress(int(n))
			}
			return skips.skip(e.Path)
		},
		Open: openChecked,
		Read: func(p string, rev revisions.Revision) { b.AddFile(rel(p), rev) },
	}, func(f *astsearch.File) {
		if f.Err != nil {
			unsearched++
			if len(problems) < maxProblems {
				problems = append(problems, fmt.Sprintf("%s: %v", rel(f.Path), f.Err))
			}
		}
		if f.Tree == nil || len(f.Matches) == 0 {
			return
		}
		sf := &structFile{rel: rel(f.Path), path: f.Path, rev: f.Rev}
		fileItems(sf, f)
		keep.add(sf)
		if keepSrc {
			sf.src = f.Src
			sf.edits = astsearch.Edits(f, r.Rewrite)
		}
		files = append(files, sf)
	})
	if err != nil && env.cancelled() {
		return nil, nil, structProblems{}, &Error{Code: CodeCancelled, Msg: "the structural search was cancelled"}
	}
	if err != nil {
		return nil, nil, structProblems{}, invalid("%v", err)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	fill(b, files)
	return files, b, structProblems{withNote(problems, skips.note()), unsearched}, nil
}

func groupOf(m *structural.Match) string {
	if m.Rule != "" {
		return m.Rule
	}
	return "match"
}

// structuralRequest answers mode structural: a new search, a page of an
// earlier one (cursor), a rewrite preview, or the apply of a preview.
func structuralRequest(r *Request, env Env, root string) (*Answer, error) {
	if env.Store == nil {
		return nil, &snapshot.Error{Code: snapshot.CodeUnavailable, Msg: "no snapshot store"}
	}
	if r.Cursor != "" {
		snap, cur, err := env.Store.Resolve(r.Cursor, "", snapshot.KindItems, "")
		if err != nil {
			return nil, err
		}
		if snap.Meta.Analysis != snapshot.AnalysisStructural {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "not the cursor of a structural search"}
		}
		limit := cur.Limit
		if r.Limit != nil {
			limit = *r.Limit
		}
		return structuralPage(env, snap, cur.Offset, limit, "")
	}
	if r.Rewrite != "" {
		return rewriteRequest(r, env, root)
	}
	lang, m, lits, warning, err := structuralQuery(r)
	if err != nil {
		return nil, err
	}
	_, b, problems, err := runStructural(r, env, root, m, lang, lits, false)
	if err != nil {
		return nil, err
	}
	meta := r.structuralMeta(root)
	if problems.unsearched > 0 {
		meta.Options[optUnsearched] = strconv.Itoa(problems.unsearched)
	}
	snap := b.Build(meta)
	a, err := structuralPage(env, snap, 0, r.limitOr(structuralLimit), warning)
	if err != nil {
		return nil, err
	}
	a.Details.Problems = problems.list
	return a, nil
}

func (r *Request) limitOr(def int) int {
	if r.Limit == nil {
		return def
	}
	return *r.Limit
}

// structuralPage renders the items of snap from offset: a status line,
// numbered matches with their captures, a cursor for the rest.
func structuralPage(env Env, snap *snapshot.Snapshot, offset, limit int, warning string) (*Answer, error) {
	if limit <= 0 {
		limit = structuralLimit
	}
	o := snap.Meta.Options
	t := snap.Totals
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Pattern, d.Root = ModeStructural, o["pattern"], snap.Meta.Root
	status := "complete"
	if t.Partial || o[optUnsearched] != "" {
		status = "partial"
	}
	d.Status = status
	d.Totals = &TotalsJSON{Files: t.Files, Searched: t.Searched, Lines: t.Lines, Occurrences: t.Occurrences}
	var b strings.Builder
	what := o["pattern"]
	if o["kind"] != "" {
		what = strings.TrimSpace(what + " kind " + o["kind"])
	}
	fmt.Fprintf(&b, "structural %s (%s): %d matches in %d files (%d %s files parsed or read), %s\n",
		shorten(what, maxEchoBytes), o["lang"], t.Lines, t.Files, t.Searched, o["lang"], status)
	if warning != "" {
		fmt.Fprintf(&b, "warning: %s\n", warning)
	}
	if n := o[optUnsearched]; n != "" {
		fmt.Fprintf(&b, "%s files that may match were not searched to their end (over the parse limit, or a parse or match bound): see problems\n", n)
	}
	budget := responseBudget - structuralTailReserve - b.Len()
	size := func(it snapshot.Item) int { return 2*(len(it.Path)+len(it.Text)+len(it.Label)) + 120 }
	items, next, done := snap.ItemsPage(offset, limit, budget, size)
	sj := &StructuralJSON{Lang: o["lang"], Kind: o["kind"], Warning: warning}
	for i, it := range items {
		n := offset + i + 1
		fmt.Fprintf(&b, "#%d %s:%d: %s\n", n, it.Path, it.Line, it.Text)
		if it.Label != "" {
			for _, l := range strings.Split(it.Label, "\n") {
				fmt.Fprintf(&b, "    %s\n", l)
			}
		}
		sj.Matches = append(sj.Matches, StructMatchRow{Match: n, Path: it.Path, Line: it.Line, EndLine: it.EndLine,
			Start: it.Start, End: it.End, Text: it.Text, Captures: it.Label})
	}
	if sj.Matches == nil {
		sj.Matches = []StructMatchRow{}
	}
	d.Structural = sj
	d.Page = &PageJSON{Kind: string(snapshot.KindItems), Offset: offset, Count: len(items), Total: snap.ItemCount(), Done: done, Limit: limit}
	if !done {
		tok, err := env.Store.NewPageCursor(snap, snapshot.Page{Kind: snapshot.KindItems, Offset: next, Limit: min(limit, maxLimit)})
		if err != nil {
			return nil, err
		}
		d.Cursor = tok
		fmt.Fprintf(&b, "matches %d-%d of %d; more: {\"mode\":\"structural\",\"cursor\":%q}\n", offset+1, next, snap.ItemCount(), tok)
		d.Next = append(d.Next, NextCall{Request: Request{Mode: ModeStructural, Cursor: tok}, Why: "the next page of matches"})
	} else if snap.ItemCount() > 0 {
		fmt.Fprintf(&b, "matches %d-%d of %d (all)\n", offset+1, next, snap.ItemCount())
	}
	a.Text = b.String()
	return a, nil
}

// RewriteJSON is the outcome of a rewrite preview or apply.
type RewriteJSON struct {
	// Preview is the token an apply call must give (preview answers).
	Preview string `json:"preview,omitempty"`
	// Files lists the files the rewrite changes (preview) or changed
	// (apply); Refused those an apply left alone, with the reason.
	Files   []string          `json:"files"`
	Refused map[string]string `json:"refused,omitempty"`
	// Edits counts the replaced matches.
	Edits int `json:"edits"`
	// DiffShown is false when the diff did not fit the answer.
	DiffShown bool `json:"diffShown"`
}

// rewriteRequest previews a rewrite (a unified diff and a preview token)
// or, with apply and the preview's token, writes it: each file only if it
// is still the revision the preview read.
func rewriteRequest(r *Request, env Env, root string) (*Answer, error) {
	lang, m, lits, warning, err := structuralQuery(r)
	if err != nil {
		return nil, err
	}
	var prev *snapshot.Snapshot
	if r.Apply {
		snap, _, err := env.Store.Resolve(r.Preview, "", snapshot.KindItems, "")
		if err != nil {
			return nil, err
		}
		want := r.structuralMeta(root)
		if snap.Meta.Analysis != snapshot.AnalysisStructural {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "the preview token is not a rewrite's"}
		}
		for k, v := range want.Options {
			if snap.Meta.Options[k] != v {
				return nil, &snapshot.Error{Code: snapshot.CodeOptionsConflict, Msg: "the preview token belongs to a rewrite with other arguments (" + k + " differs)"}
			}
		}
		for k, v := range want.Lists {
			if !slices.Equal(snap.Meta.Lists[k], v) {
				return nil, &snapshot.Error{Code: snapshot.CodeOptionsConflict, Msg: "the preview token belongs to a rewrite with other arguments (" + k + " differs)"}
			}
		}
		if snap.Meta.Root != root {
			return nil, &snapshot.Error{Code: snapshot.CodeOptionsConflict, Msg: "the preview token belongs to a rewrite of another root"}
		}
		prev = snap
	}
	files, b, problems, err := runStructural(r, env, root, m, lang, lits, true)
	if err != nil {
		return nil, err
	}
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Pattern, d.Root, d.Status = ModeStructural, r.Pattern, root, "complete"
	d.Problems = problems.list
	rw := &RewriteJSON{Files: []string{}}
	var text strings.Builder
	if prev == nil {
		snap := b.Build(r.structuralMeta(root))
		tok, err := env.Store.NewCursor(snap, snapshot.KindItems, 0, snapshot.PathSelection{})
		if err != nil {
			return nil, err
		}
		rw.Preview = tok
		var diff strings.Builder
		for _, f := range files {
			if dt := astsearch.UnifiedDiff(f.rel, f.src, f.edits); dt != "" {
				rw.Files = append(rw.Files, f.rel)
				rw.Edits += len(f.edits)
				diff.WriteString(dt)
			}
		}
		fmt.Fprintf(&text, "rewrite preview: %d edits in %d files (nothing written)\n", rw.Edits, len(rw.Files))
		if warning != "" {
			fmt.Fprintf(&text, "warning: %s\n", warning)
		}
		tail := fmt.Sprintf("apply: the same request with \"apply\":true,\"preview\":%q\n", tok)
		if text.Len()+diff.Len()+len(tail)+structuralTailReserve <= responseBudget {
			text.WriteString(diff.String())
			rw.DiffShown = true
		} else {
			fmt.Fprintf(&text, "the diff (%d bytes) does not fit this answer; read it file by file (the next calls), or narrow the search with paths or glob\n", diff.Len())
		}
		text.WriteString(tail)
		if rw.DiffShown {
			next := *r
			next.Apply, next.Preview = true, tok
			d.Next = append(d.Next, NextCall{Request: next, Why: "write this rewrite (refused for files edited since)"})
		} else {
			// A diff not shown is not suggested for writing: the preview
			// of each file first (each with a token of its own).
			for _, f := range rw.Files {
				if len(d.Next) == nextInspect || jsonCost(f)-2 > maxEchoBytes {
					break
				}
				one := *r
				one.Paths = StringList{f}
				d.Next = append(d.Next, NextCall{Request: one, Why: "the rewrite's diff of " + f + " alone"})
			}
		}
	} else {
		rw.Refused = map[string]string{}
		guard := astsearch.NewGuard([]string{root}, WriteRefusal)
		for _, f := range files {
			if len(f.edits) == 0 {
				continue
			}
			pf, ok := prev.File(f.rel)
			if !ok {
				rw.Refused[f.rel] = "not in the preview"
				continue
			}
			if pf.Revision.Hash != f.rev.Hash || pf.Revision.Identity != f.rev.Identity {
				rw.Refused[f.rel] = "changed since the preview"
				continue
			}
			if err := astsearch.WriteFile(f.path, f.rev, astsearch.Apply(f.src, f.edits), guard); err != nil {
				rw.Refused[f.rel] = err.Error()
				continue
			}
			rw.Files = append(rw.Files, f.rel)
			rw.Edits += len(f.edits)
		}
		for _, pf := range prev.Files() {
			if _, done := rw.Refused[pf.Path]; done || contains(rw.Files, pf.Path) {
				continue
			}
			rw.Refused[pf.Path] = "no longer matches"
		}
		fmt.Fprintf(&text, "rewrite applied: %d edits in %d files\n", rw.Edits, len(rw.Files))
		for _, f := range rw.Files {
			fmt.Fprintf(&text, "written %s\n", f)
		}
		names := make([]string, 0, len(rw.Refused))
		for k := range rw.Refused {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(&text, "refused %s: %s\n", k, rw.Refused[k])
		}
		if len(rw.Refused) > 0 {
			d.Status = "partial"
		}
	}
	if problems.unsearched > 0 {
		d.Status = "partial"
		fmt.Fprintf(&text, "%d files that may match were not searched to their end (over the parse limit, or a parse or match bound), so not rewritten: see problems\n", problems.unsearched)
	}
	d.Rewrite = rw
	a.Text = text.String()
	return a, nil
}
