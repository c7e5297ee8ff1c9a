package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
)

// query is one labelled query.
type query struct {
	set      string // "generated", "hand-goroot", "hand-repo"
	corpus   string // "goroot" or "repo"
	text     string
	relevant map[string]bool
}

// split is "dev" or "test", by a hash of the query's text.
func (q *query) split() string {
	h := fnv.New32a()
	h.Write([]byte(q.corpus + "\x00" + q.text))
	if h.Sum32()%2 == 0 {
		return "dev"
	}
	return "test"
}

// handWritten reads queries.tsv.
func handWritten(path string) ([]query, error) {
	var out []query
	err := readTSV(path, func(n int, cols []string) error {
		if len(cols) != 3 || cols[0] != "goroot" && cols[0] != "repo" {
			return fmt.Errorf("%s:%d: want corpus<TAB>query<TAB>files", path, n)
		}
		q := query{set: "hand-" + cols[0], corpus: cols[0], text: cols[1], relevant: map[string]bool{}}
		for _, r := range strings.Split(cols[2], ",") {
			q.relevant[strings.TrimSpace(r)] = true
		}
		out = append(out, q)
		return nil
	})
	return out, err
}

// readTSV calls each with the 1-based number and the tab-separated
// columns of every line of path that is not empty or a # comment; the
// first error it returns ends the read.
func readTSV(path string, each func(n int, cols []string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := each(n, strings.Split(line, "\t")); err != nil {
			return err
		}
	}
	return sc.Err()
}

// generatedQueries makes n queries from GOROOT/src: the first sentence of
// each exported function's or method's doc comment (outside tests, test
// data, vendored code and commands), with every word that looks like an
// identifier (any upper-case letter, an underscore, a dot or a bracket
// inside) removed; at least five words must remain. Sentences that occur
// in more than one file are left out (their label would be a guess). The
// candidates are ordered by path and name and every k-th is taken, so the
// set is the same on every run over the same tree.
func generatedQueries(root string, n int) ([]query, error) {
	type cand struct{ file, name, text string }
	var cands []cand
	files := map[string]map[string]bool{} // sentence → files
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			base := d.Name()
			if base == "testdata" || base == "vendor" || strings.HasPrefix(base, "_") || strings.HasPrefix(base, ".") {
				return filepath.SkipDir
			}
			return nil
		}
		// Commands are read for the duplicate check only (go/types and
		// cmd/compile/internal/types2 share their doc comments).
		onlyCheck := strings.HasPrefix(rel, "cmd/")
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Doc == nil || !fd.Name.IsExported() {
				continue
			}
			text := stripIdents(firstSentence(fd.Doc.Text()))
			if len(strings.Fields(text)) < 5 {
				continue
			}
			if !onlyCheck {
				cands = append(cands, cand{rel, fd.Name.Name, text})
			}
			if files[text] == nil {
				files[text] = map[string]bool{}
			}
			files[text][rel] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var unique []cand
	seen := map[string]bool{}
	for _, c := range cands {
		if len(files[c.text]) == 1 && !seen[c.text] {
			seen[c.text] = true
			unique = append(unique, c)
		}
	}
	sort.Slice(unique, func(i, j int) bool {
		if unique[i].file != unique[j].file {
			return unique[i].file < unique[j].file
		}
		return unique[i].name < unique[j].name
	})
	if n <= 0 || len(unique) == 0 {
		return nil, nil
	}
	step := max(1, len(unique)/n)
	var out []query
	for i := 0; i < len(unique) && len(out) < n; i += step {
		c := unique[i]
		out = append(out, query{set: "generated", corpus: "goroot", text: c.text, relevant: map[string]bool{c.file: true}})
	}
	return out, nil
}

// firstSentence is a doc comment's text up to its first ". " or line end
// after a full stop, on one line.
func firstSentence(doc string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, ". "); i >= 0 {
		doc = doc[:i]
	}
	return strings.TrimSuffix(doc, ".")
}

// stripIdents removes the words that look like identifiers.
func stripIdents(s string) string {
	var keep []string
	for _, w := range strings.Fields(s) {
		core := strings.Trim(w, ",;:()\"'`")
		if core == "" || strings.ContainsAny(core, "_.()[]{}*&=<>`/") || strings.IndexFunc(core, unicode.IsUpper) >= 0 || strings.IndexFunc(core, unicode.IsDigit) >= 0 {
			continue
		}
		keep = append(keep, core)
	}
	return strings.Join(keep, " ")
}
