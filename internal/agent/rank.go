package agent

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/rankindex"
	"github.com/evgrep/evgrep/rank"
	"github.com/evgrep/evgrep/snapshot"
)

// Rank answers: the options of their items snapshot.
const (
	optRankQuery = "rank.query"
	optRankRel   = "rank.related"
	optRankLimit = "rank.limit"
	optRankFiles = "rank.indexFiles"
	optRankChunk = "rank.indexChunks"
	// optEncoding is the -E label the files were decoded with (none: BOM only).
	optEncoding = "encoding"
)

// rankHonesty is the line every rank answer carries.
const rankHonesty = "A ranking by lexical evidence (BM25 with code-aware priors), not proof: read the source before relying on it."

// RankJSON describes a rank answer: what was asked, the index it was
// answered from and the chunks of this page.
type RankJSON struct {
	Query   string          `json:"query,omitempty"`
	Related *Target         `json:"related,omitempty"`
	Files   int             `json:"indexFiles"`
	Chunks  int             `json:"indexChunks"`
	Ranked  int             `json:"ranked"`
	Page    []RankChunkJSON `json:"chunks"`
	Note    string          `json:"note"`
}

// RankChunkJSON is one ranked chunk of a page.
type RankChunkJSON struct {
	Rank      int     `json:"rank"`
	Path      string  `json:"path"`
	StartLine int     `json:"startLine"`
	EndLine   int     `json:"endLine"`
	Score     float64 `json:"score"`
	Kind      string  `json:"kind"`
	Name      string  `json:"name,omitempty"`
	// Shown is false when the file changed since it was ranked (its
	// source is then not shown) or the page's budget ran out.
	Shown bool   `json:"shown"`
	Note  string `json:"note,omitempty"`
}

// validateRank checks a rank request: a query or a related chunk, not
// both; no pattern, inspect or context fields; a cursor alone.
func (r *Request) validateRank() error {
	if r.Mode != ModeRank && r.Mode != "" {
		return invalid("query and related belong to mode rank")
	}
	inspectish := r.Line != 0 || r.MatchIndex != 0 || len(r.MatchIndices) > 0 || len(r.Targets) > 0
	if r.Pattern != "" || inspectish || r.Context != nil || r.Items != "" || r.Literal || r.IgnoreCase != nil {
		return invalid("mode rank takes query or related, path, paths, glob, exclude, hidden, limit and cursor only")
	}
	if r.Cursor != "" {
		if r.Query != "" || r.Related != nil || len(r.Paths) > 0 || r.Path != "" {
			return invalid("a rank cursor continues its ranking: {\"cursor\":…} (with limit) alone")
		}
		return nil
	}
	switch {
	case r.Query == "" && r.Related == nil:
		return invalid("mode rank needs query (text or a name) or related ({path,line})")
	case r.Query != "" && r.Related != nil:
		return invalid("mode rank takes query or related, not both")
	case len(r.Query) > rank.MaxQueryBytes:
		return invalid("query over %d bytes", rank.MaxQueryBytes)
	case strings.TrimSpace(r.Query) == "" && r.Related == nil:
		return invalid("query is blank")
	case r.Related != nil && (r.Related.Path == "" || r.Related.Line < 1):
		return invalid("related needs path and a line of 1 or more")
	}
	if r.Limit != nil && *r.Limit > maxRankPage {
		return invalid("limit %d: mode rank shows 1-%d chunks a page", *r.Limit, maxRankPage)
	}
	return nil
}

// rankRequest ranks the chunks of the files under root (paths, glob,
// exclude, hidden as a search) for the query or the related chunk, keeps
// the best maxRankItems as an items snapshot and answers its first page.
func rankRequest(req *Request, env Env, root string) (*Answer, error) {
	req, root, subs, err := requestPaths(req, root)
	if err != nil {
		return nil, err
	}
	sc := scopeOf(req, env, root, subs)
	roots, wo := sc.Roots(), sc.Walk
	var skips skipCount
	ix, st, err := rankindex.Load(env.context(), rankindex.Options{
		Root: root, Roots: roots, Walk: wo, Input: sc.Input, Tag: "agent",
		Open: openChecked, Skip: skips.skip, Store: env.Store,
	})
	if errors.Is(err, rankindex.ErrCancelled) {
		return nil, &Error{Code: CodeCancelled, Msg: "the rank index build was cancelled"}
	}
	if err != nil {
		return nil, invalid("%v", err)
	}
	var hits []rank.Hit
	opts := map[string]string{}
	if sc.Input.Encoding != "" {
		opts[optEncoding] = sc.Input.Encoding
	}
	if req.Related != nil {
		rel := filepath.ToSlash(req.Related.Path)
		if filepath.IsAbs(req.Related.Path) {
			if r, err := filepath.Rel(root, req.Related.Path); err == nil && !strings.HasPrefix(r, "..") {
				rel = filepath.ToSlash(r)
			}
		}
		from, hs, ok := ix.Related(rel, req.Related.Line, &rank.Default, maxRankItems)
		if !ok {
			return nil, invalid("no indexed chunk holds %s:%d (the path is relative to the root %s)", shorten(rel, maxEchoBytes), req.Related.Line, shorten(root, maxEchoBytes))
		}
		hits = hs
		opts[optRankRel] = from.Path + ":" + strconv.Itoa(from.Chunk.StartLine) + "-" + strconv.Itoa(from.Chunk.EndLine)
	} else {
		hits = ix.Search(req.Query, &rank.Default, maxRankItems)
		opts[optRankQuery] = req.Query
	}
	limit := defaultRankPage
	if req.Limit != nil {
		limit = *req.Limit
	}
	opts[optRankLimit] = strconv.Itoa(limit)
	opts[optRankFiles] = strconv.Itoa(ix.Files())
	opts[optRankChunk] = strconv.Itoa(ix.Chunks())
	b := snapshot.NewItemsBuilder()
	for _, h := range hits {
		b.AddFile(nameOf(h.Path), h.Rev)
		b.Add(snapshot.Item{
			Path: nameOf(h.Path), Line: h.Chunk.StartLine, EndLine: h.Chunk.EndLine,
			Start: int64(h.Chunk.StartByte), End: int64(h.Chunk.EndByte),
			Group: h.Chunk.Kind, Label: h.Chunk.Name, Score: h.Score,
		})
	}
	snap := b.Build(snapshot.Meta{Root: root, Analysis: snapshot.AnalysisRank, Options: opts, Created: time.Now()})
	if env.Store != nil {
		if err := env.Store.Put(snap); err != nil {
			return nil, err
		}
	}
	a, err := rankPage(env, snap, 0, limit)
	if a != nil && st.CacheErr != nil {
		a.Details.Problems = append(a.Details.Problems, "rank cache: "+firstLine(st.CacheErr.Error()))
	}
	if n := skips.note(); n != "" {
		a.Details.Problems = append(a.Details.Problems, n)
	}
	return a, err
}

// continueRank answers a rank cursor: the next page of the stored ranking.
func continueRank(req *Request, env Env, snap *snapshot.Snapshot, cur snapshot.Cursor) (*Answer, error) {
	if req.Pattern != "" || req.Query != "" || req.Related != nil || req.Path != "" || len(req.Paths) > 0 || (req.Mode != "" && req.Mode != ModeRank) {
		return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "a rank cursor only continues its ranking: {\"cursor\":…} (with limit) alone"}
	}
	limit, _ := strconv.Atoi(snap.Meta.Options[optRankLimit])
	if req.Limit != nil {
		limit = *req.Limit
	}
	return rankPage(env, snap, cur.Offset, max(1, min(limit, maxRankPage)))
}

// rankPage renders the chunks of snap from offset: at most limit of them
// within the answer's budget, each one's source read from disk and shown
// only when the file is still the revision that was ranked.
func rankPage(env Env, snap *snapshot.Snapshot, offset, limit int) (*Answer, error) {
	a := &Answer{}
	d := &a.Details
	d.Mode, d.Root, d.Status = ModeRank, snap.Meta.Root, "complete"
	o := snap.Meta.Options
	rj := &RankJSON{Query: o[optRankQuery], Note: rankHonesty, Ranked: snap.ItemCount()}
	rj.Files, _ = strconv.Atoi(o[optRankFiles])
	rj.Chunks, _ = strconv.Atoi(o[optRankChunk])
	if rel := o[optRankRel]; rel != "" {
		if i := strings.LastIndexByte(rel, ':'); i > 0 {
			first, _, _ := strings.Cut(rel[i+1:], "-")
			n, _ := strconv.Atoi(first)
			rj.Related = &Target{Path: rel[:i], Line: n}
		}
	}
	d.Rank = rj
	var w strings.Builder
	what := fmt.Sprintf("%q", shorten(rj.Query, maxEchoBytes))
	if rj.Related != nil {
		what = "chunks like " + shorten(o[optRankRel], maxEchoBytes)
	}
	budget := snapshot.MaxResponseBytes - rankReserve
	items, next, done := snap.ItemsPage(offset, limit, budget, func(it snapshot.Item) int {
		return min(int(it.End-it.Start), maxRankChunkShow) + len(it.Path) + 160
	})
	first, last := offset+1, offset+len(items)
	if len(items) == 0 {
		first = 0
	}
	fmt.Fprintf(&w, "rank %s: %d chunks ranked over %d files (%d chunks); chunks %d-%d of %d\n", what, rj.Ranked, rj.Files, rj.Chunks, first, last, rj.Ranked)
	w.WriteString(rankHonesty + "\n")
	if len(items) == 0 {
		w.WriteString("No chunk holds a term of the query.\n")
	}
	used := w.Len()
	for i, it := range items {
		c := RankChunkJSON{Rank: offset + i + 1, Path: it.Path, StartLine: it.Line, EndLine: it.EndLine,
			Score: float64(int64(it.Score*1000+0.5)) / 1000, Kind: it.Group, Name: it.Label}
		src, why := rankSource(snap, it)
		// The name comes from the index (maybe a cache): shown only when
		// the verified source declares it.
		c.Name = rankindex.VerifiedName(src, it.Label)
		head := fmt.Sprintf("\n#%d %s:%d-%d  score %.3f  %s %s\n", c.Rank, it.Path, it.Line, it.EndLine, c.Score, it.Group, c.Name)
		body := ""
		if why == "" {
			body = numberedSource(src, it.Line, maxRankChunkShow)
			c.Shown = true
		} else {
			c.Note = why
			body = "  (" + why + ")\n"
		}
		if used+len(head)+len(body) > budget {
			// Defer this chunk and the rest to the next page.
			next, done = offset+i, false
			break
		}
		w.WriteString(head)
		w.WriteString(body)
		used += len(head) + len(body)
		rj.Page = append(rj.Page, c)
	}
	d.Page = &PageJSON{Kind: string(snapshot.KindItems), Offset: offset, Count: len(rj.Page), Total: rj.Ranked, Done: done}
	if !done && env.Store != nil {
		tok, err := env.Store.NewCursor(snap, snapshot.KindItems, next, snapshot.PathSelection{})
		if err != nil {
			return nil, err
		}
		d.Cursor = tok
		d.Next = append(d.Next, NextCall{Request: Request{Cursor: tok}, Why: fmt.Sprintf("the next chunks of this ranking, from #%d", next+1)})
		fmt.Fprintf(&w, "\nMore: {\"cursor\":%q}\n", tok)
	}
	if len(rj.Page) > 0 {
		top := rj.Page[0]
		d.Next = append(d.Next,
			NextCall{Request: Request{Mode: ModeInspect, Path: nameOf(filepath.Join(snap.Meta.Root, filepath.FromSlash(pathOf(top.Path)))), Line: top.StartLine}, Why: "the whole declaration around the first chunk"},
			NextCall{Request: Request{Mode: ModeRank, Path: snap.Meta.Root, Related: &Target{Path: top.Path, Line: top.StartLine}}, Why: "the chunks most like the first one"})
	}
	a.Text = w.String()
	return a, nil
}

// rankSource returns the bytes of item it, read from disk and verified
// against the revision the ranking recorded, or why they are not shown.
func rankSource(snap *snapshot.Snapshot, it snapshot.Item) ([]byte, string) {
	f, ok := snap.File(it.Path)
	if !ok {
		return nil, "no revision recorded; not shown"
	}
	abs := rankindex.Abs(snap.Meta.Root, pathOf(it.Path))
	if forbiddenFile(abs) {
		return nil, forbiddenMsg
	}
	src, err := rankindex.Source(snap.Meta.Root, rank.Hit{Path: pathOf(it.Path), Rev: f.Revision,
		Chunk: rank.Chunk{StartByte: int(it.Start), EndByte: int(it.End)}}, input.Options{Encoding: snap.Meta.Options[optEncoding]})
	if err != nil {
		return nil, "the file changed since it was ranked; not shown (rank again)"
	}
	return src, ""
}

// numberedSource renders src (starting at line first) with line numbers, cut at
// about max bytes on a line boundary (a longer single line at a
// character boundary), saying how many lines were left out.
func numberedSource(src []byte, first, max int) string {
	var b strings.Builder
	n := first
	for len(src) > 0 {
		line := src
		rest := []byte(nil)
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			line, rest = src[:i], src[i+1:]
		}
		text := strings.TrimRight(strings.ToValidUTF8(string(line), "\uFFFD"), "\r")
		if b.Len()+len(text)+8 > max {
			if b.Len() == 0 {
				cut := max
				for cut > 0 && cut < len(text) && !utf8.RuneStart(text[cut]) {
					cut--
				}
				fmt.Fprintf(&b, "%d\t%s…\n", n, text[:min(cut, len(text))])
				src = rest
			}
			left := bytes.Count(src, []byte("\n"))
			if len(src) > 0 && src[len(src)-1] != '\n' {
				left++
			}
			if left > 0 {
				fmt.Fprintf(&b, "\t… %d more lines (inspect %d for the declaration)\n", left, first)
			}
			return b.String()
		}
		fmt.Fprintf(&b, "%d\t%s\n", n, text)
		n++
		src = rest
	}
	return b.String()
}
