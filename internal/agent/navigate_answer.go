package agent

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/evgrep/evgrep/snapshot"
)

// NavJSON is the structured part of a mode imports or tests answer.
type NavJSON struct {
	File     string         `json:"file"`
	Language string         `json:"language"`
	Groups   map[string]int `json:"groups"`
	Labels   map[string]int `json:"labels,omitempty"`
	// Names are the declarations whose mentions link a test file (tests).
	Names    string     `json:"names,omitempty"`
	Searched int        `json:"searched"`
	Notes    []string   `json:"notes,omitempty"`
	Items    []ItemJSON `json:"items,omitempty"`
}

// validateNav checks a mode imports or tests request: path (a file), or a
// cursor alone.
func (r *Request) validateNav() error {
	if len(r.Terms) > 0 || r.Match != "" {
		return invalid("terms and match do not apply to mode %s", r.Mode)
	}
	if r.Rev != "" || r.ChangedSince != "" {
		return invalid("rev and changedSince do not apply to mode %s (it reads the working tree)", r.Mode)
	}
	if r.Pattern != "" || r.Context != nil || r.Limit != nil || r.MatchIndex != 0 || len(r.MatchIndices) > 0 ||
		len(r.Targets) > 0 || r.Items != "" || r.Budget != "" || r.Literal || r.IgnoreCase != nil ||
		r.Line != 0 || r.Symbol != "" || r.ParseBudget != nil || len(r.Glob) > 0 || len(r.Exclude) > 0 || len(r.Paths) > 0 {
		return invalid("mode %s takes path (a file), hidden and cursor only", r.Mode)
	}
	if r.Cursor != "" {
		if r.Path != "" {
			return invalid("a %s cursor pages on alone: {\"cursor\":…}", r.Mode)
		}
		return nil
	}
	if r.Path == "" {
		return invalid("mode %s needs path (a file)", r.Mode)
	}
	return nil
}

// navRequest answers a new mode imports or tests request; root is the
// normalized path (the file).
func navRequest(req *Request, env Env, root string) (*Answer, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, &Error{Code: CodePathMissing, Msg: shorten(req.Path, maxEchoBytes) + ": no such file or directory"}
	}
	if fi.IsDir() {
		return nil, invalid("mode %s needs path to name a file", req.Mode)
	}
	cwd := env.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	if c, err := snapshot.NormalizeRoot(cwd); err == nil {
		cwd = c
	}
	ws := workspaceOf(root, cwd)
	sc := scopeOf(req, env, ws, nil)
	spec := NavSpec{Root: ws, File: root, Walk: sc.Walk, Input: sc.Input, Env: env}
	run := RunImports
	if req.Mode == ModeTests {
		run = RunTests
	}
	snap, _, err := run(spec)
	if err != nil {
		return nil, err
	}
	return navPage(env, snap, 0, req.full)
}

// navRow is the text row of navigation item number n.
func navRow(n int, it snapshot.Item) string {
	label := ""
	if it.Label != "" {
		label = "  [" + it.Label + "]"
	}
	return fmt.Sprintf("#%d %s:%d  %s%s  %s\n", n, shorten(it.Path, maxEchoBytes), it.Line, it.Group, label, it.Text)
}

func navItemJSON(n int, it snapshot.Item) ItemJSON {
	return ItemJSON{Index: n, Path: shorten(it.Path, maxEchoBytes), Line: it.Line, Start: it.Start, End: it.End, Role: it.Group, Label: it.Label, Text: it.Text}
}

// navPage renders a navigation snapshot from offset on (all of it, with
// no bound and no cursor, when full).
func navPage(env Env, snap *snapshot.Snapshot, offset int, full bool) (*Answer, error) {
	o := snap.Meta.Options
	kind := snap.Meta.Analysis.String()
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Root, d.Status = kind, snap.Meta.Root, "complete"
	if snap.Totals.Partial {
		d.Status = "partial"
	}
	nj := &NavJSON{File: shorten(o[optNavFile], maxEchoBytes), Language: o[optNavLang], Groups: map[string]int{}, Labels: map[string]int{},
		Names: shorten(o[optNavSubject], maxEchoBytes)}
	nj.Searched, _ = strconv.Atoi(o[optNavWalked])
	for _, it := range snap.Items() {
		nj.Groups[it.Group]++
		if snap.Meta.Analysis == snapshot.AnalysisImports && it.Group == grpImports {
			nj.Labels[it.Label]++
		}
	}
	if notes := snap.Meta.Lists[optNavNote]; len(notes) > 0 {
		for _, l := range notes {
			nj.Notes = append(nj.Notes, shorten(l, maxEchoBytes))
		}
		if len(nj.Notes) > maxProblems+2 {
			nj.Notes = nj.Notes[:maxProblems+2]
		}
	}
	var b strings.Builder
	switch snap.Meta.Analysis {
	case snapshot.AnalysisImports:
		fmt.Fprintf(&b, "evgrep imports of %s (%s): imports %d (", nj.File, nj.Language, nj.Groups[grpImports])
		var parts []string
		for _, l := range []string{resWorkspace, resStd, resExternal, resUnresolved} {
			if c := nj.Labels[l]; c > 0 {
				parts = append(parts, fmt.Sprintf("%s %d", l, c))
			}
		}
		fmt.Fprintf(&b, "%s), imported by %d (%d files walked), %s\n", strings.Join(parts, ", "), nj.Groups[grpImportedBy], nj.Searched, d.Status)
		b.WriteString("Links follow each language's conventions (Go go.mod and GOROOT layout, Python packages, JS/TS relative and index files, Rust mod and crate:: paths); no build is run.\n")
	default:
		files := 0
		for _, n := range nj.Groups {
			files += n
		}
		fmt.Fprintf(&b, "evgrep tests of %s (%s): %d test files (%d files walked), %s\n", nj.File, nj.Language, files, nj.Searched, d.Status)
		if nj.Names != "" {
			fmt.Fprintf(&b, "Linked by naming conventions and by mentions of its declarations: %s.\n", nj.Names)
		} else {
			b.WriteString("Linked by naming conventions (the file declares nothing to look for).\n")
		}
	}
	for _, n := range nj.Notes {
		fmt.Fprintf(&b, "Note: %s\n", n)
	}
	size := func(it snapshot.Item) int { return 2*len(navRow(999999, it)) + 100 }
	items, next, done := snap.ItemsPage(offset, analysisPageItems, responseBudget/2-analysisReserve-b.Len(), size)
	if full {
		items, next, done = snap.Items(), snap.ItemCount(), true
	}
	if snap.ItemCount() == 0 {
		b.WriteString("Nothing found.\n")
	} else if len(items) > 0 {
		fmt.Fprintf(&b, "Links %d–%d of %d:\n", offset+1, next, snap.ItemCount())
	}
	for i, it := range items {
		b.WriteString(navRow(offset+i+1, it))
		nj.Items = append(nj.Items, navItemJSON(offset+i+1, it))
	}
	d.Page = &PageJSON{Kind: string(snapshot.KindItems), Offset: offset, Count: len(items), Total: snap.ItemCount(), Done: done}
	if !done {
		if env.Store == nil {
			d.Status = "partial"
			fmt.Fprintf(&b, "… %d more links not shown (no snapshot store for a cursor).\n", snap.ItemCount()-next)
		} else if tok, err := env.Store.NewCursor(snap, snapshot.KindItems, next, snapshot.PathSelection{}); err != nil {
			d.Status = "partial"
			fmt.Fprintf(&b, "… %d more links not shown (cursor unavailable: %v).\n", snap.ItemCount()-next, err)
		} else {
			d.Cursor = tok
			addNext(d, Request{Cursor: tok}, fmt.Sprintf("links %d–%d", next+1, snap.ItemCount()))
			writeNext(&b, d)
		}
	}
	d.Navigation = nj
	a.Text = b.String()
	return a, nil
}
