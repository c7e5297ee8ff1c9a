package agent

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/syntax"
)

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
	meta := navMeta(t, snapshot.AnalysisTests, run.walk.searched(), run.over, notes)
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
