package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/evgrep/evgrep/internal/astsearch"
	"github.com/evgrep/evgrep/internal/astsearch/astgreptest"
	"github.com/evgrep/evgrep/structural"
	"github.com/evgrep/evgrep/walker"
)

// testCase is one pattern of cases.txt or one rule file of rules/; lang
// names the tree searched (DIR/LANG).
type testCase struct {
	rule     bool
	rewrite  bool // a rewrite case of rewrites.txt: pattern and template
	lang     string
	pattern  string // a pattern or rewrite case
	template string // a rewrite case
	ruleFile string // a rule case: its path, and its name in keys
	name     string
}

func (c testCase) key() string {
	if c.rule {
		return "rule\t" + c.name
	}
	if c.rewrite {
		return "rewrite\t" + c.lang + "\t" + c.pattern + "\t" + c.template
	}
	return "pattern\t" + c.lang + "\t" + c.pattern
}

// readCaseLines reads a case file of dir: each line that is neither empty
// nor a comment is split at its tabs into want fields (`\n` in a field is
// a newline) and made a case by mk; a repeated case is an error.
func readCaseLines(dir, name string, want int, form string, mk func([]string) testCase) ([]testCase, error) {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []testCase
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := strings.Split(line, "\t")
		if len(p) != want {
			return nil, fmt.Errorf("%s:%d: not %s", name, n, form)
		}
		for i := range p {
			p[i] = strings.ReplaceAll(p[i], `\n`, "\n")
		}
		c := mk(p)
		if seen[c.key()] {
			return nil, fmt.Errorf("%s:%d: a repeated case", name, n)
		}
		seen[c.key()] = true
		out = append(out, c)
	}
	return out, sc.Err()
}

// loadCases reads cases.txt (LANG<TAB>PATTERN a line, `\n` for a newline
// in the pattern) and the rule files of rules/.
func loadCases(dir string) ([]testCase, error) {
	out, err := readCaseLines(dir, "cases.txt", 2, "LANG<TAB>PATTERN", func(p []string) testCase {
		return testCase{lang: p[0], pattern: p[1]}
	})
	if err != nil {
		return nil, err
	}
	files, _ := filepath.Glob(filepath.Join(dir, "rules", "*.yml"))
	sort.Strings(files)
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		rules, err := structural.ParseRules(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		out = append(out, testCase{rule: true, lang: string(rules[0].Lang.Name), ruleFile: p, name: filepath.Base(p)})
	}
	return out, nil
}

// span is one match: a file relative to the tree, its byte range.
type span = astgreptest.Span

// digest is the SHA-256 of the sorted spans, one a line.
func digest(s []span) string { return astgreptest.Digest(s) }

// evgrepSpans runs the case with evgrep's structural search over root.
func evgrepSpans(c testCase, root string) ([]span, error) {
	o := &astsearch.Options{Roots: []string{root}}
	o.Walk = walker.DefaultOptions()
	o.Walk.Threads = runtime.NumCPU()
	if c.rule {
		data, err := os.ReadFile(c.ruleFile)
		if err != nil {
			return nil, err
		}
		rules, err := structural.ParseRules(data)
		if err != nil {
			return nil, err
		}
		o.Lang, o.Rules, o.Literals = rules[0].Lang, rules, rules[0].Literals()
	} else {
		lang, err := structural.LookupLang(c.lang)
		if err != nil {
			return nil, err
		}
		p, err := structural.CompilePattern(lang, c.pattern)
		if err != nil {
			return nil, err
		}
		o.Lang, o.Matcher, o.Literals = lang, p, p.Literals()
	}
	var out []span
	var ferr error
	_, err := astsearch.Run(context.Background(), o, func(f *astsearch.File) {
		if f.Err != nil && ferr == nil {
			ferr = fmt.Errorf("%s: %v", f.Path, f.Err)
		}
		rel, _ := filepath.Rel(root, f.Path)
		for _, m := range f.Matches {
			out = append(out, span{File: filepath.ToSlash(rel), Start: m.Start, End: m.End})
		}
	})
	if err == nil {
		err = ferr
	}
	return out, err
}

// astGrepSpans runs the case with ast-grep (--json=stream) in root.
func astGrepSpans(bin string, c testCase, root string) ([]span, error) {
	args := []string{"run", "--pattern", c.pattern, "--lang", c.lang, "."}
	if c.rule {
		args = []string{"scan", "--rule", c.ruleFile, "."}
	}
	return astgreptest.Run(bin, args, root)
}
