package agent

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/evgrep/evgrep/snapshot"
)

// page continues from a cursor without searching again: the next page
// of its kind, or with a summary cursor the match lines (mode matches) or
// those of some files (path, paths).
func page(req *Request, env Env) (*Answer, error) {
	if env.Store == nil {
		return nil, &snapshot.Error{Code: snapshot.CodeUnavailable, Msg: "no snapshot store"}
	}
	kind := snapshot.Kind("")
	if req.Mode == ModeSummary {
		kind = snapshot.KindSummary
	} else if req.Mode == ModeOutline {
		kind = snapshot.KindOutline
	}
	snap, cur, err := env.Store.Resolve(req.Cursor, "", kind, "")
	if err != nil {
		return nil, err
	}
	switch snap.Meta.Analysis {
	case snapshot.AnalysisOutline:
		if cur.Kind != snapshot.KindOutline {
			break
		}
		if req.Pattern != "" || req.Path != "" || len(req.Paths) > 0 || (req.Mode != "" && req.Mode != ModeOutline) {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "an outline cursor only continues the outline: {\"cursor\":…} alone"}
		}
		return continueOutline(env, snap)
	case snapshot.AnalysisRank:
		if cur.Kind == snapshot.KindItems {
			return continueRank(req, env, snap, cur)
		}
	case snapshot.AnalysisStructural:
		if cur.Kind != snapshot.KindItems {
			break
		}
		// A structural page's cursor goes on with or without its mode.
		if req.Pattern != "" || req.Path != "" || len(req.Paths) > 0 || (req.Mode != "" && req.Mode != ModeStructural) {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "a structural cursor only continues its matches: {\"cursor\":…} alone"}
		}
		limit := cur.Limit
		if req.Limit != nil {
			limit = *req.Limit
		}
		return structuralPage(env, snap, cur.Offset, limit, "")
	case snapshot.AnalysisTerms:
		if cur.Kind == snapshot.KindItems {
			return continueTerms(req, env, snap, cur)
		}
	case snapshot.AnalysisImpact, snapshot.AnalysisImports, snapshot.AnalysisTests:
		if cur.Kind == snapshot.KindItems {
			return continueAnalysis(req, env, snap, cur)
		}
	case snapshot.AnalysisSource:
		if cur.Kind != snapshot.KindSource {
			break
		}
		if req.Pattern != "" || req.Path != "" || len(req.Paths) > 0 || req.Mode != "" {
			return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: "a source cursor only continues the inspected source: {\"cursor\":…} alone"}
		}
		return continueSource(env, snap)
	case snapshot.AnalysisSearch:
		if cur.Kind == snapshot.KindSummary || cur.Kind == snapshot.KindMatches {
			return pageSearch(req, env, snap, cur)
		}
	}
	return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: fmt.Sprintf("a %s cursor of the %s analysis does not belong together", cur.Kind, snap.Meta.Analysis)}
}

// pageSearch continues a search's cursor: the next summary page, the
// match lines, or those of the selected files.
func pageSearch(req *Request, env Env, snap *snapshot.Snapshot, cur snapshot.Cursor) (*Answer, error) {
	if err := req.checkRestated(snap.Meta); err != nil {
		return nil, err
	}
	switch req.Mode {
	case "", ModeAuto, ModeSummary, ModeMatches:
	default:
		// A search's cursor pages its summary and its lines; another
		// mode is a new request, not a page of this one.
		return nil, &snapshot.Error{Code: snapshot.CodeWrongKind, Msg: fmt.Sprintf("a search's cursor continues its summary or match lines (mode summary or matches), not mode %s", shorten(req.Mode, 64))}
	}
	sel, err := cursorSelection(req, env, snap)
	if err != nil {
		return nil, err
	}
	a := &Answer{}
	d := &a.Details
	d.Pattern, d.Root = snap.Meta.Options["pattern"], snap.Meta.Root
	if p := snap.Meta.Lists["paths"]; len(p) > 0 {
		d.Paths = p
	}
	v := view{env: env, snap: snap, limit: defaultLimit, context: cur.Context, cursor: req.Cursor}
	if cur.Limit > 0 {
		v.limit = cur.Limit
	}
	if req.Limit != nil {
		v.limit = *req.Limit
	}
	if req.Context != nil {
		v.context = *req.Context
	}
	switch {
	case sel != nil:
		offset := 0
		if cur.Kind == snapshot.KindMatches {
			if !cur.Selection.Equal(*sel) {
				return nil, &snapshot.Error{Code: snapshot.CodeOptionsConflict, Msg: "a matches cursor keeps its selection; select other files with the summary cursor"}
			}
			offset = cur.Offset
		}
		return a, renderMatches(a, v, *sel, offset)
	case cur.Kind == snapshot.KindSummary && req.Mode == ModeMatches:
		return a, renderMatches(a, v, snapshot.SelectPaths(), 0)
	case cur.Kind == snapshot.KindSummary:
		return a, renderSummary(a, v, cur.Offset)
	}
	return a, renderMatches(a, v, cur.Selection, cur.Offset)
}

// cursorSelection is the selection a cursor request asks for with path
// (the cursor's root, or one file of its search) and paths (1-20 files of
// its search, as the answers show them), or nil for none. The files are
// looked up in the snapshot only: a file edited or removed since the
// search is selected all the same, and shows what the search found.
func cursorSelection(req *Request, env Env, snap *snapshot.Snapshot) (*snapshot.PathSelection, error) {
	root := snap.Meta.Root
	var names []string
	if req.Path != "" {
		name, isRoot, ok := retainedFile(req.Path, env.Cwd, snap)
		switch {
		case isRoot:
		case ok:
			names = append(names, name)
		default:
			return nil, &snapshot.Error{Code: snapshot.CodeOptionsConflict, Msg: fmt.Sprintf("path %s is neither the cursor's root %s nor a file with matches in its search", shorten(req.Path, maxEchoBytes), shorten(root, maxEchoBytes))}
		}
	}
	for _, p := range req.Paths {
		name, _, ok := retainedFile(p, "", snap)
		if !ok {
			return nil, invalid("paths: %s is not a file with matches in the cursor's search (name files as its answers show them)", shorten(p, maxEchoBytes))
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, nil
	}
	sel := snapshot.SelectPaths(names...)
	return &sel, nil
}

// retainedFile finds p among the files of snap: as shown (relative to the
// root), or as a path (absolute, or relative to cwd when cwd is given)
// inside the root. isRoot tells that p names the root itself.
func retainedFile(p, cwd string, snap *snapshot.Snapshot) (name string, isRoot, ok bool) {
	root := snap.Meta.Root
	if !filepath.IsAbs(p) {
		rel := nameOf(filepath.ToSlash(filepath.Clean(p)))
		if _, found := snap.File(rel); found {
			return rel, false, true
		}
		if cwd == "" {
			return "", false, false
		}
		p = filepath.Join(cwd, p)
	}
	abs := filepath.Clean(p)
	if real, err := filepath.EvalSymlinks(abs); err == nil && real == root {
		return "", true, false
	}
	if abs == root {
		return "", true, false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false, false
	}
	rel = nameOf(filepath.ToSlash(rel))
	_, found := snap.File(rel)
	return rel, false, found
}
