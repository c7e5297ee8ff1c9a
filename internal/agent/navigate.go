package agent

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
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
	tap   *captureTap
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

func (s *navSink) Open(e walker.Entry) (*os.File, pipeline.Tap, error) {
	f, tap, err := openCapture(e, s.buf, syntax.MaxSource)
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
	s.buf = s.tap.buf[:0]
	if len(s.cur.lines) == 0 && s.named == "" {
		return true
	}
	f := s.cur
	f.rev, f.named = s.tap.fin.finish(), s.named
	if r.wantData && s.tap.whole() {
		f.data = append([]byte(nil), pipeline.Decode(e.Path, s.tap.buf, r.input.Input)...)
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
func (s *navSink) ContextBreak(*search.Searcher) (bool, error)             { return true, nil }
func (s *navSink) BinaryData(*search.Searcher, int64) (bool, error)        { return true, nil }
func (s *navSink) Finish(*search.Searcher, *search.Finish) error           { return nil }

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
	if err := pipeline.Run(roots, opts, r.m, func() pipeline.Sink { return &navSink{r: r} }); err != nil {
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
	kindImports   = "imports"
	kindTests     = "tests"
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
	b.AddFile(t.rel, revisions.Revision{})
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
				b.AddFile(f.rel, f.rev)
				text := im.Spec
				if lang == syntax.Go {
					if n := goBuildNote(f.abs); n != "" {
						text += " (" + n + ")"
					}
				}
				b.Add(snapshot.Item{Path: f.rel, Line: im.Line, EndLine: im.Line, Start: int64(im.Start), End: int64(im.End),
					Group: grpImportedBy, Label: im.Kind, Text: text})
			}
		}
	}
	if over > 0 {
		notes = append(notes, fmt.Sprintf("%d more files spell its name but were not read (bound of %d files)", over, maxNavFiles))
	}
	snap := b.Build(navMeta(t, kindImports, searched, over, notes))
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
	return snapshot.Item{Path: rel, Line: im.Line, EndLine: im.Line, Start: int64(im.Start), End: int64(im.End),
		Group: grpImports, Label: r.status, Text: text}
}

func navMeta(t *navTarget, kind string, searched, over int, notes []string) snapshot.Meta {
	return snapshot.Meta{Root: t.ws, Created: time.Now(), Options: map[string]string{
		optKind: kind, optNavFile: t.rel, optNavLang: string(t.lang), optNavNote: strings.Join(notes, "\n"),
		optNavOver: fmt.Sprint(over), optNavWalked: fmt.Sprint(searched),
	}}
}

// testNames are the candidate base names of test files for rel by its
// language's conventions, and whether they must sit in rel's folder.
func testNames(lang syntax.Language, rel string) (names []string, sameDir bool) {
	base := filepath.Base(rel)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch lang {
	case syntax.Go:
		return []string{stem + "_test.go"}, true
	case syntax.Python:
		return []string{"test_" + stem + ".py", stem + "_test.py", "tests_" + stem + ".py"}, false
	case syntax.JavaScript, syntax.TypeScript, syntax.TSX:
		for _, e := range []string{".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts"} {
			names = append(names, stem+".test"+e, stem+".spec"+e)
		}
		return names, false
	case syntax.Java:
		return []string{stem + "Test.java", stem + "Tests.java", "Test" + stem + ".java", stem + "IT.java"}, false
	case syntax.Ruby:
		return []string{stem + "_spec.rb", stem + "_test.rb", "test_" + stem + ".rb"}, false
	case syntax.Rust:
		return []string{stem + ".rs", stem + "_test.rs", "test_" + stem + ".rs"}, false
	case syntax.C, syntax.Cpp:
		for _, e := range []string{".c", ".cc", ".cpp", ".cxx"} {
			names = append(names, "test_"+stem+e, stem+"_test"+e, stem+"_tests"+e, stem+"_unittest"+e)
		}
		return names, false
	}
	return nil, false
}

// testDeclNames are the names a test of the file would mention: its
// exported top-level declarations (all of them when none is exported),
// at most maxTestNames, of 3 bytes or more.
func testDeclNames(lang syntax.Language, data []byte) []string {
	decls, err := syntax.Outline(lang, data)
	if err != nil {
		return nil
	}
	pick := func(exported bool) []string {
		var out []string
		for _, d := range decls {
			if exported && !d.Exported {
				continue
			}
			for _, n := range declNames(d) {
				if len(n) >= 3 && !contains(out, n) && len(out) < maxTestNames {
					out = append(out, n)
				}
			}
		}
		return out
	}
	if names := pick(true); len(names) > 0 {
		return names
	}
	return pick(false)
}

// RunTests lists the test files of a source file with their evidence.
func RunTests(spec NavSpec) (*snapshot.Snapshot, []string, error) {
	t, err := loadTarget(spec)
	if err != nil {
		return nil, nil, err
	}
	var notes []string
	if r := syntax.TestFileReason(t.rel); r != "" {
		notes = append(notes, t.rel+" is itself a test file ("+r+")")
	}
	names := testDeclNames(t.lang, t.data)
	if len(names) == maxTestNames {
		notes = append(notes, fmt.Sprintf("mentions of its first %d declarations are counted as evidence", maxTestNames))
	}
	cands, sameDir := testNames(t.lang, t.rel)
	dir := filepath.Dir(t.rel)
	// The walk keeps the test files that mention a declaration, or the
	// file's stem (an import of it names it: './config').
	pats := names
	if stem := strings.TrimSuffix(filepath.Base(t.rel), filepath.Ext(t.rel)); len(stem) >= 3 && !contains(names, stem) {
		pats = append(append([]string(nil), names...), stem)
	}
	m, err := matcher.Compile(matcher.Options{Patterns: pats, Fixed: true, Word: true, Case: matcher.Sensitive, CRLF: true, LineTerminator: '\n'})
	if err != nil {
		return nil, nil, &Error{Code: CodePattern, Msg: err.Error()}
	}
	run := &navRun{root: t.ws, m: m, wantData: true, keep: func(rel string) bool { return rel != t.rel && syntax.IsTestFile(rel) }}
	run.onBegin = func(rel string) string {
		base := filepath.Base(rel)
		if !contains(cands, base) || (sameDir && filepath.Dir(rel) != dir) {
			if t.lang == syntax.Go && filepath.Dir(rel) == dir && strings.HasSuffix(base, "_test.go") {
				return "package"
			}
			return ""
		}
		return "name"
	}
	if err := run.run(spec); err != nil {
		return nil, nil, err
	}
	notes = withNote(append(notes, run.problems...), run.walk.skips.note())
	if run.over > 0 {
		notes = append(notes, fmt.Sprintf("%d more test files mention its declarations but were not read (bound of %d files)", run.over, maxNavFiles))
	}
	type link struct {
		f        *navFile
		group    string
		mentions map[string]int
		count    int
		imports  string // the import that links it
		first    int    // the first line that mentions a declaration
	}
	rs := newResolver(t.ws)
	var links []link
	for _, f := range run.files {
		l := link{f: f, mentions: map[string]int{}, imports: importsOf(rs, f, t.abs)}
		// A Go file of another package mentions the names qualified by
		// the package's name (strings.NewReader, not a Reader of its own).
		qual := ""
		if t.lang == syntax.Go && filepath.Dir(f.rel) != dir && l.imports != "" {
			qual = path.Base(l.imports) + "."
		}
		for _, ln := range f.lines {
			for _, n := range names {
				if c := len(syntax.FindWord([]byte(ln.text), qual+n)); c > 0 {
					l.mentions[n] += c
					l.count += c
					if l.first == 0 {
						l.first = ln.line
					}
				}
			}
		}
		switch {
		case f.named == "name":
			l.group = grpName
		case f.named == "package":
			l.group = grpPackage
		case l.imports != "":
			// Importing the file is the evidence, whichever of its
			// declarations the test then uses.
			l.group = grpImportsIt
		case l.count > 0 && !resolvable(t.lang):
			// Without import resolution, mentions are the evidence.
			l.group = grpReferences
		default:
			continue
		}
		links = append(links, l)
	}
	rank := map[string]int{grpName: 0, grpPackage: 1, grpImportsIt: 2, grpReferences: 3}
	sort.SliceStable(links, func(i, j int) bool {
		a, b := links[i], links[j]
		if rank[a.group] != rank[b.group] {
			return rank[a.group] < rank[b.group]
		}
		if a.count != b.count {
			return a.count > b.count
		}
		return a.f.rel < b.f.rel
	})
	b := snapshot.NewItemsBuilder()
	// Test code inside the file itself (a Rust #[cfg(test)] module).
	if t.lang == syntax.Rust {
		for i, ln := range strings.Split(string(t.data), "\n") {
			if strings.Contains(strings.Join(strings.Fields(ln), ""), "#[cfg(test)]") {
				b.AddFile(t.rel, revisions.Revision{})
				b.Add(snapshot.Item{Path: t.rel, Line: i + 1, EndLine: i + 1, Start: -1, End: -1, Group: grpInFile,
					Label: "#[cfg(test)]", Text: "the file holds its own test module"})
				break
			}
		}
	}
	for _, l := range links {
		var ev []string
		switch l.group {
		case grpName:
			ev = append(ev, fmt.Sprintf("named for %s (%s)", filepath.Base(t.rel), syntax.TestFileReason(l.f.rel)))
		case grpPackage:
			ev = append(ev, "a test file of the same Go package folder")
		}
		if l.imports != "" {
			ev = append(ev, "imports it ("+l.imports+")")
		}
		if l.count > 0 {
			var ms []string
			for _, n := range names {
				if c := l.mentions[n]; c > 0 {
					ms = append(ms, fmt.Sprintf("%s ×%d", n, c))
				}
			}
			ev = append(ev, "mentions "+strings.Join(ms, ", "))
		} else if len(names) > 0 {
			ev = append(ev, "mentions none of its declarations")
		}
		line := max(1, l.first)
		b.AddFile(l.f.rel, l.f.rev)
		b.Add(snapshot.Item{Path: l.f.rel, Line: line, EndLine: line, Start: -1, End: -1, Group: l.group,
			Label: syntax.TestFileReason(l.f.rel), Text: strings.Join(ev, "; ")})
	}
	meta := navMeta(t, kindTests, run.walk.searched(), run.over, notes)
	meta.Options[optNavSubject] = strings.Join(names, ", ")
	return b.Build(meta), notes, nil
}

// resolvable reports whether imports of lang are resolved to files (then a
// test file is linked by importing the file, not by mentions alone).
func resolvable(lang syntax.Language) bool {
	switch lang {
	case syntax.Go, syntax.Python, syntax.JavaScript, syntax.TypeScript, syntax.TSX, syntax.Rust:
		return true
	}
	return false
}

// importsOf is the import of f that resolves to target (or, in Go, to its
// package folder), or "".
func importsOf(rs *resolver, f *navFile, target string) string {
	if f.data == nil {
		return ""
	}
	lang, ok := syntax.Detect(f.rel, f.data[:min(len(f.data), 4096)])
	if !ok {
		return ""
	}
	imps, err := syntax.Imports(lang, f.data)
	if err != nil {
		return ""
	}
	for _, im := range imps {
		r := rs.resolve(lang, f.abs, im)
		for _, tg := range r.targets {
			if tg == target || r.dir && tg == filepath.Dir(target) {
				return im.Spec
			}
		}
	}
	return ""
}
