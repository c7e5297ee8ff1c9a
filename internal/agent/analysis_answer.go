package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/syntax"
)

// ImpactJSON is the structured part of an impact answer: the counts of
// every stored item (per role, per file), the page's items, and the parse
// budget.
type ImpactJSON struct {
	Name   string `json:"name"`
	Target string `json:"target"`
	// Binding says what the occurrences are: same spelling, not proven
	// to be the same symbol.
	Binding     string           `json:"binding"`
	Occurrences int              `json:"occurrences"`
	Roles       map[string]int   `json:"roles"`
	Files       []ImpactFileJSON `json:"files,omitempty"`
	FileCount   int              `json:"fileCount"`
	TestFiles   []ImpactFileJSON `json:"testFiles,omitempty"`
	TestCount   int              `json:"testFileCount"`
	ParseBudget int              `json:"parseBudget"`
	Parsed      int              `json:"parsed"`
	OverBudget  int              `json:"overBudget,omitempty"`
	Searched    int              `json:"searched"`
	Items       []ItemJSON       `json:"items,omitempty"`
}

// ImpactFileJSON is one file's count of occurrences, per role.
type ImpactFileJSON struct {
	Path  string         `json:"path"`
	Count int            `json:"count"`
	Roles map[string]int `json:"roles"`
}

// ItemJSON is one stored occurrence.
type ItemJSON struct {
	Index int    `json:"index"` // 1-based, in answer order
	Path  string `json:"path"`
	Line  int    `json:"line"`
	Col   int    `json:"col,omitempty"`
	Start int64  `json:"start"`
	End   int64  `json:"end"`
	Role  string `json:"role"`
	Label string `json:"label,omitempty"`
	Text  string `json:"text"`
}

// bindingNote is what every impact answer says of its occurrences.
const bindingNote = "binding is not proven: these are same-spelling occurrences (same spelling ≠ same symbol)"

// validateAnalysis checks a mode impact request: a cursor alone, path+line
// (the enclosing declaration's name), or symbol (path is then the root).
func (r *Request) validateAnalysis() error {
	if len(r.Terms) > 0 || r.Match != "" {
		return invalid("terms and match do not apply to mode %s", r.Mode)
	}
	if r.Rev != "" || r.ChangedSince != "" {
		return invalid("rev and changedSince do not apply to mode %s (it reads the working tree)", r.Mode)
	}
	if r.Pattern != "" || r.Context != nil || r.Limit != nil || r.MatchIndex != 0 || len(r.MatchIndices) > 0 ||
		len(r.Targets) > 0 || r.Items != "" || r.Budget != "" || r.Literal || r.IgnoreCase != nil {
		return invalid("mode %s takes path, line, symbol, paths, glob, exclude, hidden, parseBudget and cursor only", r.Mode)
	}
	if r.ParseBudget != nil && (*r.ParseBudget < 1 || *r.ParseBudget > maxParseBudget) {
		return invalid("parseBudget %d: expected 1-%d", *r.ParseBudget, maxParseBudget)
	}
	if r.Cursor != "" {
		if r.Symbol != "" || r.Line != 0 || r.Path != "" || len(r.Paths) > 0 {
			return invalid("an impact cursor pages on alone: {\"cursor\":…}")
		}
		return nil
	}
	switch {
	case r.Symbol != "" && r.Line != 0:
		return invalid("impact takes symbol or path+line, not both")
	case r.Symbol == "" && (r.Line < 1 || r.Path == ""):
		return invalid("impact needs path (a file) and line (1-based), or symbol")
	}
	return nil
}

// analysisRequest answers a new mode impact request; root is the
// normalized path (a file with line, else the folder searched).
func analysisRequest(req *Request, env Env, root string) (*Answer, error) {
	sc := scopeOf(req, env, root, nil)
	spec := ImpactSpec{Hidden: req.hidden(), Glob: req.Glob, Exclude: req.Exclude, Walk: sc.Walk, Input: sc.Input, Env: env, Symbol: req.Symbol}
	if req.ParseBudget != nil {
		spec.ParseBudget = *req.ParseBudget
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, &Error{Code: CodePathMissing, Msg: shorten(req.Path, maxEchoBytes) + ": no such file or directory"}
	}
	if req.Symbol == "" {
		if fi.IsDir() {
			return nil, invalid("impact by line needs path to name a file")
		}
		spec.File, spec.Line = root, req.Line
		cwd := env.Cwd
		if cwd == "" {
			cwd, _ = os.Getwd()
		}
		if c, err := snapshot.NormalizeRoot(cwd); err == nil {
			cwd = c
		}
		spec.Root = workspaceOf(root, cwd)
	} else {
		if !fi.IsDir() {
			return nil, invalid("impact by symbol takes path as the folder to search, not a file")
		}
		spec.Root = root
	}
	subs, err := subPaths(spec.Root, req.Paths)
	if err != nil {
		return nil, err
	}
	spec.Subs = subs
	res, err := RunImpact(spec)
	if err != nil {
		return nil, err
	}
	a, err := impactPage(env, res.Snap, 0, req.full)
	if a != nil {
		a.Details.Problems = append(a.Details.Problems, res.Problems...)
	}
	return a, err
}

// continueAnalysis answers an items cursor.
func continueAnalysis(req *Request, env Env, snap *snapshot.Snapshot, cur snapshot.Cursor) (*Answer, error) {
	switch snap.Meta.Analysis {
	case snapshot.AnalysisImpact:
		if req.Pattern != "" || req.Path != "" || len(req.Paths) > 0 || (req.Mode != "" && req.Mode != ModeImpact) {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "an impact cursor only pages the impact: {\"cursor\":…} alone"}
		}
		return impactPage(env, snap, cur.Offset, false)
	case snapshot.AnalysisImports, snapshot.AnalysisTests:
		if req.Pattern != "" || req.Path != "" || len(req.Paths) > 0 || (req.Mode != "" && req.Mode != snap.Meta.Analysis.String()) {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "a navigation cursor only pages its answer: {\"cursor\":…} alone"}
		}
		return navPage(env, snap, cur.Offset, false)
	}
	return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "this cursor pages an analysis this request cannot continue"}
}

// splitItemText splits an item's Text into its column and excerpt.
func splitItemText(t string) (int, string) {
	if i := strings.IndexByte(t, '\t'); i > 0 {
		if c, err := strconv.Atoi(t[:i]); err == nil {
			return c, t[i+1:]
		}
	}
	return 0, t
}

// syntaxRole is the syntax role at the start of an item's Label.
func syntaxRole(label string) string {
	if i := strings.Index(label, ": "); i >= 0 {
		return label[:i]
	}
	return label
}

// itemRow is the text row of item number n.
func itemRow(n int, it snapshot.Item) string {
	col, text := splitItemText(it.Text)
	role := it.Group
	if it.Group == string(syntax.RoleTest) {
		role = "test/" + syntaxRole(it.Label)
	}
	return fmt.Sprintf("#%d %s:%d:%d  %s  %s\n", n, shorten(it.Path, maxEchoBytes), it.Line, col, role, text)
}

// itemJSON is the details form of item number n.
func itemJSON(n int, it snapshot.Item) ItemJSON {
	col, text := splitItemText(it.Text)
	return ItemJSON{Index: n, Path: shorten(it.Path, maxEchoBytes), Line: it.Line, Col: col, Start: it.Start, End: it.End, Role: it.Group, Label: it.Label, Text: text}
}

// itemSize is what one item costs a page: the larger of its text row and
// its JSON form, so that both stay within the bound.
func itemSize(it snapshot.Item) int {
	row := len(itemRow(999999, it))
	b, _ := json.Marshal(itemJSON(999999, it))
	return max(row, len(b)) + 8
}

// impactCounts derives the per-role and per-file counts from the items.
func impactCounts(snap *snapshot.Snapshot) (roles map[string]int, files, tests []ImpactFileJSON) {
	roles = map[string]int{}
	byPath := map[string]*ImpactFileJSON{}
	var order []string
	for _, it := range snap.Items() {
		roles[it.Group]++
		f := byPath[it.Path]
		if f == nil {
			f = &ImpactFileJSON{Path: it.Path, Roles: map[string]int{}}
			byPath[it.Path] = f
			order = append(order, it.Path)
		}
		f.Count++
		r := it.Group
		if r == string(syntax.RoleTest) {
			r = syntaxRole(it.Label)
		}
		f.Roles[r]++
	}
	for _, p := range order {
		f := *byPath[p]
		if syntax.IsTestFile(p) || f.Roles[string(syntax.RoleTest)] > 0 || allTest(snap, p) {
			tests = append(tests, f)
		} else {
			files = append(files, f)
		}
	}
	rank := func(l []ImpactFileJSON) {
		sort.SliceStable(l, func(i, j int) bool { return l[i].Count > l[j].Count })
	}
	rank(files)
	rank(tests)
	return roles, files, tests
}

// allTest reports whether every item of path is in test code (a Rust
// #[cfg(test)] module) — such a file is listed among the test files.
func allTest(snap *snapshot.Snapshot, path string) bool {
	n := 0
	for _, it := range snap.Items() {
		if it.Path == path {
			if it.Group != string(syntax.RoleTest) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// roleList renders counts in the fixed order of syntax.Roles.
func roleList(m map[string]int) string {
	var parts []string
	for _, r := range syntax.Roles() {
		if n := m[string(r)]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", r, n))
		}
	}
	return strings.Join(parts, ", ")
}

// fileList renders files with their counts, at most analysisListed.
func fileList(b *strings.Builder, label string, files []ImpactFileJSON) []ImpactFileJSON {
	if len(files) == 0 {
		return nil
	}
	shown := files[:min(len(files), analysisListed)]
	fmt.Fprintf(b, "%s (%d):", label, len(files))
	for i, f := range shown {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(b, "%s %s %d (%s)", sep, shorten(f.Path, listedPathBytes), f.Count, roleList(f.Roles))
	}
	if len(files) > len(shown) {
		fmt.Fprintf(b, ", … %d more", len(files)-len(shown))
	}
	b.WriteByte('\n')
	out := make([]ImpactFileJSON, len(shown))
	for i, f := range shown {
		f.Path = shorten(f.Path, listedPathBytes)
		out[i] = f
	}
	return out
}

// HandleFull answers an analysis request (mode impact) with every item at
// once, unbounded and without a cursor: the CLI's forms (--impact and the
// like) print it whole. Other modes are refused.
func HandleFull(ctx context.Context, req *Request, env Env) *Answer {
	if (req.Mode != ModeImpact && req.Mode != ModeImports && req.Mode != ModeTests) || req.Cursor != "" {
		return errorAnswer(invalid("HandleFull answers a new mode impact, imports or tests request only"))
	}
	if err := req.Validate(); err != nil {
		return errorAnswer(err)
	}
	req.full = true
	env.ctx = ctx
	a, err := handle(req, env)
	if err != nil {
		return errorAnswer(err)
	}
	return a
}

// impactPage renders the items of an impact snapshot from offset on (all
// of them, with no bound and no cursor, when full).
func impactPage(env Env, snap *snapshot.Snapshot, offset int, full bool) (*Answer, error) {
	o := snap.Meta.Options
	atoi := func(k string) int { n, _ := strconv.Atoi(o[k]); return n }
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Root, d.Status = ModeImpact, snap.Meta.Root, "complete"
	if snap.Totals.Partial {
		d.Status = "partial"
	}
	roles, files, tests := impactCounts(snap)
	ij := &ImpactJSON{
		Name: o[optImpName], Target: shorten(o[optImpTarget], maxEchoBytes), Binding: bindingNote,
		Occurrences: snap.ItemCount(), Roles: roles, FileCount: len(files), TestCount: len(tests),
		ParseBudget: atoi(optImpBudget), Parsed: atoi(optImpParsed), OverBudget: atoi(optImpOverBudget),
		Searched: atoi(optImpSearched),
	}
	var b strings.Builder
	fmt.Fprintf(&b, "evgrep impact of %q (%s): %d occurrences in %d files (%d searched), %s\n",
		ij.Name, ij.Target, ij.Occurrences, len(files)+len(tests), ij.Searched, d.Status)
	if snap.Totals.Partial {
		fmt.Fprintf(&b, "Only the first %d of %d occurrences are kept (bound of one analysis); the counts are of those kept. Narrow with paths or glob.\n",
			snap.Totals.Retained, snap.Totals.Lines)
	}
	fmt.Fprintf(&b, "Note: %s.\n", bindingNote)
	if len(roles) > 0 {
		fmt.Fprintf(&b, "Roles: %s\n", roleList(roles))
	}
	if ij.OverBudget > 0 {
		fmt.Fprintf(&b, "Parse budget: %d files parsed; %d more files with occurrences were not parsed and keep them unclassified (raise parseBudget, up to %d, or narrow with paths).\n",
			ij.Parsed, ij.OverBudget, maxParseBudget)
	}
	ij.Files = fileList(&b, "Files", files)
	var tail strings.Builder
	ij.TestFiles = fileList(&tail, fmt.Sprintf("Test files mentioning %q", ij.Name), tests)
	budget := responseBudget - analysisReserve - b.Len() - tail.Len()
	items, next, done := snap.ItemsPage(offset, analysisPageItems, budget, itemSize)
	if full {
		items, next, done = snap.Items(), snap.ItemCount(), true
	}
	if snap.ItemCount() == 0 {
		b.WriteString("No occurrences.\n")
	} else if len(items) == 0 {
		b.WriteString("No occurrences on this page.\n")
	} else {
		fmt.Fprintf(&b, "Occurrences %d–%d of %d (source files first, then test files):\n", offset+1, next, snap.ItemCount())
	}
	for i, it := range items {
		b.WriteString(itemRow(offset+i+1, it))
		ij.Items = append(ij.Items, itemJSON(offset+i+1, it))
	}
	b.WriteString(tail.String())
	d.Page = &PageJSON{Kind: string(snapshot.KindItems), Offset: offset, Count: len(items), Total: snap.ItemCount(), Done: done}
	if !done {
		if env.Store == nil {
			d.Status = "partial"
			fmt.Fprintf(&b, "… %d more occurrences not shown (no snapshot store for a cursor).\n", snap.ItemCount()-next)
		} else if tok, err := env.Store.NewCursor(snap, snapshot.KindItems, next, snapshot.PathSelection{}); err != nil {
			d.Status = "partial"
			fmt.Fprintf(&b, "… %d more occurrences not shown (cursor unavailable: %v).\n", snap.ItemCount()-next, err)
		} else {
			d.Cursor = tok
			addNext(d, Request{Cursor: tok}, fmt.Sprintf("occurrences %d–%d", next+1, snap.ItemCount()))
			writeNext(&b, d)
		}
	}
	d.Impact = ij
	a.Text = b.String()
	return a, nil
}
