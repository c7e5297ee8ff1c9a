package agent

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

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

// Impact: every same-spelling occurrence of a symbol's name across a
// workspace, classified by syntax role. The files are found by the one
// pipeline with a literal whole-word matcher; only files that contain the
// name are kept and parsed, at most a parse budget of them (source files
// first, then test files, each in path order); the others keep their
// occurrences, unclassified. The items go to an analysis snapshot in
// answer order: source files' occurrences by path and byte, then the test
// files'.

// ImpactSpec is what one impact analysis looks for.
type ImpactSpec struct {
	// Root is the absolute folder searched; Subs are sub-paths of it
	// (empty: all of it).
	Root string
	Subs []string
	// File and Line name the target declaration (File absolute); or
	// Symbol names it ("ReadRune", "bufio.Reader.ReadRune", "Foo::bar").
	File   string
	Line   int
	Symbol string
	// ParseBudget bounds the files parsed (0: defaultParseBudget).
	ParseBudget int
	// Walk and Input are the scope's walk and decoding rules (scopeOf);
	// Hidden, Glob and Exclude the request's fields, kept in the
	// snapshot's fingerprint.
	Walk          walker.Options
	Input         input.Options
	Hidden        bool
	Glob, Exclude []string
	// Env carries the cancel check and progress of the walk.
	Env Env
}

// ImpactResult is an impact analysis: the snapshot of its items and what
// the answer says about it.
type ImpactResult struct {
	Snap *snapshot.Snapshot
	// Name is the spelling searched; Target says where it came from.
	Name, Target string
	// Parsed files, files left unparsed by the budget, files searched.
	Parsed, OverBudget, Searched int
	Budget                       int
	Problems                     []string
}

// Snapshot options of an impact analysis.
const (
	optImpName       = "impact.name"
	optImpTarget     = "impact.target"
	optImpBudget     = "impact.budget"
	optImpParsed     = "impact.parsed"
	optImpOverBudget = "impact.overBudget"
	optImpSearched   = "impact.searched"
)

// Label prefixes of items whose file was not parsed.
const (
	whyOverBudget = "over the parse budget"
	whyNotWhole   = "over the parse size cap"
	whyMemory     = "over the memory bound of the analysis"
	whyChanged    = "changed since the walk, or not read whole"
)

// impactName resolves the spelling an impact looks for and says where it
// came from.
func impactName(spec *ImpactSpec) (name, target string, err error) {
	if spec.Symbol != "" {
		name = lastSegment(spec.Symbol)
		target = fmt.Sprintf("symbol %s", spec.Symbol)
		if name != spec.Symbol {
			target += fmt.Sprintf(" (its last part %q is searched; the qualifier is not checked)", name)
		}
		return name, target, checkName(name)
	}
	data, err := readNamed(spec.File)
	if err != nil {
		return "", "", err
	}
	rel := relSlash(spec.Root, spec.File)
	lang, ok := syntax.Detect(spec.File, data[:min(len(data), 4096)])
	if !ok {
		return "", "", invalid("%s: no parser for this file type; name the symbol instead", shorten(rel, maxEchoBytes))
	}
	d, err := syntax.Enclosing(lang, data, spec.Line)
	if err != nil {
		if errors.Is(err, syntax.ErrNoDecl) {
			return "", "", invalid("%s:%d lies in no declaration; name the symbol instead", shorten(rel, maxEchoBytes), spec.Line)
		}
		return "", "", invalid("%s:%d: %v; name the symbol instead", shorten(rel, maxEchoBytes), spec.Line, err)
	}
	cands := declNames(d)
	if len(cands) > 1 {
		// A group (Go const/var, a Rust trait impl): the one name that
		// stands on the line, if only one does.
		lineText := lineOf(data, spec.Line)
		var on []string
		for _, c := range cands {
			if len(syntax.FindWord(lineText, c)) > 0 {
				on = append(on, c)
			}
		}
		if len(on) != 1 {
			return "", "", invalid("%s:%d: the enclosing %s declares several names; name one as symbol: %s",
				shorten(rel, maxEchoBytes), spec.Line, d.Kind, strings.Join(cands, ", "))
		}
		cands = on
	}
	if len(cands) == 0 {
		return "", "", invalid("%s:%d: the enclosing %s has no name; name the symbol instead", shorten(rel, maxEchoBytes), spec.Line, d.Kind)
	}
	name = cands[0]
	target = fmt.Sprintf("%s %s at %s:%d-%d", d.Kind, name, rel, d.StartLine, d.EndLine)
	return name, target, checkName(name)
}

// declNames splits a Decl's name into the names it declares.
func declNames(d syntax.Decl) []string {
	var out []string
	for _, part := range strings.Split(d.Name, ", ") {
		for _, p := range strings.Split(part, " for ") {
			p = lastSegment(strings.TrimSpace(p))
			if i := strings.IndexAny(p, "<[("); i > 0 {
				p = p[:i]
			}
			if p != "" && !contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// lastSegment is the last part of a qualified name (after ".", "::", "#"
// or "->").
func lastSegment(s string) string {
	for _, sep := range []string{"::", "->", "#", "."} {
		if i := strings.LastIndex(s, sep); i >= 0 && i+len(sep) < len(s) {
			s = s[i+len(sep):]
		}
	}
	return s
}

// checkName refuses a spelling that cannot be an identifier.
func checkName(name string) error {
	if name == "" || len(name) > maxSymbolBytes || !utf8.ValidString(name) || strings.ContainsAny(name, " \t\r\n") {
		return invalid("symbol %q: expected one identifier of 1-%d bytes", shorten(name, 64), maxSymbolBytes)
	}
	for _, r := range name {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return nil
		}
	}
	return invalid("symbol %q has no letter, digit or underscore", shorten(name, 64))
}

// lineOf returns line n (1-based) of data without its terminator.
func lineOf(data []byte, n int) []byte {
	for i := 1; i < n; i++ {
		j := indexByte(data, '\n')
		if j < 0 {
			return nil
		}
		data = data[j+1:]
	}
	if j := indexByte(data, '\n'); j >= 0 {
		data = data[:j]
	}
	return data
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// impactFile is one file that contains the name.
type impactFile struct {
	path string
	abs  string
	rev  revisions.Revision
	data []byte    // decoded, or nil (why says why)
	occ  []lineOcc // the occurrences the search found, for an unparsed file
	// dropped counts the occurrences past the first snapshot.MaxItems+1
	// of the file, which no snapshot keeps: they are counted, not stored.
	dropped int
	why     string
	test    string // the test-file naming reason, or ""
	// parsed occurrences, when data was parsed
	parsed []syntax.Occurrence
	err    error
	parse  bool
}

// lineOcc is one occurrence on a match line.
type lineOcc struct {
	line       int
	col        int
	start, end int64
	text       string
}

// impactState is what the workers of one impact walk share.
type impactState struct {
	name  string
	walk  *walkState
	mu    sync.Mutex
	files []*impactFile
	note  func(string)
	input pipeline.Options
}

// impactSink is a pipeline.Sink (and Opener) that keeps the files that
// contain the name.
type impactSink struct {
	st      *impactState
	root    string
	path    string
	fin     *revisions.Tap
	occ     []lineOcc
	dropped int
	matched bool
}

// Begin implements pipeline.Sink.
func (s *impactSink) Begin(e walker.Entry) (bool, bool) {
	w := s.st.walk
	if search, more := w.admit(e); !search {
		return false, more
	}
	s.path = relSlash(s.root, e.Path)
	s.fin, s.occ, s.dropped, s.matched = nil, nil, 0, false
	return true, true
}

// Open implements pipeline.Opener.
func (s *impactSink) Open(e walker.Entry) (pipeline.File, pipeline.Tap, error) {
	f, tap, err := openTracked(e.Path)
	if err != nil {
		return nil, nil, err
	}
	s.fin = tap
	return f, tap, nil
}

// Matched implements search.Sink: the whole-word occurrences of the line.
func (s *impactSink) Matched(_ *search.Searcher, m *search.Match) (bool, error) {
	s.matched = true
	line := trimTerm(m.Bytes)
	for _, off := range syntax.FindWord(line, s.st.name) {
		if len(s.occ) > snapshot.MaxItems {
			// One more than a snapshot keeps is kept, so that the
			// builder is full and refuses (counts) the rest.
			s.dropped++
			continue
		}
		s.occ = append(s.occ, lineOcc{
			line: int(m.LineNumber), col: off + 1,
			start: m.AbsOffset + int64(off), end: m.AbsOffset + int64(off+len(s.st.name)),
			text: excerpt(line, off, len(s.st.name)),
		})
	}
	return true, nil
}

// End implements pipeline.Sink.
func (s *impactSink) End(e walker.Entry, err error) bool {
	if err != nil {
		s.st.note(s.path + ": " + err.Error())
	}
	if s.fin == nil {
		return true
	}
	rev := s.fin.Finish()
	if !s.matched || len(s.occ) == 0 {
		return true
	}
	f := &impactFile{path: s.path, abs: e.Path, rev: rev, occ: s.occ, dropped: s.dropped, test: syntax.TestFileReason(s.path)}
	s.st.mu.Lock()
	s.st.files = append(s.st.files, f)
	s.st.mu.Unlock()
	return true
}

// Context implements search.Sink.
func (s *impactSink) Context(*search.Searcher, *search.Context) (bool, error) { return true, nil }

// ContextBreak implements search.Sink.
func (s *impactSink) ContextBreak(*search.Searcher) (bool, error) { return true, nil }

// BinaryData implements search.Sink.
func (s *impactSink) BinaryData(*search.Searcher, int64) (bool, error) { return true, nil }

// Finish implements search.Sink.
func (s *impactSink) Finish(*search.Searcher, *search.Finish) error { return nil }

// trimTerm drops a line's "\n" or "\r\n".
func trimTerm(line []byte) []byte {
	n := len(line)
	if n > 0 && line[n-1] == '\n' {
		n--
		if n > 0 && line[n-1] == '\r' {
			n--
		}
	}
	return line[:n]
}

// excerpt is the line around an occurrence at off, at most
// impactTextBytes, leading white space dropped.
func excerpt(line []byte, off, n int) string {
	s, e := 0, len(line)
	for s < off && (line[s] == ' ' || line[s] == '\t') {
		s++
	}
	if e-s > impactTextBytes {
		s = max(s, off-impactTextBytes/2)
		e = min(e, s+impactTextBytes)
		for s > 0 && s < len(line) && !utf8.RuneStart(line[s]) {
			s++
		}
		for e < len(line) && e > s && !utf8.RuneStart(line[e]) {
			e--
		}
	}
	return strings.ToValidUTF8(string(line[s:e]), "\uFFFD")
}

// RunImpact runs one impact analysis.
func RunImpact(spec ImpactSpec) (*ImpactResult, error) {
	budget := spec.ParseBudget
	if budget == 0 {
		budget = defaultParseBudget
	}
	if budget < 1 || budget > maxParseBudget {
		return nil, invalid("parseBudget %d: expected 1-%d", budget, maxParseBudget)
	}
	name, target, err := impactName(&spec)
	if err != nil {
		return nil, err
	}
	m, err := matcher.Compile(matcher.Options{Patterns: []string{name}, Fixed: true, Word: true, CRLF: true, LineTerminator: '\n'})
	if err != nil {
		return nil, &Error{Code: CodePattern, Msg: err.Error()}
	}
	sc := &scope.Scope{Root: spec.Root, Subs: spec.Subs, Walk: spec.Walk, Input: spec.Input}
	opts, roots := sc.Pipeline(), sc.Roots()
	res := &ImpactResult{Name: name, Target: target, Budget: budget}
	var pmu sync.Mutex
	note := func(msg string) {
		pmu.Lock()
		if len(res.Problems) < maxProblems {
			res.Problems = append(res.Problems, msg)
		}
		pmu.Unlock()
	}
	opts.Walk.OnError = func(err error) { note(err.Error()) }
	st := &impactState{name: name, walk: &walkState{env: spec.Env}, note: note, input: *opts}
	err = pipeline.Run(roots, opts, m, func() pipeline.Sink { return &impactSink{st: st, root: spec.Root} })
	spec.Env.walked()
	if err != nil {
		return nil, invalid("%v", err)
	}
	if st.walk.cancelled.Load() {
		return nil, &Error{Code: CodeCancelled, Msg: fmt.Sprintf("the analysis was cancelled after %d files", st.walk.seen.Load())}
	}
	res.Searched = st.walk.searched()
	res.Problems = withNote(res.Problems, st.walk.skips.note())
	files := st.files
	sortImpactFiles(files)
	// The budget goes to the first files that have a parser.
	var todo []*impactFile
	for _, f := range files {
		// By its name: a file without an extension (a script named by its
		// shebang) is not parsed.
		lang, ok := syntax.Detect(f.path, nil)
		if !ok || !syntax.HasRoles(lang) {
			if ok && syntax.Supported(lang) {
				f.why = syntax.ErrNoRoleRules.Error()
			}
			continue
		}
		if len(todo) >= budget {
			f.why = whyOverBudget
			res.OverBudget++
			continue
		}
		todo = append(todo, f)
	}
	parseAll(todo, name, st.input.Input, st.walk)
	if st.walk.cancelled.Load() {
		return nil, &Error{Code: CodeCancelled, Msg: fmt.Sprintf("the analysis was cancelled while parsing, after %d files searched", st.walk.seen.Load())}
	}
	for _, f := range todo {
		if f.parse {
			res.Parsed++
		}
	}
	// A file whose every occurrence lies in test code the source marks
	// (a Rust #[cfg(test)] module) goes with the test files.
	for _, f := range todo {
		if f.test == "" && len(f.parsed) > 0 && allInTest(f.parsed) {
			f.test = "test code"
		}
	}
	sortImpactFiles(files)
	b := snapshot.NewItemsBuilder()
	for _, f := range files {
		b.AddFile(nameOf(f.path), f.rev)
		addImpactItems(b, f)
	}
	res.Snap = b.Build(snapshot.Meta{Root: spec.Root, Analysis: snapshot.AnalysisImpact, Created: time.Now(), Options: map[string]string{
		optImpName: name, optImpTarget: target,
		optImpBudget: strconv.Itoa(budget), optImpParsed: strconv.Itoa(res.Parsed),
		optImpOverBudget: strconv.Itoa(res.OverBudget), optImpSearched: strconv.Itoa(res.Searched),
		"hidden": strconv.FormatBool(spec.Hidden),
	}, Lists: map[string][]string{"glob": slices.Clone(spec.Glob), "exclude": slices.Clone(spec.Exclude), "paths": slices.Clone(spec.Subs)}})
	return res, nil
}

// sortImpactFiles puts source files first, then test files; each in path
// order.
func sortImpactFiles(files []*impactFile) {
	sort.Slice(files, func(i, j int) bool {
		if (files[i].test == "") != (files[j].test == "") {
			return files[i].test == ""
		}
		return files[i].path < files[j].path
	})
}

// allInTest reports whether every occurrence is in test code.
func allInTest(occs []syntax.Occurrence) bool {
	for _, o := range occs {
		if !o.InTest {
			return false
		}
	}
	return true
}

// parseAll reads the files again (only while each is the revision the walk
// saw, decoded as the walk decoded it) and classifies the occurrences of
// name in them, a few at once. A file that changed, or that would pass the
// memory bound, keeps the walk's occurrences, unclassified.
func parseAll(files []*impactFile, name string, in input.Options, ws *walkState) {
	var retained atomic.Int64
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for w := 0; w < max(1, min(runtime.NumCPU(), 4)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) {
					return
				}
				f := files[i]
				if ws.cancelled.Load() || ws.env.cancelled() {
					// Cancelled: the files not parsed yet are left.
					ws.cancelled.Store(true)
					return
				}
				if ws.env.reports() && (i+1)%parseProgressEvery == 0 {
					ws.env.progress(int(ws.seen.Load()) + i + 1)
				}
				if f.rev.Size > syntax.MaxSource {
					f.why = whyNotWhole
					continue
				}
				if retained.Add(f.rev.Size) > maxImpactRetained {
					f.why = whyMemory
					continue
				}
				raw, st, err := revisions.ReadVerified(f.abs, f.rev, syntax.MaxSource)
				if err != nil || st != revisions.Same || int64(len(raw)) != f.rev.Size {
					f.why = whyChanged
					continue
				}
				f.data = pipeline.Decode(f.abs, raw, in)
				lang, _ := syntax.Detect(f.path, f.data[:min(len(f.data), 4096)])
				f.parsed, f.err = syntax.Occurrences(lang, f.data, name)
				f.parse = true
			}
		}()
	}
	wg.Wait()
}

// addImpactItems adds a file's occurrences: Group is the role ("test" in
// test code), Label the syntax role and the rule that gave it.
func addImpactItems(b *snapshot.ItemsBuilder, f *impactFile) {
	group := func(role syntax.Role, inTest bool) string {
		if f.test != "" || inTest {
			return string(syntax.RoleTest)
		}
		return string(role)
	}
	if f.parse {
		for _, o := range f.parsed {
			line := lineOf(f.data, o.Line)
			b.Add(snapshot.Item{
				Path: nameOf(f.path), Line: o.Line, EndLine: o.Line, Start: int64(o.Start), End: int64(o.End),
				Group: group(o.Role, o.InTest), Label: string(o.Role) + ": " + o.Detail,
				Text: strconv.Itoa(o.Col) + "\t" + excerpt(line, o.Col-1, o.End-o.Start),
			})
		}
		return
	}
	why := f.why
	if why == "" {
		why = "no parser for this file type"
	}
	for _, o := range f.occ {
		b.Add(snapshot.Item{
			Path: nameOf(f.path), Line: o.line, EndLine: o.line, Start: o.start, End: o.end,
			Group: group(syntax.RoleUnclassified, false), Label: string(syntax.RoleUnclassified) + ": " + why,
			Text: strconv.Itoa(o.col) + "\t" + o.text,
		})
	}
	// The builder, full after MaxItems items, counts what it refuses.
	for i := 0; i < f.dropped && b.Full(); i++ {
		b.Add(snapshot.Item{Path: nameOf(f.path)})
	}
}
