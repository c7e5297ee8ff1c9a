package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/evgrep/evgrep/rank"
)

// Derived queries (-derive): for every tree, a program reads each
// declaration's doc comment (the comment lines at the head of its chunk,
// or a Python docstring after its def line), keeps its first sentence
// without the words shaped like identifiers and without the declared
// name's own words, and labels it with the declaring file (kind
// semantic); and it takes declared names that only one file of the tree
// declares as symbol queries labelled with that file. Test, example,
// vendored and generated files are left out. Candidates are ordered by
// path and name and every k-th is taken, so the set only depends on the
// tree. The output is bench/rank/derived.tsv, committed as it was made.

// derivedPerTree are the doc-comment and symbol queries taken from one tree.
const (
	derivedDocPerTree = 36
	derivedSymPerTree = 12
)

type declInfo struct {
	file, name, kind, doc string
}

// treeDecls lists the declarations of the code files under root.
func treeDecls(root string) ([]declInfo, error) {
	var out []declInfo
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if n := d.Name(); p != root && (strings.HasPrefix(n, ".") || n == "__pycache__") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rank.Classify(rel, false) != rank.Code {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) > rank.MaxFileBytes {
			return nil
		}
		for _, c := range rank.Split(rel, src) {
			if c.Cont || c.Name == "" || c.Kind == rank.KindLines {
				continue
			}
			out = append(out, declInfo{rel, c.Name, c.Kind, docOf(string(src[c.StartByte:c.EndByte]), strings.HasSuffix(rel, ".py"))})
		}
		return nil
	})
	return out, err
}

// docOf is the doc comment of a declaration's chunk text: its leading
// comment lines (//, ///, #, /* */, /** */), or for Python the docstring
// that follows the def or class line.
func docOf(text string, python bool) string {
	lines := strings.Split(text, "\n")
	var doc []string
	if python {
		in := false
		for i, l := range lines {
			t := strings.TrimSpace(l)
			if !in {
				if i == 0 || strings.HasPrefix(t, "@") || strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "class ") || strings.HasPrefix(t, "async def ") || strings.HasSuffix(t, ",") || strings.HasSuffix(t, "(") {
					continue
				}
				for _, q := range []string{`"""`, `r"""`, `'''`} {
					if strings.HasPrefix(t, q) {
						in = true
						t = strings.TrimPrefix(t, q)
						break
					}
				}
				if !in {
					return ""
				}
			}
			end := strings.Contains(t, `"""`) || strings.Contains(t, `'''`)
			t, _, _ = strings.Cut(t, `"""`)
			t, _, _ = strings.Cut(t, `'''`)
			doc = append(doc, t)
			if end || t == "" && len(doc) > 1 {
				break
			}
		}
		return strings.Join(doc, " ")
	}
	block := false
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case block:
			end := strings.Contains(t, "*/")
			t, _, _ = strings.Cut(t, "*/")
			doc = append(doc, strings.TrimLeft(t, "* "))
			if end {
				block = false
			}
		case strings.HasPrefix(t, "/*"):
			t = strings.TrimLeft(strings.TrimPrefix(t, "/*"), "*!")
			if strings.Contains(t, "*/") {
				t, _, _ = strings.Cut(t, "*/")
			} else {
				block = true
			}
			doc = append(doc, t)
		case strings.HasPrefix(t, "//"):
			doc = append(doc, strings.TrimLeft(t, "/! "))
		case strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#include") && !strings.HasPrefix(t, "#define") && !strings.HasPrefix(t, "#if") && !strings.HasPrefix(t, "#[") && !strings.HasPrefix(t, "#!"):
			doc = append(doc, strings.TrimLeft(t, "# "))
		case t == "" && len(doc) == 0:
		default:
			return strings.Join(doc, " ")
		}
	}
	return strings.Join(doc, " ")
}

// docQuery is the query made of a doc comment: its first sentence (tags
// such as @param and license text dropped), without identifier-shaped
// words and without the words of the declared name.
func docQuery(doc, name string) string {
	doc = strings.Join(strings.Fields(doc), " ")
	if i := strings.Index(doc, " @"); i >= 0 {
		doc = doc[:i]
	}
	if strings.HasPrefix(doc, "@") || strings.Contains(strings.ToLower(doc), "license") || strings.Contains(strings.ToLower(doc), "copyright") {
		return ""
	}
	doc = firstSentence(doc)
	own := map[string]bool{strings.ToLower(name): true}
	rank.Tokens(name, func(t string, _ int) { own[t] = true })
	var keep []string
	for _, w := range strings.Fields(stripIdents(doc)) {
		lw := strings.ToLower(w)
		if own[lw] || own[rank.Stem(lw)] || strings.ContainsAny(w, "<>{}#$@|\\") {
			continue
		}
		keep = append(keep, w)
	}
	return strings.Join(keep, " ")
}

// contentWords counts the words of q that are neither stop words nor
// free of letters (a sentence of operators is no query).
func contentWords(q string) int {
	n := 0
	for _, w := range strings.Fields(q) {
		w = strings.ToLower(strings.Trim(w, ",;:.!?-+*\"'"))
		if strings.IndexFunc(w, unicode.IsLetter) >= 0 && !rank.IsStopWord(w) && len(w) > 1 {
			n++
		}
	}
	return n
}

// identShaped reports whether a declared name looks like one a user would
// type as a symbol query: six characters or more, with a case change or
// an underscore.
func identShaped(name string) bool {
	if len(name) < 6 || strings.ContainsAny(name, " ,.:()<>") {
		return false
	}
	lower, upperAfter := false, false
	for _, r := range name {
		if unicode.IsLower(r) {
			lower = true
		} else if unicode.IsUpper(r) && lower {
			upperAfter = true
		}
	}
	return upperAfter || strings.Contains(strings.Trim(name, "_"), "_")
}

// derive writes the derived queries of every tree to out.
func derive(trees []tree, out string) error {
	var b strings.Builder
	b.WriteString("# Derived by a program (go run ./bench/rank -trees DIR -derive), not by hand:\n")
	b.WriteString("# semantic: the first sentence of a declaration's doc comment, without\n")
	b.WriteString("# identifier-shaped words and the declared name's own words (four content\n# words at least), labelled with\n")
	b.WriteString("# its file; symbol: a name that one file of the tree alone declares.\n")
	b.WriteString("#   corpus <TAB> kind <TAB> query <TAB> relevant files\n")
	for _, t := range trees {
		decls, err := treeDecls(t.dir)
		if err != nil {
			return err
		}
		sort.Slice(decls, func(i, j int) bool {
			if decls[i].file != decls[j].file {
				return decls[i].file < decls[j].file
			}
			return decls[i].name < decls[j].name
		})
		textFiles := map[string]map[string]bool{}
		nameFiles := map[string]map[string]bool{}
		add := func(m map[string]map[string]bool, k, f string) {
			if m[k] == nil {
				m[k] = map[string]bool{}
			}
			m[k][f] = true
		}
		type cand struct{ text, file string }
		var docs, syms []cand
		for _, d := range decls {
			add(nameFiles, d.name, d.file)
			if q := docQuery(d.doc, d.name); contentWords(q) >= 4 && len(strings.Fields(q)) <= 30 {
				add(textFiles, q, d.file)
				docs = append(docs, cand{q, d.file})
			}
		}
		seen := map[string]bool{}
		var udocs []cand
		for _, c := range docs {
			if len(textFiles[c.text]) == 1 && !seen[c.text] {
				seen[c.text] = true
				udocs = append(udocs, c)
			}
		}
		for _, d := range decls {
			if identShaped(d.name) && len(nameFiles[d.name]) == 1 && !seen[d.name] {
				seen[d.name] = true
				syms = append(syms, cand{d.name, d.file})
			}
		}
		for _, set := range []struct {
			kind string
			cs   []cand
			n    int
		}{{"semantic", udocs, derivedDocPerTree}, {"symbol", syms, derivedSymPerTree}} {
			step := max(1, len(set.cs)/max(set.n, 1))
			k := 0
			for i := 0; i < len(set.cs) && k < set.n; i += step {
				fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", t.name, set.kind, set.cs[i].text, set.cs[i].file)
				k++
			}
			fmt.Fprintf(os.Stderr, "derive %s: %d %s queries of %d candidates\n", t.name, k, set.kind, len(set.cs))
		}
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}
