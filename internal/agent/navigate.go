package agent

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/scope"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/syntax"
	"github.com/evgrep/evgrep/walker"
)

// Navigation: a file's imports (resolved to workspace files where the
// conventions allow) and its importers (mode imports); a source file's
// test files, each with the evidence for the link (mode tests). Files are
// found by the one pipeline with a literal prefilter; only files that
// contain it are kept and parsed, at most maxNavFiles of them.

// navFile is one file the prefilter kept.
type navFile struct {
	rel, abs string
	rev      revisions.Revision
	data     []byte // nil when not read whole
	lines    []navLine
	named    string // tests: the naming convention that links it
}

// navLine is one matching line of a kept file.
type navLine struct {
	line int
	text string
}

// navRun is one prefilter walk.
type navRun struct {
	root     string
	m        *matcher.Matcher
	keep     func(rel string) bool // which files to search
	wantData bool
	mu       sync.Mutex
	files    []*navFile
	over     int
	problems []string
	walk     *walkState
	input    pipeline.Options
	// onBegin sees every kept file before its search (tests: naming).
	onBegin func(rel string) string
}

// navSink is a pipeline.Sink of a navRun.
type navSink struct {
	r     *navRun
	cur   *navFile
	tap   *revisions.Tap
	buf   []byte
	named string
}

func (s *navSink) Begin(e walker.Entry) (bool, bool) {
	w := s.r.walk
	if search, more := w.admit(e); !search {
		return false, more
	}
	rel := relSlash(s.r.root, e.Path)
	if !s.r.keep(rel) {
		return false, true
	}
	s.cur, s.tap, s.named = &navFile{rel: rel, abs: e.Path}, nil, ""
	if s.r.onBegin != nil {
		s.named = s.r.onBegin(rel)
	}
	return true, true
}

func (s *navSink) Open(e walker.Entry) (pipeline.File, pipeline.Tap, error) {
	f, tap, err := openTap(e.Path, syntax.MaxSource, s.buf)
	if err != nil {
		return nil, nil, err
	}
	s.tap = tap
	return f, tap, nil
}

func (s *navSink) Matched(_ *search.Searcher, m *search.Match) (bool, error) {
	if len(s.cur.lines) < maxNavLines {
		line := trimTerm(m.Bytes)
		s.cur.lines = append(s.cur.lines, navLine{line: int(m.LineNumber), text: excerpt(line, 0, 0)})
	}
	return true, nil
}

func (s *navSink) End(e walker.Entry, err error) bool {
	r := s.r
	if err != nil {
		r.mu.Lock()
		if len(r.problems) < maxProblems {
			r.problems = append(r.problems, s.cur.rel+": "+err.Error())
		}
		r.mu.Unlock()
	}
	if s.tap == nil {
		return true
	}
	s.buf = s.tap.Bytes()[:0]
	if len(s.cur.lines) == 0 && s.named == "" {
		return true
	}
	f := s.cur
	f.rev, f.named = s.tap.Finish(), s.named
	if r.wantData && s.tap.Whole() {
		f.data = append([]byte(nil), pipeline.Decode(e.Path, s.tap.Bytes(), r.input.Input)...)
	}
	r.mu.Lock()
	if len(r.files) < maxNavFiles {
		r.files = append(r.files, f)
	} else {
		r.over++
	}
	r.mu.Unlock()
	return true
}

func (s *navSink) Context(*search.Searcher, *search.Context) (bool, error) { return true, nil }

func (s *navSink) ContextBreak(*search.Searcher) (bool, error) { return true, nil }

func (s *navSink) BinaryData(*search.Searcher, int64) (bool, error) { return true, nil }

func (s *navSink) Finish(*search.Searcher, *search.Finish) error { return nil }

// run walks the workspace; the kept files come back in path order.
func (r *navRun) run(spec NavSpec) error {
	sc := &scope.Scope{Root: r.root, Walk: spec.Walk, Input: spec.Input}
	opts, roots := sc.Pipeline(), sc.Roots()
	env := spec.Env
	opts.Walk.OnError = func(err error) {
		r.mu.Lock()
		if len(r.problems) < maxProblems {
			r.problems = append(r.problems, err.Error())
		}
		r.mu.Unlock()
	}
	r.walk = &walkState{env: env}
	r.input = *opts
	err := pipeline.Run(roots, opts, r.m, func() pipeline.Sink { return &navSink{r: r} })
	env.walked()
	if err != nil {
		return invalid("%v", err)
	}
	if r.walk.cancelled.Load() {
		return &Error{Code: CodeCancelled, Msg: fmt.Sprintf("the walk was cancelled after %d files", r.walk.seen.Load())}
	}
	sort.Slice(r.files, func(i, j int) bool { return r.files[i].rel < r.files[j].rel })
	return nil
}

// langFamily lists the languages whose files can import a file of lang.
func langFamily(lang syntax.Language) []syntax.Language {
	switch lang {
	case syntax.JavaScript, syntax.TypeScript, syntax.TSX:
		return []syntax.Language{syntax.JavaScript, syntax.TypeScript, syntax.TSX}
	case syntax.C, syntax.Cpp:
		return []syntax.Language{syntax.C, syntax.Cpp}
	}
	return []syntax.Language{lang}
}

// inFamily reports whether rel is a file of one of langs.
func inFamily(rel string, langs []syntax.Language) bool {
	l, ok := syntax.Detect(rel, nil)
	if !ok {
		return false
	}
	for _, x := range langs {
		if l == x {
			return true
		}
	}
	return false
}

// moduleStem is the name importers spell for file rel: its stem, or its
// folder's name for an index, __init__ or mod file.
func moduleStem(rel string) string {
	base := filepath.Base(rel)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	switch stem {
	case "index", "__init__", "mod":
		return filepath.Base(filepath.Dir(rel))
	}
	return stem
}

// navTarget is the file a navigation request names.
type navTarget struct {
	ws, abs, rel string
	lang         syntax.Language
	data         []byte
}

// NavSpec is what one navigation analysis looks at.
type NavSpec struct {
	Root string // the workspace (absolute)
	File string // the file (absolute)
	// Walk and Input are the scope's walk and decoding rules (scopeOf).
	Walk  walker.Options
	Input input.Options
	Env   Env
}

// Snapshot options of a navigation analysis.
const (
	optNavFile    = "nav.file"
	optNavLang    = "nav.language"
	optNavNote    = "nav.note"
	optNavOver    = "nav.over"
	optNavWalked  = "nav.searched"
	optNavSubject = "nav.subject"
)

// Groups of navigation items.
const (
	grpImports    = "imports"
	grpImportedBy = "imported-by"
	grpName       = "name"
	grpPackage    = "package"
	grpReferences = "references"
	grpImportsIt  = "imports-it"
	grpInFile     = "in-file"
)

func loadTarget(spec NavSpec) (*navTarget, error) {
	data, err := readNamed(spec.File)
	if err != nil {
		return nil, err
	}
	t := &navTarget{ws: spec.Root, abs: spec.File, rel: slashRel(spec.Root, spec.File), data: data}
	lang, ok := syntax.Detect(spec.File, data[:min(len(data), 4096)])
	if !ok {
		return nil, invalid("%s: no parser for this file type", shorten(t.rel, maxEchoBytes))
	}
	t.lang = lang
	return t, nil
}

// RunImports lists what the file imports and who imports it.
func RunImports(spec NavSpec) (*snapshot.Snapshot, []string, error) {
	t, err := loadTarget(spec)
	if err != nil {
		return nil, nil, err
	}
	rs := newResolver(t.ws)
	imps, res, err := resolveImports(rs, t.lang, t.abs, t.data)
	if err != nil {
		return nil, nil, invalid("%s: %v", shorten(t.rel, maxEchoBytes), err)
	}
	b := snapshot.NewItemsBuilder()
	b.AddFile(nameOf(t.rel), revisions.Revision{})
	var notes []string
	if t.lang == syntax.Go {
		if n := goBuildNote(t.abs); n != "" {
			notes = append(notes, t.rel+" is "+n+" (go list leaves it out)")
		}
	}
	for i, im := range imps {
		b.Add(importItem(t.ws, t.rel, im, res[i]))
	}
	// Who imports it: files of the same language family that spell its
	// import path (Go) or its module name.
	var pat string
	fixedWord := true
	self := t.abs
	switch t.lang {
	case syntax.Go:
		ip := rs.goImportPath(filepath.Dir(t.abs))
		if ip == "" {
			notes = append(notes, "no go.mod above the file: its importers are not looked for")
		} else {
			pat, fixedWord = `"`+ip+`"`, false
		}
	case syntax.C, syntax.Cpp:
		pat, fixedWord = filepath.Base(t.abs), false
	default:
		pat = moduleStem(t.rel)
	}
	over, searched := 0, 0
	if pat != "" {
		m, err := matcher.Compile(matcher.Options{Patterns: []string{pat}, Fixed: true, Word: fixedWord, CRLF: true, LineTerminator: '\n'})
		if err != nil {
			return nil, nil, &Error{Code: CodePattern, Msg: err.Error()}
		}
		fam := langFamily(t.lang)
		run := &navRun{root: t.ws, m: m, wantData: true, keep: func(rel string) bool { return inFamily(rel, fam) }}
		if err := run.run(spec); err != nil {
			return nil, nil, err
		}
		over, searched = run.over, run.walk.searched()
		notes = withNote(append(notes, run.problems...), run.walk.skips.note())
		for _, f := range run.files {
			if f.abs == self || f.data == nil {
				continue
			}
			lang, ok := syntax.Detect(f.rel, f.data[:min(len(f.data), 4096)])
			if !ok {
				continue
			}
			fimps, err := syntax.Imports(lang, f.data)
			if err != nil {
				continue
			}
			for _, im := range fimps {
				r := rs.resolve(lang, f.abs, im)
				hit := false
				for _, tg := range r.targets {
					if tg == self || r.dir && tg == filepath.Dir(self) {
						hit = true
					}
				}
				if !hit {
					continue
				}
				b.AddFile(nameOf(f.rel), f.rev)
				text := im.Spec
				if lang == syntax.Go {
					if n := goBuildNote(f.abs); n != "" {
						text += " (" + n + ")"
					}
				}
				b.Add(snapshot.Item{Path: nameOf(f.rel), Line: im.Line, EndLine: im.Line, Start: int64(im.Start), End: int64(im.End),
					Group: grpImportedBy, Label: im.Kind, Text: text})
			}
		}
	}
	if over > 0 {
		notes = append(notes, fmt.Sprintf("%d more files spell its name but were not read (bound of %d files)", over, maxNavFiles))
	}
	snap := b.Build(navMeta(t, snapshot.AnalysisImports, searched, over, notes))
	return snap, notes, nil
}

// resolveImports lists the imports of the file abs and where each points.
func resolveImports(rs *resolver, lang syntax.Language, abs string, data []byte) ([]syntax.Import, []resolved, error) {
	imps, err := syntax.Imports(lang, data)
	if err != nil {
		return nil, nil, err
	}
	res := make([]resolved, len(imps))
	for i, im := range imps {
		res[i] = rs.resolve(lang, abs, im)
	}
	return imps, res, nil
}

// importItem is the item of one import of the file rel.
func importItem(ws, rel string, im syntax.Import, r resolved) snapshot.Item {
	text := im.Spec
	if len(im.Names) > 0 {
		text += " (" + strings.Join(im.Names, ", ") + ")"
	}
	var tg []string
	for _, x := range r.targets {
		s := slashRel(ws, x)
		if r.dir {
			s += "/"
		}
		tg = append(tg, s)
	}
	if len(tg) > 0 {
		text += " → " + strings.Join(tg, ", ")
	}
	if r.note != "" {
		text += " [" + r.note + "]"
	}
	return snapshot.Item{Path: nameOf(rel), Line: im.Line, EndLine: im.Line, Start: int64(im.Start), End: int64(im.End),
		Group: grpImports, Label: r.status, Text: text}
}

func navMeta(t *navTarget, kind snapshot.Analysis, searched, over int, notes []string) snapshot.Meta {
	return snapshot.Meta{Root: t.ws, Analysis: kind, Created: time.Now(), Options: map[string]string{
		optNavFile: t.rel, optNavLang: string(t.lang),
		optNavOver: fmt.Sprint(over), optNavWalked: fmt.Sprint(searched),
	}, Lists: map[string][]string{optNavNote: slices.Clone(notes)}}
}
