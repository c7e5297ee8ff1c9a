package agent

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/evgrep/evgrep/snapshot"
)

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
