package agent

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
)

// source is a file read back for context, verified against its revision.
type source struct {
	lines   [][]byte // the file's lines, without an empty one past the end
	changed bool
	noted   bool  // the "changed" note was written
	shown   int   // last line already shown (windows never repeat)
	matches []int // the file's retained match line numbers, ascending
}

// contextWriter renders match lines with their context: the lines before
// and after each match line, never past the end of the file, never a line
// shown already, and never another match line (which is shown as itself,
// on its own page).
type contextWriter struct {
	snap  *snapshot.Snapshot
	ctx   int
	files map[string]*source
	json  map[int]ContextJSON // by match number
}

func newContextWriter(snap *snapshot.Snapshot, ctx int) *contextWriter {
	return &contextWriter{snap: snap, ctx: ctx, files: map[string]*source{}, json: map[int]ContextJSON{}}
}

func (cw *contextWriter) source(path string) *source {
	if src := cw.files[path]; src != nil {
		return src
	}
	src := &source{}
	cw.files[path] = src
	f, _ := cw.snap.File(path)
	real, err := filepath.EvalSymlinks(filepath.Join(cw.snap.Meta.Root, path))
	if err == nil && forbidden(real) {
		err = errPathForbidden // a snapshot from the state folder names it
	}
	var data []byte
	st := revisions.Unknown
	if err == nil {
		data, st, err = revisions.ReadVerified(real, f.Revision, snapshot.MaxInspectBytes)
	}
	if err != nil || st != revisions.Same {
		src.changed = true
		return src
	}
	// Decoded as the search read the file, so line numbers agree.
	src.lines = bytes.SplitAfter(pipeline.Decode(path, data, input.Options{}), []byte("\n"))
	if n := len(src.lines); n > 0 && len(src.lines[n-1]) == 0 {
		src.lines = src.lines[:n-1]
	}
	for _, l := range cw.snap.FileLines(path) {
		src.matches = append(src.matches, l.Number)
	}
	return src
}

// render returns the match row with its context rows around it, within
// allow bytes of text and allowJSON bytes of the context's JSON form (the
// rows farthest from the match go first), and records that JSON form.
func (cw *contextWriter) render(l snapshot.Line, row string, allow, allowJSON int) string {
	src := cw.source(l.Path)
	if src.changed {
		cw.json[l.Match] = ContextJSON{Match: l.Match, Path: l.Path, Changed: true}
		if src.noted {
			return row
		}
		src.noted = true
		return row + fmt.Sprintf("    (context not shown: %s changed since the search)\n", shorten(l.Path, maxEchoBytes))
	}
	prev, next := 0, len(src.lines)+1
	i := sort.SearchInts(src.matches, l.Number)
	if i > 0 {
		prev = src.matches[i-1]
	}
	if i < len(src.matches) && src.matches[i] == l.Number {
		i++
	}
	if i < len(src.matches) {
		next = src.matches[i]
	}
	// A line between two match lines belongs to the earlier one's after
	// context when it lies within it, else to the later one's before
	// context: so whichever pages the two come on, it is shown once.
	lo := prev + 1
	if prev > 0 {
		lo = prev + cw.ctx + 1
	}
	first := min(l.Number, max(1, l.Number-cw.ctx, src.shown+1, lo))
	last := min(len(src.lines), l.Number+cw.ctx, next-1)
	text := func(n int) string {
		return clip(strings.ToValidUTF8(strings.TrimRight(string(src.lines[n-1]), "\r\n"), "\uFFFD"), sampleTextChars*2)
	}
	rowOf := func(n int) string { return fmt.Sprintf("    -%d %s\n", n, text(n)) }
	// The JSON form holds each row's text as a string; the fields around
	// them take contextJSONBytes and the path.
	jsonOf := func(n int) int { return jsonCost(text(n)) + 1 }
	size, jsize := len(row), contextJSONBytes+jsonCost(l.Path)
	for n := first; n <= last; n++ {
		if n != l.Number {
			size += len(rowOf(n))
			jsize += jsonOf(n)
		}
	}
	for (size > allow || jsize > allowJSON) && (first < l.Number || last > l.Number) {
		if l.Number-first >= last-l.Number {
			size -= len(rowOf(first))
			jsize -= jsonOf(first)
			first++
		} else {
			size -= len(rowOf(last))
			jsize -= jsonOf(last)
			last--
		}
	}
	src.shown = max(src.shown, l.Number, last)
	cj := ContextJSON{Match: l.Match, Path: l.Path}
	var b strings.Builder
	for n := first; n < l.Number; n++ {
		b.WriteString(rowOf(n))
		cj.Before = append(cj.Before, text(n))
	}
	if len(cj.Before) > 0 {
		cj.FirstLine = first
	}
	b.WriteString(row)
	for n := l.Number + 1; n <= last; n++ {
		b.WriteString(rowOf(n))
		cj.After = append(cj.After, text(n))
	}
	cw.json[l.Match] = cj
	return b.String()
}
