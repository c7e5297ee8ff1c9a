package agent

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
)

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
		fmt.Fprintf(b, "Unverified (%s; their lines may not be the files' content now): %s\n", unverifiedReason, namedOf(names, n))
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
		id, err := revisions.StatIdentity(filepath.Join(snap.Meta.Root, filepath.FromSlash(pathOf(f.Path))))
		if err == nil && id == f.Revision.Identity {
			continue
		}
		d.ChangedFiles = append(d.ChangedFiles, f.Path)
		if len(names) < maxUnverifiedNamed {
			names = append(names, shorten(f.Path, maxEchoBytes))
		}
	}
	if n := len(d.ChangedFiles); n > 0 {
		fmt.Fprintf(b, "Changed since the search (lines and numbers shown are the search's; search again for the files as they are): %s\n", namedOf(names, n))
	}
}

// namedOf lists the names shown of n files: "a, b and 3 more".
func namedOf(names []string, n int) string {
	list := strings.Join(names, ", ")
	if n > len(names) {
		list += fmt.Sprintf(" and %d more", n-len(names))
	}
	return list
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
