package agent

import (
	"fmt"
	"path/filepath"
	"strings"
)

// completeNext is the answer layer's last word on next calls, the same for
// every mode: every continuation cursor an answer holds (its page cursor,
// an inspected range's source cursors) is a suggested call, and an answer
// with results that suggests nothing suggests the natural next step (the
// code around the first items of an impact or a navigation, the impact of
// an inspected declaration, the code of an outlined one). The calls it
// adds are exact requests that execute, and are written to the text too.
func completeNext(a *Answer) {
	d := &a.Details
	before := len(d.Next)
	has := func(cursor string) bool {
		for _, n := range d.Next {
			if n.Request.Cursor == cursor {
				return true
			}
		}
		return false
	}
	if c := d.Cursor; c != "" && !has(c) {
		addNext(d, Request{Cursor: c}, "the next page")
	}
	for _, t := range d.Targets {
		if c := t.SourceCursorBefore; c != "" && !has(c) {
			addNext(d, Request{Cursor: c}, fmt.Sprintf("the lines before those shown of %s", t.Path))
		}
		if c := t.SourceCursor; c != "" && !has(c) {
			addNext(d, Request{Cursor: c}, fmt.Sprintf("the lines after those shown of %s", t.Path))
		}
	}
	if len(d.Next) == 0 {
		naturalNext(d)
	}
	if added := d.Next[before:]; len(added) > 0 {
		var b strings.Builder
		if before == 0 {
			b.WriteString("Next calls (exact requests):\n")
		}
		for _, n := range added {
			fmt.Fprintf(&b, "  %s  — %s\n", requestJSON(n.Request), n.Why)
		}
		a.Text += b.String()
	}
}

// writeProblems writes to the text each problem of the details it does
// not hold yet (files not read, cursors unavailable), so that the model
// reads what the details say.
func writeProblems(a *Answer) {
	var b strings.Builder
	for _, p := range a.Details.Problems {
		if !strings.Contains(a.Text, p) {
			fmt.Fprintf(&b, "Problem: %s\n", shorten(p, maxEchoBytes))
		}
	}
	a.Text += b.String()
}

// naturalNext suggests the next step after a complete answer with results.
func naturalNext(d *Details) {
	// abs is the agent name of the full path of a name the details show.
	abs := func(name string) (string, bool) {
		p := pathOf(name)
		if !filepath.IsAbs(p) {
			p = filepath.Join(d.Root, filepath.FromSlash(p))
		}
		p = nameOf(p)
		return p, d.Root != "" && jsonCost(p)-2 <= maxEchoBytes
	}
	switch {
	case d.Impact != nil && len(d.Impact.Items) > 0:
		var ts []Target
		for _, it := range d.Impact.Items {
			if p, ok := abs(it.Path); ok && len(ts) < nextInspect {
				ts = append(ts, Target{Path: p, Line: it.Line})
			}
		}
		if len(ts) > 0 {
			addNext(d, Request{Mode: ModeInspect, Targets: ts}, "the code around the first occurrences")
		}
	case d.Navigation != nil && len(d.Navigation.Items) > 0:
		var ts []Target
		for _, it := range d.Navigation.Items {
			if it.Line < 1 {
				continue
			}
			if p, ok := abs(it.Path); ok && len(ts) < nextInspect {
				ts = append(ts, Target{Path: p, Line: it.Line})
			}
		}
		if len(ts) > 0 {
			addNext(d, Request{Mode: ModeInspect, Targets: ts}, "the code of the first links")
		}
	case d.Mode == ModeInspect:
		for _, t := range d.Targets {
			if t.Outcome != outcomeReturned {
				continue
			}
			p, ok := abs(t.Path)
			if !ok {
				continue
			}
			if t.Decl != nil && t.Decl.Name != "" {
				addNext(d, Request{Mode: ModeImpact, Path: p, Line: t.Decl.StartLine}, fmt.Sprintf("every occurrence of %s, by syntax role", t.Decl.Name))
			} else {
				addNext(d, Request{Mode: ModeOutline, Path: p}, fmt.Sprintf("the declarations of %s", t.Path))
			}
			return
		}
	case d.Mode == ModeOutline:
		for _, fo := range d.Outlines {
			if len(fo.Items) == 0 {
				continue
			}
			if p, ok := abs(fo.Path); ok {
				addNext(d, Request{Mode: ModeInspect, Path: p, Line: fo.Items[0].StartLine}, fmt.Sprintf("the code of %s", fo.Items[0].Name))
				return
			}
		}
	}
}
