package agent

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/syntax"
	"github.com/evgrep/evgrep/walker"
)

// FileOutline is the outline of one file: its top-level items, each with
// its direct members.
type FileOutline struct {
	Path     string        `json:"path"`
	Language string        `json:"language,omitempty"`
	Items    []OutlineItem `json:"items,omitempty"`
	Note     string        `json:"note,omitempty"` // why there is no outline
}

// noParserNote is the note of a file without a grammar (listed on one
// compact line of an outline answer).
const noParserNote = "no parser for this file type"

// exports keeps the public surface: exported items, and the exported
// members of exported items.
func (fo FileOutline) exports() FileOutline {
	out := fo
	out.Items = nil
	for _, it := range fo.Items {
		if !it.Exported {
			continue
		}
		e := it
		e.Members = nil
		for _, m := range it.Members {
			if m.Exported {
				e.Members = append(e.Members, m)
			}
		}
		out.Items = append(out.Items, e)
	}
	return out
}

// OutlineItem flattens a Decl with its direct members for JSON.
type OutlineItem struct {
	DeclJSON
	Members []DeclJSON `json:"members,omitempty"`
}

// OutlineFiles outlines files (paths as given, relative to root when not
// absolute) in parallel, each decoded as a search reads it (in: byte-order
// marks, -E); the result is sorted by path.
func OutlineFiles(root string, paths []string, in input.Options) []FileOutline {
	out := make([]FileOutline, len(paths))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, p := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = outlineOne(root, p, in)
		}()
	}
	wg.Wait()
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func outlineOne(root, p string, in input.Options) FileOutline {
	fo := FileOutline{Path: nameOf(p)}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, p)
	}
	// A path named by the caller may be a link (rg follows those); it is
	// resolved and checked first, and openChecked refuses a link that
	// appears after that.
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if forbidden(abs) {
		fo.Note = forbiddenMsg
		return fo
	}
	f, err := openChecked(abs)
	if err != nil {
		switch {
		case errors.Is(err, pipeline.ErrNotRegular):
			fo.Note = "not a regular file; not read"
		case errors.Is(err, pipeline.ErrLinkNotFollowed):
			fo.Note = "a symbolic link; not followed"
		case errors.Is(err, errPathForbidden):
			fo.Note = forbiddenMsg
		default:
			fo.Note = "unreadable"
		}
		return fo
	}
	data, err := io.ReadAll(io.LimitReader(f, snapshot.MaxInspectBytes+1))
	f.Close()
	if err != nil {
		fo.Note = "unreadable"
		return fo
	}
	lang, ok := syntax.Detect(p, data[:min(len(data), 4096)])
	if !ok {
		fo.Note = noParserNote
		return fo
	}
	fo.Language = string(lang)
	if len(data) > snapshot.MaxInspectBytes {
		fo.Note = "over the size cap"
		return fo
	}
	decls, err := syntax.Outline(lang, pipeline.Decode(abs, data, in))
	if err != nil {
		if errors.Is(err, syntax.ErrNoParser) {
			fo.Note = "no parser in this build"
		} else {
			fo.Note = err.Error()
		}
		return fo
	}
	for i := range decls {
		dj := declJSON(&decls[i])
		dj.Header = nil
		it := OutlineItem{DeclJSON: *dj}
		for j := range decls[i].Children {
			m := declJSON(&decls[i].Children[j])
			m.Header = nil
			it.Members = append(it.Members, *m)
		}
		fo.Items = append(fo.Items, it)
	}
	if bad, _ := syntax.HasErrors(lang, data); bad {
		fo.Note = "the file has syntax errors; the outline may be incomplete"
	}
	return fo
}

// WriteOutlineText renders outlines: a path line, then one line per item
// ("start-end  signature") with members indented. It stops when max bytes
// would be exceeded (0 = no bound) and returns how many files it wrote.
func WriteOutlineText(w *strings.Builder, outlines []FileOutline, maxBytes int) int {
	for n, fo := range outlines {
		text := outlineText(fo)
		if maxBytes > 0 && w.Len()+len(text) > maxBytes {
			return n
		}
		w.WriteString(text)
	}
	return len(outlines)
}

// outlineText is one file's outline as text.
func outlineText(fo FileOutline) string {
	var b strings.Builder
	b.WriteString(fo.Path)
	if fo.Language != "" {
		fmt.Fprintf(&b, " (%s)", fo.Language)
	}
	if fo.Note != "" {
		fmt.Fprintf(&b, " — %s", fo.Note)
	}
	b.WriteByte('\n')
	for _, it := range fo.Items {
		fmt.Fprintf(&b, "  %d-%d  %s\n", it.StartLine, it.EndLine, it.Signature)
		for _, m := range it.Members {
			fmt.Fprintf(&b, "    %d-%d  %s\n", m.StartLine, m.EndLine, m.Signature)
		}
	}
	return b.String()
}

// noExportsNote is the note of a file without public surface.
const noExportsNote = "no exports"

// cutOutline is fo within maxText bytes of text and maxJSON bytes of
// JSON: the items and members that fit in both, in order, with a note (in
// the text, and in the details' Note) of how many are left out.
func cutOutline(fo FileOutline, maxText, maxJSON int) (FileOutline, string) {
	out := fo
	out.Items = nil
	total := 0
	for _, it := range fo.Items {
		total += 1 + len(it.Members)
	}
	var b strings.Builder
	b.WriteString(outlineText(out))
	used := detailsSize(out) + cutNoteBytes
	shown := 0
	fits := func(line string, c int) bool {
		return b.Len()+len(line)+cutNoteBytes <= maxText && used+c <= maxJSON
	}
items:
	for _, it := range fo.Items {
		line := fmt.Sprintf("  %d-%d  %s\n", it.StartLine, it.EndLine, it.Signature)
		head := OutlineItem{DeclJSON: it.DeclJSON}
		c := detailsSize(head) + 1
		if !fits(line, c) {
			break
		}
		b.WriteString(line)
		used += c
		shown++
		out.Items = append(out.Items, head)
		last := &out.Items[len(out.Items)-1]
		for _, m := range it.Members {
			line := fmt.Sprintf("    %d-%d  %s\n", m.StartLine, m.EndLine, m.Signature)
			c := detailsSize(m) + 1
			if !fits(line, c) {
				break items
			}
			b.WriteString(line)
			used += c
			shown++
			last.Members = append(last.Members, m)
		}
	}
	if left := total - shown; left > 0 {
		note := fmt.Sprintf("%d more items and members not shown (16 KiB bound); inspect the file instead", left)
		fmt.Fprintf(&b, "  … %s\n", note)
		if out.Note != "" {
			note = out.Note + "; " + note
		}
		out.Note = note
	}
	return out, b.String()
}

// cutNoteBytes is what cutOutline keeps for its note.
const cutNoteBytes = 120

// JSONOutlines gives outlines with members nested, for --json.
func JSONOutlines(outlines []FileOutline) []map[string]any {
	var out []map[string]any
	for _, fo := range outlines {
		m := map[string]any{"path": fo.Path}
		if fo.Language != "" {
			m["language"] = fo.Language
		}
		if fo.Note != "" {
			m["note"] = fo.Note
		}
		items := fo.Items
		if items == nil {
			items = []OutlineItem{}
		}
		m["items"] = items
		out = append(out, m)
	}
	return out
}

// ListFiles walks roots with rg's discovery rules and returns the files
// (paths relative to root when under it), or the walk's error (a glob that
// does not compile).
func ListFiles(root string, roots []string, opts walker.Options) ([]string, error) {
	files, _, err := listFiles(root, roots, opts)
	return files, err
}

// listFiles is ListFiles that also counts the files the path policy
// passed over.
func listFiles(root string, roots []string, opts walker.Options) ([]string, *skipCount, error) {
	skips := &skipCount{}
	var mu sync.Mutex
	var files []string
	err := pipeline.Files(roots, opts, func(e walker.Entry) bool {
		if e.Stdin || skips.skip(e.Path) {
			return true
		}
		p := e.Path
		if rel, err := filepath.Rel(root, e.Path); err == nil && !strings.HasPrefix(rel, "..") {
			p = filepath.ToSlash(rel)
		}
		mu.Lock()
		files = append(files, p)
		mu.Unlock()
		return true
	})
	sort.Strings(files)
	return files, skips, err
}

// outline answers mode outline: files under path/paths, in pages of at
// most 16 KiB with a cursor for the rest.
func outline(req *Request, env Env, root string) (*Answer, error) {
	req, root, subs, err := requestPaths(req, root)
	if err != nil {
		return nil, err
	}
	sc := scopeOf(req, env, root, subs)
	files, skips, err := listFiles(root, sc.Roots(), sc.Walk)
	if err != nil {
		return nil, invalid("%v", err)
	}
	problems := withNote(nil, skips.note())
	if len(files) > maxOutlineFiles {
		problems = append(problems, fmt.Sprintf("%d files found; the outline covers the first %d in path order (narrow with paths)", len(files), maxOutlineFiles))
		files = files[:maxOutlineFiles]
	}
	a, err := outlinePage(env, root, subs, files, 0, req.Items == ItemsExports)
	if a != nil {
		a.Details.Problems = append(a.Details.Problems, problems...)
	}
	return a, err
}

// Outline cursors: a snapshot recording the listed files, the position of
// the next page and whether only exports are shown.
const (
	optOutFiles    = "outline.files"
	optOutNext     = "outline.next"
	optOutExports  = "outline.exports"
	optOutSubPaths = "outline.paths"
)

// outlineChunk is how many files are parsed at once while a page fills.
const outlineChunk = 16

// outlinePage writes the outlines of files[offset:] that fit in one answer:
// each code file's items, then one compact line naming the files without a
// parser; a cursor continues with the next file.
func outlinePage(env Env, root string, subs, files []string, offset int, exports bool) (*Answer, error) {
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Root, d.Status, d.Paths = ModeOutline, root, "complete", subs
	var b strings.Builder
	what := "declarations"
	if exports {
		what = "exports only"
	}
	fmt.Fprintf(&b, "evgrep outline (%s): %d files under %s\n", what, len(files), shorten(root, maxEchoBytes))
	budget := responseBudget - outlineReserve
	var other, none []string // files without a parser; without exports
	otherLen := 0
	next := offset
	var body strings.Builder
	// The details' entries are measured as the text is: a file that does
	// not fit either ends the page (the cursor goes on from it).
	detBudget := MaxDetailsBytes - outlineDetailsReserve - detailsSize(d)
	detUsed := 0
fill:
	for next < len(files) {
		if env.cancelled() {
			return nil, &Error{Code: CodeCancelled, Msg: fmt.Sprintf("the outline was cancelled after %d files", next-offset)}
		}
		if env.reports() && next > offset {
			env.progress(next - offset)
		}
		chunk := files[next:min(len(files), next+outlineChunk)]
		for _, fo := range OutlineFiles(root, chunk, inputOf(env)) {
			used := b.Len() + body.Len() + otherLen
			if fo.Note == noParserNote {
				add := len(shorten(fo.Path, maxEchoBytes)) + 2
				c := jsonCost(fo.Path) + 1
				if next > offset && (used+add > budget || detUsed+c > detBudget) {
					break fill
				}
				other = append(other, fo.Path)
				otherLen += add
				detUsed += c
				next++
				continue
			}
			if exports {
				fo = fo.exports()
				if len(fo.Items) == 0 && fo.Note == "" {
					// No public surface: named on the compact line.
					add := len(shorten(fo.Path, maxEchoBytes)) + 2
					c := detailsSize(FileOutline{Path: fo.Path, Note: noExportsNote}) + 1
					if next > offset && (used+add > budget || detUsed+c > detBudget) {
						break fill
					}
					none = append(none, fo.Path)
					otherLen += add
					detUsed += c
					next++
					continue
				}
			}
			text := outlineText(fo)
			c := detailsSize(fo) + 1
			if used+len(text) > budget || detUsed+c > detBudget {
				if next > offset {
					break fill
				}
				// One file over the bound: as many of its items as fit.
				fo, text = cutOutline(fo, budget-used, detBudget-detUsed)
				c = detailsSize(fo) + 1
			}
			body.WriteString(text)
			d.Outlines = append(d.Outlines, fo)
			detUsed += c
			next++
		}
	}
	if next == offset {
		b.WriteString("No files.\n")
	} else {
		fmt.Fprintf(&b, "Files %d–%d of %d:\n", offset+1, next, len(files))
	}
	b.WriteString(body.String())
	compactLine(&b, "Without a parser", other)
	compactLine(&b, "Without exports", none)
	d.OtherFiles = other
	for _, p := range none {
		d.Outlines = append(d.Outlines, FileOutline{Path: nameOf(p), Note: noExportsNote})
	}
	done := next >= len(files)
	d.Page = &PageJSON{Kind: string(snapshot.KindOutline), Offset: offset, Count: next - offset, Total: len(files), Done: done}
	if !done {
		tok, err := newOutlineCursor(env, root, subs, files, next, exports)
		if err == nil {
			d.Cursor = tok
			fmt.Fprintf(&b, "Next: {\"cursor\":%q} for files %d–%d.\n", tok, next+1, len(files))
		} else {
			d.Status = "partial"
			fmt.Fprintf(&b, "… %d more files not shown (16 KiB bound; cursor unavailable: %v); narrow with paths.\n", len(files)-next, err)
		}
	}
	a.Text = b.String()
	return a, nil
}

// compactLine names files on one line: "label (N): a, b".
func compactLine(b *strings.Builder, label string, files []string) {
	if len(files) == 0 {
		return
	}
	short := make([]string, len(files))
	for i, p := range files {
		short[i] = shorten(p, maxEchoBytes)
	}
	fmt.Fprintf(b, "%s (%d): %s\n", label, len(files), strings.Join(short, ", "))
}

func newOutlineCursor(env Env, root string, subs, files []string, next int, exports bool) (string, error) {
	if env.Store == nil {
		return "", errors.New("no snapshot store")
	}
	snap := snapshot.NewBuilder().Build(snapshot.Meta{Root: root, Analysis: snapshot.AnalysisOutline, Created: time.Now(),
		Options: map[string]string{optOutNext: strconv.Itoa(next), optOutExports: strconv.FormatBool(exports)},
		Lists:   map[string][]string{optOutFiles: slices.Clone(files), optOutSubPaths: slices.Clone(subs)},
	})
	return env.Store.NewCursor(snap, snapshot.KindOutline, 0, snapshot.PathSelection{})
}

// continueOutline answers an outline cursor: the next page of the files
// listed when the outline began (files changed since are outlined as they
// are now).
func continueOutline(env Env, snap *snapshot.Snapshot) (*Answer, error) {
	o := snap.Meta.Options
	files, subs := snap.Meta.Lists[optOutFiles], snap.Meta.Lists[optOutSubPaths]
	next, err := strconv.Atoi(o[optOutNext])
	if err != nil || snap.Meta.Analysis != snapshot.AnalysisOutline || next < 0 || next > len(files) {
		return nil, &snapshot.Error{Code: snapshot.CodeUnavailable, Msg: "corrupt outline cursor"}
	}
	return outlinePage(env, snap.Meta.Root, subs, files, next, o[optOutExports] == "true")
}
