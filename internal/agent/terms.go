package agent

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/internal/terms"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
)

// opTerms is the mode name of a multi-term answer.
const opTerms = "terms"

// The snapshot numbers of a multi-term search: the exact counts of the
// scan (the stored items may be fewer), per term and in all.
const (
	numTermFolds = "terms.folds" // 1: the term was searched ignoring case
	numTermLines = "terms.lines"
	numTermOccs  = "terms.occurrences"
	numTermFiles = "terms.files"
	numTermsScan = "terms.scan" // files kept, files searched
)

// The bounds of a request's terms (internal/terms), for the MCP schema.
const (
	MinTerms = terms.MinTerms
	MaxTerms = terms.MaxTerms
)

// MatchValues lists the values of Request.Match.
func MatchValues() []string {
	return []string{string(terms.MatchAny), string(terms.MatchAll), string(terms.MatchNone)}
}

// TermsJSON is the multi-term part of an answer's details.
type TermsJSON struct {
	// Match is the file rule: any, all or none.
	Match string `json:"match"`
	// Terms are each term's counts derived from the stored items (on the
	// first page of an answer).
	Terms []TermCountJSON `json:"terms,omitempty"`
	// Found are the exact counts of the scan when the stored items are
	// fewer (a partial snapshot).
	Found []TermCountJSON `json:"found,omitempty"`
	// FilesKept is how many files the rule kept, FilesSearched how many
	// were searched.
	FilesKept     int `json:"filesKept"`
	FilesSearched int `json:"filesSearched"`
	// Files are the first kept files by stored occurrences (first page),
	// FilesOmitted the kept files not listed.
	Files        []FileJSON `json:"files,omitempty"`
	FilesOmitted int        `json:"filesOmitted,omitempty"`
	// Items are this page's occurrences (or, for match none, files).
	Items []TermItemJSON `json:"items,omitempty"`
}

// TermCountJSON is one term's counts.
type TermCountJSON struct {
	Term        string `json:"term"`
	IgnoreCase  bool   `json:"ignoreCase,omitempty"`
	Lines       int64  `json:"lines"`
	Occurrences int64  `json:"occurrences"`
	Files       int64  `json:"files"`
}

// TermItemJSON is one stored item: an occurrence of a term (path, line,
// 1-based byte column, byte offsets in the file, an excerpt of its line),
// or a kept file of match none (path only).
type TermItemJSON struct {
	Item   int    `json:"item"`
	Term   string `json:"term,omitempty"`
	Path   string `json:"path"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Start  int64  `json:"start,omitempty"`
	End    int64  `json:"end,omitempty"`
	Text   string `json:"text,omitempty"`
}

// termsScanJSON is what the snapshot keeps of the scan (optTermsScan).
type termsScanJSON struct {
	Terms    []string        `json:"terms"`
	Folds    []bool          `json:"folds"`
	Found    []TermCountJSON `json:"found"`
	Kept     int64           `json:"kept"`
	Searched int64           `json:"searched"`
}

// validateTerms checks a multi-term request: terms with the fields that
// shape a search (path, paths, glob, exclude, ignoreCase, hidden) only.
func (r *Request) validateTerms() error {
	if len(r.Terms) == 0 {
		return invalid("match applies to a multi-term search (terms)")
	}
	if r.Pattern != "" || r.Literal {
		return invalid("terms replaces pattern: send one of them (terms are literals)")
	}
	if r.Cursor != "" {
		return invalid("a cursor continues its own terms: send {\"cursor\":…} alone")
	}
	if r.Rev != "" || r.ChangedSince != "" {
		return invalid("terms searches the working tree: rev and changedSince do not apply to it")
	}
	if r.Mode != "" && r.Mode != ModeAuto {
		return invalid("terms has its own answer: mode does not apply")
	}
	if r.Line != 0 || r.MatchIndex != 0 || len(r.MatchIndices) > 0 || len(r.Targets) > 0 ||
		r.Limit != nil || r.Context != nil || r.Items != "" || r.Budget != "" {
		return invalid("terms takes path, paths, glob, exclude, ignoreCase, hidden and match only (pages hold %d items)", termsPageItems)
	}
	if err := terms.Validate(r.Terms); err != nil {
		return invalid("%v", err)
	}
	if _, err := terms.ParseMatch(r.Match); err != nil {
		return invalid("%v", err)
	}
	return nil
}

// termsMeta is the snapshot metadata of a multi-term search under root
// and what its scan counted.
func (r *Request) termsMeta(root string, m terms.Match, scan termsScanJSON) snapshot.Meta {
	lists := r.scopeLists()
	lists["terms"] = slices.Clone(r.Terms)
	n := map[string][]int64{numTermsScan: {scan.Kept, scan.Searched}}
	for i, f := range scan.Found {
		fold := int64(0)
		if scan.Folds[i] {
			fold = 1
		}
		n[numTermFolds] = append(n[numTermFolds], fold)
		n[numTermLines] = append(n[numTermLines], f.Lines)
		n[numTermOccs] = append(n[numTermOccs], f.Occurrences)
		n[numTermFiles] = append(n[numTermFiles], f.Files)
	}
	return snapshot.Meta{Root: root, Analysis: snapshot.AnalysisTerms, Options: map[string]string{
		"match":      string(m),
		"ignoreCase": r.caseOption(),
		"hidden":     fmt.Sprint(r.hidden()),
	}, Lists: lists, Numbers: n, Created: time.Now()}
}

// termsScanOf reads back what termsMeta stored of the scan; false when
// the snapshot is not a whole multi-term search.
func termsScanOf(m snapshot.Meta) (termsScanJSON, bool) {
	var scan termsScanJSON
	if m.Analysis != snapshot.AnalysisTerms {
		return scan, false
	}
	scan.Terms = m.Lists["terms"]
	n := m.Numbers
	folds, lines, occs, files, sc := n[numTermFolds], n[numTermLines], n[numTermOccs], n[numTermFiles], n[numTermsScan]
	k := len(scan.Terms)
	if len(sc) != 2 || len(folds) != k || len(lines) != k || len(occs) != k || len(files) != k {
		return scan, false
	}
	scan.Kept, scan.Searched = sc[0], sc[1]
	for i, t := range scan.Terms {
		scan.Folds = append(scan.Folds, folds[i] == 1)
		scan.Found = append(scan.Found, TermCountJSON{Term: t, IgnoreCase: folds[i] == 1, Lines: lines[i], Occurrences: occs[i], Files: files[i]})
	}
	return scan, true
}

// termsRequest runs a multi-term search (one pass of the pipeline) and
// answers its first page.
func termsRequest(req *Request, env Env, root string) (*Answer, error) {
	req, root, subs, err := requestPaths(req, root)
	if err != nil {
		return nil, err
	}
	match, _ := terms.ParseMatch(req.Match)
	snap, problems, err := runTerms(req, env, root, subs, match)
	if err != nil {
		return nil, err
	}
	a := &Answer{}
	a.Details.Root, a.Details.Paths, a.Details.Problems = root, subs, problems
	return a, renderTerms(a, env, snap, 0, true)
}

// runTerms searches the files once with the terms' line finder, counts
// every term in every line it finds, and stores the first MaxItems items
// in the order term, path, byte (match none: the kept files by path).
func runTerms(req *Request, env Env, root string, subPaths []string, match terms.Match) (*snapshot.Snapshot, []string, error) {
	ts, err := terms.Compile(req.Terms, req.caseMode())
	if err != nil {
		return nil, nil, &Error{Code: CodePattern, Msg: err.Error()}
	}
	sc := scopeOf(req, env, root, subPaths)
	opts, roots := sc.Pipeline(), sc.Roots()
	var mu sync.Mutex
	var problems []string
	note := func(msg string) {
		mu.Lock()
		if len(problems) < maxProblems {
			problems = append(problems, msg)
		}
		mu.Unlock()
	}
	opts.Walk.OnError = func(err error) { note(err.Error()) }
	keep := &termsKeep{totals: terms.NewTotals(ts.Len()), limit: snapshot.MaxItems + 1}
	b := snapshot.NewItemsBuilder()
	w := &walkState{env: env}
	err = pipeline.Run(roots, opts, ts.Lines(), func() pipeline.Sink {
		return &termsCollector{ts: ts, scan: terms.NewFileScan(ts), match: match, sinkFile: sinkFile{root: root, note: note, walk: w}, keep: keep, b: b}
	})
	env.walked()
	if err != nil {
		return nil, nil, invalid("%v", err)
	}
	if w.cancelled.Load() {
		return nil, nil, &Error{Code: CodeCancelled, Msg: fmt.Sprintf("the search was cancelled after %d files", w.seen.Load())}
	}
	keep.trim()
	for _, it := range keep.items {
		si := snapshot.Item{Path: it.path, Line: it.line, EndLine: it.line, Start: it.start, End: it.end, Text: it.text}
		if it.term >= 0 {
			si.Group, si.Label = req.Terms[it.term], strconv.Itoa(it.term)+":"+strconv.Itoa(it.col)
		} else {
			si.Start, si.End = -1, -1
		}
		if !b.Add(si) {
			break
		}
	}
	scan := termsScanJSON{Terms: req.Terms, Kept: keep.totals.Kept, Searched: keep.totals.Searched}
	for i, c := range keep.totals.Terms {
		scan.Folds = append(scan.Folds, ts.Folds(i))
		scan.Found = append(scan.Found, TermCountJSON{Term: req.Terms[i], IgnoreCase: ts.Folds(i), Lines: c.Lines, Occurrences: c.Occurrences, Files: c.Files})
	}
	return b.Build(req.termsMeta(root, match, scan)), withNote(problems, w.skips.note()), nil
}

// termItem is one item before it is stored; term -1 is a kept file of
// match none.
type termItem struct {
	term       int
	path       string
	line, col  int // col: the 1-based byte column in the line
	start, end int64
	text       string
}

// termItemLess orders items by term, then path, then byte.
func termItemCmp(a, b termItem) int {
	return cmp.Or(cmp.Compare(a.term, b.term), strings.Compare(a.path, b.path), cmp.Compare(a.start, b.start))
}

// termsKeep keeps the first limit items of the whole search in item order
// (sorting and cutting whenever twice as many wait), and the exact totals.
type termsKeep struct {
	mu     sync.Mutex
	totals *terms.Totals
	items  []termItem
	limit  int
	// cut is the last item kept after a cut (items after it can be
	// dropped at once); valid when cutSet.
	cut    termItem
	cutSet bool
}

// add takes one file's items and its scan.
func (k *termsKeep) add(scan *terms.FileScan, kept bool, items []termItem) (termItem, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.totals.Add(scan, kept)
	k.items = append(k.items, items...)
	if len(k.items) >= 2*k.limit {
		k.trimLocked()
	}
	return k.cut, k.cutSet
}

func (k *termsKeep) trim() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.trimLocked()
}

func (k *termsKeep) trimLocked() {
	slices.SortFunc(k.items, termItemCmp)
	if len(k.items) > k.limit {
		k.items = slices.Clip(k.items[:k.limit])
		k.cut, k.cutSet = k.items[len(k.items)-1], true
	}
}

// termsCollector is the pipeline sink of a multi-term search: the agent's
// path policy and revision tracking (as collector), the terms' counts of
// the file, and its items, handed to termsKeep when the file is done.
type termsCollector struct {
	sinkFile
	ts     *matcher.TermSet
	scan   *terms.FileScan
	match  terms.Match
	keep   *termsKeep
	b      *snapshot.ItemsBuilder
	items  []termItem
	cut    termItem
	cutSet bool
	line   string // the current line's text, for excerpts of short lines
}

// Begin implements pipeline.Sink (as sinkFile.Begin).
func (c *termsCollector) Begin(e walker.Entry) (bool, bool) {
	if search, more := c.sinkFile.Begin(e); !search {
		return false, more
	}
	c.scan.Reset()
	c.items = c.items[:0]
	return true, true
}

// End implements pipeline.Sink.
func (c *termsCollector) End(e walker.Entry, err error) bool {
	if !c.endFile(c.b.AddFile, err) {
		return true
	}
	kept := c.scan.Keeps(c.match)
	var items []termItem
	switch {
	case kept && c.match == terms.MatchNone:
		items = []termItem{{term: -1, path: c.path, start: -1, end: -1}}
	case kept:
		items = c.items
	}
	c.cut, c.cutSet = c.keep.add(c.scan, kept, items)
	return true
}

// Matched implements search.Sink.
func (c *termsCollector) Matched(s *search.Searcher, m *search.Match) (bool, error) {
	text := m.Bytes
	if n := len(text); n > 0 && text[n-1] == '\n' {
		text = text[:n-1]
		if n > 1 && text[n-2] == '\r' {
			text = text[:n-2]
		}
	}
	if c.match == terms.MatchNone {
		c.scan.Line(text, nil)
		return c.scan.Found() == 0, nil
	}
	c.line = ""
	c.scan.Line(text, func(r matcher.TermRange) {
		it := termItem{term: r.Term, path: c.path, line: int(m.LineNumber), col: r.Start + 1, start: m.AbsOffset + int64(r.Start), end: m.AbsOffset + int64(r.End)}
		if c.cutSet && termItemCmp(it, c.cut) > 0 {
			return // after the last item the search can keep
		}
		if len(c.items) >= 2*c.keep.limit {
			slices.SortFunc(c.items, termItemCmp)
			c.items = c.items[:c.keep.limit]
			c.cut, c.cutSet = c.items[len(c.items)-1], true
			if termItemCmp(it, c.cut) > 0 {
				return
			}
		}
		it.text = c.excerpt(text, r)
		c.items = append(c.items, it)
	})
	return true, nil
}

// excerpt is the text an item keeps: its whole line when short (one
// string for every item of the line), else a window around the occurrence.
func (c *termsCollector) excerpt(line []byte, r matcher.TermRange) string {
	if len(line) <= termsExcerptBytes {
		if c.line == "" {
			c.line = strings.ToValidUTF8(string(line), "\uFFFD")
		}
		return c.line
	}
	lo := max(0, r.Start-termsExcerptBytes/3)
	hi := min(len(line), lo+termsExcerptBytes)
	for lo > 0 && !utf8.RuneStart(line[lo]) {
		lo--
	}
	for hi < len(line) && !utf8.RuneStart(line[hi]) {
		hi--
	}
	s := strings.ToValidUTF8(string(line[lo:hi]), "\uFFFD")
	if lo > 0 {
		s = "…" + s
	}
	if hi < len(line) {
		s += "…"
	}
	return s
}

// continueTerms answers a cursor of a multi-term answer: its next page of
// items, from the snapshot.
func continueTerms(req *Request, env Env, snap *snapshot.Snapshot, cur snapshot.Cursor) (*Answer, error) {
	if req.Mode != "" || req.Path != "" || len(req.Paths) > 0 || req.Pattern != "" || len(req.Terms) > 0 ||
		req.Match != "" || req.Limit != nil || req.Context != nil || len(req.Glob) > 0 || len(req.Exclude) > 0 ||
		req.IgnoreCase != nil || req.Hidden != nil || req.Literal {
		return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "a terms cursor only continues its items: {\"cursor\":…} alone"}
	}
	a := &Answer{}
	a.Details.Root = snap.Meta.Root
	if p := snap.Meta.Lists["paths"]; len(p) > 0 {
		a.Details.Paths = p
	}
	return a, renderTerms(a, env, snap, cur.Offset, false)
}

// termsCounts derives each term's counts from the stored items.
func termsCounts(snap *snapshot.Snapshot, scan termsScanJSON) []TermCountJSON {
	out := make([]TermCountJSON, len(scan.Terms))
	type lineKey struct {
		path string
		line int
	}
	lastLine := make([]lineKey, len(scan.Terms))
	lastFile := make([]string, len(scan.Terms))
	for i, t := range scan.Terms {
		out[i].Term = t
		if i < len(scan.Folds) {
			out[i].IgnoreCase = scan.Folds[i]
		}
	}
	// Items come by term, then path, then byte: a new line or file of a
	// term is one that differs from the term's previous item.
	for _, it := range snap.Items() {
		i, _, ok := itemLabel(it.Label)
		if !ok || i >= len(out) {
			continue
		}
		c := &out[i]
		c.Occurrences++
		if k := (lineKey{it.Path, it.Line}); c.Lines == 0 || lastLine[i] != k {
			c.Lines++
			lastLine[i] = k
		}
		if c.Files == 0 || lastFile[i] != it.Path {
			c.Files++
			lastFile[i] = it.Path
		}
	}
	return out
}

// renderTerms writes one page of a multi-term answer: the status line,
// on the first page each term's counts and the first kept files, then the
// page's items and the cursor of the next. Text and details each stay
// within the response bound.
func renderTerms(a *Answer, env Env, snap *snapshot.Snapshot, offset int, first bool) error {
	scan, ok := termsScanOf(snap.Meta)
	if !ok {
		return &snapshot.Error{Code: snapshot.CodeMalformed, Msg: "the snapshot is not a multi-term search"}
	}
	match := snap.Meta.Options["match"]
	d := &a.Details
	d.Mode, d.Status = opTerms, status(snap.Totals)
	tj := &TermsJSON{Match: match, FilesKept: int(scan.Kept), FilesSearched: int(scan.Searched)}
	d.Terms = tj
	var b strings.Builder
	state := "complete"
	if snap.Totals.Partial {
		state = fmt.Sprintf("partial: the first %d items (by term, path, byte) are stored, the counts found are exact", snap.ItemCount())
	}
	var found int64
	for _, c := range scan.Found {
		found += c.Occurrences
	}
	what := fmt.Sprintf("%d occurrences of %d terms", found, len(scan.Terms))
	if match == string(terms.MatchNone) {
		what = fmt.Sprintf("files holding none of %d terms", len(scan.Terms))
	}
	fmt.Fprintf(&b, "evgrep terms (match %s): %s in %d of %d files searched under %s — %s\n",
		match, what, scan.Kept, scan.Searched, shorten(snap.Meta.Root, maxEchoBytes), state)
	writeRetry(&b, d)
	if first && match != string(terms.MatchNone) {
		tj.Terms = termsCounts(snap, scan)
		if snap.Totals.Partial {
			tj.Found = append([]TermCountJSON(nil), scan.Found...)
		}
		// Up to 64 terms of 256 bytes each: each is echoed within its
		// share of the list's bound, so that text and details both fit.
		echo := max(termEchoMin, termsListBytes/max(1, len(tj.Terms))-termRowBytes)
		for i := range tj.Terms {
			tj.Terms[i].Term = shortenJSON(tj.Terms[i].Term, echo)
		}
		for i := range tj.Found {
			tj.Found[i].Term = shortenJSON(tj.Found[i].Term, echo)
		}
		b.WriteString("Per term (from the stored items; lines, occurrences, files):\n")
		for i, c := range tj.Terms {
			note := ""
			if c.IgnoreCase {
				note = " (case ignored)"
			}
			fmt.Fprintf(&b, "  %d %s%s: %d, %d, %d", i+1, quotePattern(c.Term), note, c.Lines, c.Occurrences, c.Files)
			if snap.Totals.Partial {
				f := scan.Found[i]
				fmt.Fprintf(&b, " (found %d, %d, %d)", f.Lines, f.Occurrences, f.Files)
			}
			b.WriteByte('\n')
		}
		files := snap.Files()
		shown := files[:min(len(files), termsFilesShown)]
		if len(shown) > 0 {
			b.WriteString("Files by stored occurrences:")
			for _, f := range shown {
				fmt.Fprintf(&b, " %s (%d)", shorten(f.Path, maxEchoBytes), f.Lines)
				tj.Files = append(tj.Files, FileJSON{Path: shorten(f.Path, maxEchoBytes), Lines: f.Lines, Occurrences: f.Occurrences, Unverified: !f.Revision.Verified})
			}
			if rest := len(files) - len(shown); rest > 0 {
				fmt.Fprintf(&b, " … %d more", rest)
				tj.FilesOmitted = rest
			}
			b.WriteByte('\n')
		}
	}
	// What is left of each bound for the items, after the fixed parts and
	// a reserve for the cursor and the next call.
	fixed, _ := json.Marshal(d)
	budget := min(responseBudget-b.Len(), responseBudget-len(fixed)) - termsPageReserve
	rows := map[int]string{}
	jsons := map[int]TermItemJSON{}
	n := offset
	size := func(it snapshot.Item) int {
		n++
		row, ij := termRow(n, it)
		rows[n], jsons[n] = row, ij
		j, _ := json.Marshal(ij)
		return max(len(row), len(j)+1)
	}
	items, next, done := snap.ItemsPage(offset, termsPageItems, budget, size)
	total := snap.ItemCount()
	switch {
	case len(items) == 0:
		b.WriteString("No items.\n")
	case match == string(terms.MatchNone):
		fmt.Fprintf(&b, "Files %d–%d of %d:\n", offset+1, offset+len(items), total)
	default:
		fmt.Fprintf(&b, "Occurrences %d–%d of %d stored (by term, then path, then byte; path:line:column):\n", offset+1, offset+len(items), total)
	}
	for i := range items {
		k := offset + i + 1
		b.WriteString(rows[k])
		tj.Items = append(tj.Items, jsons[k])
	}
	d.Page = &PageJSON{Kind: string(snapshot.KindItems), Offset: offset, Count: len(items), Total: total, Done: done}
	if !done {
		if env.Store == nil {
			b.WriteString("Cursor unavailable (no snapshot store).\n")
		} else if tok, err := env.Store.NewCursor(snap, snapshot.KindItems, next, snapshot.PathSelection{}); err == nil {
			d.Cursor = tok
			addNext(d, Request{Cursor: tok}, fmt.Sprintf("items %d–%d of %d", next+1, min(total, next+termsPageItems), total))
		} else {
			fmt.Fprintf(&b, "Cursor unavailable (%v).\n", err)
			d.Problems = append(d.Problems, "cursor unavailable: "+err.Error())
		}
	}
	writeNext(&b, d)
	a.Text = b.String()
	return nil
}

// termRow renders item number n as a text row and as JSON.
func termRow(n int, it snapshot.Item) (string, TermItemJSON) {
	path := shorten(it.Path, maxEchoBytes)
	ij := TermItemJSON{Item: n, Path: path}
	if it.Group == "" && it.Start < 0 {
		return fmt.Sprintf("  %s\n", path), ij
	}
	ij.Term, ij.Line, ij.Start, ij.End, ij.Text = it.Group, it.Line, it.Start, it.End, it.Text
	_, ij.Column, _ = itemLabel(it.Label)
	return fmt.Sprintf("  #%d %s %s:%d:%d  %s\n", n, quotePattern(it.Group), path, it.Line, ij.Column, it.Text), ij
}

// itemLabel parses an item's label, "term:column" (the term's index and
// the 1-based byte column of the occurrence).
func itemLabel(l string) (term, col int, ok bool) {
	a, b, found := strings.Cut(l, ":")
	t, err1 := strconv.Atoi(a)
	c, err2 := strconv.Atoi(b)
	if !found || err1 != nil || err2 != nil || t < 0 {
		return 0, 0, false
	}
	return t, c, true
}
