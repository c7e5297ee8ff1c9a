package agent

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/syntax"
	"github.com/evgrep/evgrep/walker"
)

// FileOutline is the outline of one file.
type FileOutline struct {
	Path     string       `json:"path"`
	Language string       `json:"language,omitempty"`
	Items    []DeclJSON   `json:"items,omitempty"`
	Children [][]DeclJSON `json:"-"`
	Note     string       `json:"note,omitempty"` // why there is no outline
}

// OutlineItem flattens a Decl with its direct members for JSON.
type OutlineItem struct {
	DeclJSON
	Members []DeclJSON `json:"members,omitempty"`
}

// OutlineFiles outlines files (paths as given, relative to root when not
// absolute) in parallel; the result is sorted by path.
func OutlineFiles(root string, paths []string) []FileOutline {
	out := make([]FileOutline, len(paths))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, p := range paths {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = outlineOne(root, p)
		}()
	}
	wg.Wait()
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func outlineOne(root, p string) FileOutline {
	fo := FileOutline{Path: p}
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
		fo.Note = "no parser for this file type"
		return fo
	}
	fo.Language = string(lang)
	if len(data) > snapshot.MaxInspectBytes {
		fo.Note = "over the size cap"
		return fo
	}
	decls, err := syntax.Outline(lang, data)
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
		fo.Items = append(fo.Items, *dj)
		var members []DeclJSON
		for j := range decls[i].Children {
			m := declJSON(&decls[i].Children[j])
			m.Header = nil
			members = append(members, *m)
		}
		fo.Children = append(fo.Children, members)
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
		var b strings.Builder
		b.WriteString(fo.Path)
		if fo.Language != "" {
			fmt.Fprintf(&b, " (%s)", fo.Language)
		}
		if fo.Note != "" {
			fmt.Fprintf(&b, " — %s", fo.Note)
		}
		b.WriteByte('\n')
		for i, it := range fo.Items {
			fmt.Fprintf(&b, "  %d-%d  %s\n", it.StartLine, it.EndLine, it.Signature)
			if i < len(fo.Children) {
				for _, m := range fo.Children[i] {
					fmt.Fprintf(&b, "    %d-%d  %s\n", m.StartLine, m.EndLine, m.Signature)
				}
			}
		}
		if maxBytes > 0 && w.Len()+b.Len() > maxBytes {
			return n
		}
		w.WriteString(b.String())
	}
	return len(outlines)
}

// JSONOutlines gives outlines with members nested, for --json.
func JSONOutlines(outlines []FileOutline) []map[string]any {
	var out []map[string]any
	for _, fo := range outlines {
		var items []OutlineItem
		for i, it := range fo.Items {
			oi := OutlineItem{DeclJSON: it}
			if i < len(fo.Children) {
				oi.Members = fo.Children[i]
			}
			items = append(items, oi)
		}
		m := map[string]any{"path": fo.Path}
		if fo.Language != "" {
			m["language"] = fo.Language
		}
		if fo.Note != "" {
			m["note"] = fo.Note
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
	var mu sync.Mutex
	var files []string
	err := pipeline.Files(roots, opts, func(e walker.Entry) bool {
		if e.Stdin || forbiddenFile(e.Path) {
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
	return files, err
}

// outline answers mode outline: files under path/paths, bounded.
func outline(req *Request, env Env, root string) (*Answer, error) {
	subs, err := subPaths(root, req.Paths)
	if err != nil {
		return nil, err
	}
	roots := []string{root}
	if len(subs) > 0 {
		roots = nil
		for _, s := range subs {
			roots = append(roots, filepath.Join(root, s))
		}
	}
	wo := walker.DefaultOptions()
	wo.Hidden = req.hidden()
	wo.SkipGitDir = true
	files, err := ListFiles(root, roots, wo)
	if err != nil {
		return nil, invalid("%v", err)
	}
	outlines := OutlineFiles(root, files)
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Root, d.Status, d.Paths = ModeOutline, root, "complete", subs
	var b strings.Builder
	parsed := 0
	for _, fo := range outlines {
		if len(fo.Items) > 0 {
			parsed++
		}
	}
	fmt.Fprintf(&b, "evgrep outline: %d files under %s, %d with declarations\n", len(outlines), shorten(root, maxEchoBytes), parsed)
	n := WriteOutlineText(&b, outlines, responseBudget-400)
	if n < len(outlines) {
		d.Status = "partial"
		fmt.Fprintf(&b, "… %d more files not shown (16 KiB bound); narrow with paths.\n", len(outlines)-n)
	}
	d.Outlines = append(d.Outlines, outlines[:n]...)
	a.Text = b.String()
	return a, nil
}
