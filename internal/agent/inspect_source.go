package agent

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
)

// shownRange is a range of lines an earlier target of the batch showed.
type shownRange struct {
	first, last int
	target      int // 0-based index of the target
}

// cursorNoteBytes is what one continuation note may take.
const cursorNoteBytes = 120

// continuation writes the note for lines first..last not shown and returns
// its cursor ("" when the range is empty or no cursor can be made).
func continuation(b *strings.Builder, env Env, root, path string, sp *span, first, last int, back bool) string {
	if first > last {
		return ""
	}
	if sp.lossy {
		fmt.Fprintf(b, "   … lines %d–%d not shown (budget; no continuation for a file that is not UTF-8)\n", first, last)
		return ""
	}
	tok, err := newSourceCursor(env, root, path, sp.rev, first, last, back)
	if err != nil {
		fmt.Fprintf(b, "   … lines %d–%d not shown (budget; cursor unavailable: %v)\n", first, last, err)
		return ""
	}
	dir := "after"
	if back {
		dir = "before"
	}
	fmt.Fprintf(b, "   … lines %d–%d (%s) not shown (budget); continue: {\"cursor\":%q}\n", first, last, dir, tok)
	return tok
}

// uncovered returns the parts of first..last no shown range holds, and the
// targets whose ranges overlap it.
func uncovered(ranges []shownRange, first, last int) ([][2]int, []int) {
	var cov []int
	pieces := [][2]int{{first, last}}
	for _, r := range ranges {
		if r.last < first || r.first > last {
			continue
		}
		cov = append(cov, r.target)
		var next [][2]int
		for _, p := range pieces {
			if r.last < p[0] || r.first > p[1] {
				next = append(next, p)
				continue
			}
			if p[0] < r.first {
				next = append(next, [2]int{p[0], r.first - 1})
			}
			if r.last < p[1] {
				next = append(next, [2]int{r.last + 1, p[1]})
			}
		}
		pieces = next
	}
	sort.Slice(pieces, func(i, j int) bool { return pieces[i][0] < pieces[j][0] })
	return pieces, cov
}

// Source cursors continue an inspect range that did not fit, after the
// lines shown (forward) or before them (back). They are cursors of a tiny
// snapshot that records the file's revision and the remaining line range,
// so replaying one gives the same page and a changed file is refused.
const (
	optPath  = "source.path"
	optFirst = "source.first"
	optLast  = "source.last"
	optRev   = "source.revision"
	optBack  = "source.back"
)

func newSourceCursor(env Env, root, path string, rev revisions.Revision, first, last int, back bool) (string, error) {
	if env.Store == nil {
		return "", errors.New("no snapshot store")
	}
	opts := map[string]string{optPath: path}
	if back {
		opts[optBack] = "true"
	}
	snap := snapshot.NewBuilder().Build(snapshot.Meta{Root: root, Analysis: snapshot.AnalysisSource, Created: time.Now(), Options: opts,
		Numbers: map[string][]int64{optFirst: {int64(first)}, optLast: {int64(last)}, optRev: revNumbers(rev)}})
	return env.Store.NewCursor(snap, snapshot.KindSource, 0, snapshot.PathSelection{})
}

// continueSource answers a source cursor: the next lines of the range (the
// last ones, for a cursor back), and a cursor for the rest.
func continueSource(env Env, snap *snapshot.Snapshot) (*Answer, error) {
	path := snap.Meta.Options[optPath]
	n := snap.Meta.Numbers
	back := snap.Meta.Options[optBack] == "true"
	rev, ok := revOfNumbers(n[optRev])
	if snap.Meta.Analysis != snapshot.AnalysisSource || !ok || len(n[optFirst]) != 1 || len(n[optLast]) != 1 {
		return nil, &snapshot.Error{Code: snapshot.CodeUnavailable, Msg: "corrupt source cursor"}
	}
	first, last := int(n[optFirst][0]), int(n[optLast][0])
	if first < 1 || first > last {
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
	if n := bytes.Count(data, []byte("\n")) + 1; last > n {
		return nil, &snapshot.Error{Code: snapshot.CodeUnavailable, Msg: "corrupt source cursor"}
	}
	sp := &span{first: first, last: last, data: data, rev: rev}
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Root, d.Status = ModeInspect, root, "complete"
	var b strings.Builder
	fmt.Fprintf(&b, "evgrep inspect (continued): %s lines %d–%d\n", shorten(nameOf(path), maxEchoBytes), first, last)
	r := newRows(sp, inspectTarget{col: -1})
	anchor := first
	if back {
		anchor = last
	}
	// The window grows from the end nearest the lines already shown; its
	// rows are bounded, so it always holds at least one line.
	lo, hi := r.windowFrom(first, last, anchor, responseBudget-600)
	r.write(&b, lo, hi)
	tj := TargetJSON{Path: nameOf(path), Line: anchor, Outcome: outcomeReturned, FirstLine: lo, LastLine: hi, Excerpt: r.excerpt}
	tj.SourceCursorBefore = continuation(&b, env, root, path, sp, first, lo-1, true)
	tj.SourceCursor = continuation(&b, env, root, path, sp, hi+1, last, false)
	if tj.SourceCursor != "" || tj.SourceCursorBefore != "" {
		d.Status = "partial"
	}
	d.Targets = []TargetJSON{tj}
	a.Text = b.String()
	return a, nil
}

// revNumbers is a revision as snapshot numbers (revOfNumbers reads it).
func revNumbers(r revisions.Revision) []int64 {
	verified := int64(0)
	if r.Verified {
		verified = 1
	}
	return []int64{int64(r.Dev), int64(r.Ino), r.Size, r.Mtime, r.Ctime, int64(r.Hash), verified}
}

// revOfNumbers is the revision revNumbers stored; false when n is not one.
func revOfNumbers(n []int64) (revisions.Revision, bool) {
	if len(n) != 7 || n[6] < 0 || n[6] > 1 {
		return revisions.Revision{}, false
	}
	id := revisions.Identity{Dev: uint64(n[0]), Ino: uint64(n[1]), Size: n[2], Mtime: n[3], Ctime: n[4]}
	return revisions.Revision{Identity: id, Hash: uint64(n[5]), Verified: n[6] == 1}, true
}
