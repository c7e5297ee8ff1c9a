package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/evgrep/evgrep/internal/astsearch"
	"github.com/evgrep/evgrep/structural"
	"github.com/evgrep/evgrep/walker"
)

// structuralQuery compiles --ast, --kind and --rule with --lang into one
// matcher and the literals that prefilter files.
func structuralQuery(a interface {
	Value(string) (string, bool)
	Values(string) []string
	Has(string) bool
}) (*structural.Lang, structural.Matcher, []string, error) {
	name, ok := a.Value("lang")
	if !ok {
		return nil, nil, nil, errors.New("--ast and --kind need --lang (one of " + strings.Join(structural.LangNames(), ", ") + ")")
	}
	lang, err := structural.LookupLang(name)
	if err != nil {
		return nil, nil, nil, err
	}
	var ms []structural.Matcher
	var lits []string
	if p, ok := a.Value("ast"); ok {
		pat, err := structural.CompilePattern(lang, p)
		if err != nil {
			return nil, nil, nil, err
		}
		ms = append(ms, pat)
		lits = pat.Literals()
	}
	if k, ok := a.Value("kind"); ok {
		km, err := structural.NewKindMatcher(lang, k)
		if err != nil {
			return nil, nil, nil, err
		}
		ms = append(ms, km)
	}
	if len(ms) == 0 {
		return nil, nil, nil, errors.New("--lang needs --ast PATTERN or --kind KIND")
	}
	return lang, structural.All(ms...), lits, nil
}

// structuralSearch implements --ast/--kind: rg-style lines
// path:line:column:first line of the match, or with --json one object
// per match. Files are printed in path order, matches in source order.
func (r *run) structuralSearch(wopts walker.Options) int {
	cfg := r.cfg
	type query struct {
		lang  *structural.Lang
		m     structural.Matcher
		rules []*structural.Rule
		lits  []string
	}
	var queries []query
	if files := cfg.Args.Values("rule"); len(files) > 0 {
		if cfg.Args.Has("ast") || cfg.Args.Has("kind") {
			errorLine(r.stderr, "--rule cannot be combined with --ast or --kind")
			return exitError
		}
		byLang := map[*structural.Lang][]*structural.Rule{}
		var order []*structural.Lang
		for _, name := range files {
			data, err := readRuleFile(name)
			if err != nil {
				errorLine(r.stderr, fmt.Sprintf("%s: %v", name, err))
				return exitError
			}
			rules, err := structural.ParseRules(data)
			if err != nil {
				errorLine(r.stderr, fmt.Sprintf("%s: %v", name, err))
				return exitError
			}
			for _, ru := range rules {
				if ru.Severity == "off" {
					continue
				}
				if byLang[ru.Lang] == nil {
					order = append(order, ru.Lang)
				}
				byLang[ru.Lang] = append(byLang[ru.Lang], ru)
			}
		}
		for _, l := range order {
			q := query{lang: l, rules: byLang[l]}
			if len(q.rules) == 1 {
				q.lits = q.rules[0].Literals()
			}
			queries = append(queries, q)
		}
	} else {
		lang, m, lits, err := structuralQuery(cfg.Args)
		if err != nil {
			errorLine(r.stderr, err)
			return exitError
		}
		queries = append(queries, query{lang: lang, m: m, lits: lits})
	}
	_, rewriting := cfg.Args.Value("rewrite")
	asJSON := cfg.Args.Has("json")
	// Each file is rendered as it comes (its tree is not kept), then the
	// files are printed in path order.
	type rendered struct {
		path string
		out  []byte
		file *astsearch.File // kept only for --rewrite
	}
	var done []rendered
	each := func(f *astsearch.File) {
		if f.Err != nil {
			errorLine(r.stderr, fmt.Sprintf("%s: %v", f.Path, f.Err))
			r.errored.Store(true)
		}
		if f.Tree == nil || len(f.Matches) == 0 {
			return
		}
		if rewriting {
			done = append(done, rendered{path: f.Path, file: f})
			return
		}
		p := f.Path
		if cfg.UsingDefaultPath {
			p = strings.TrimPrefix(p, "./")
		}
		var b []byte
		lines := astsearch.NewLines(f.Src)
		for i := range f.Matches {
			mt := &f.Matches[i]
			if asJSON {
				j, _ := json.Marshal(astsearch.JSONMatch(p, f, lines, mt))
				b = append(append(b, j...), '\n')
				continue
			}
			pos := lines.At(mt.Start)
			if mt.Rule != "" {
				b = fmt.Appendf(b, "%s:%d:%d:[%s] %s\n", p, pos.Line, pos.Column, mt.Rule, astsearch.FirstLine(f.Tree, mt))
				continue
			}
			b = fmt.Appendf(b, "%s:%d:%d:%s\n", p, pos.Line, pos.Column, astsearch.FirstLine(f.Tree, mt))
		}
		done = append(done, rendered{path: f.Path, out: b})
	}
	for _, q := range queries {
		_, err := astsearch.Run(&astsearch.Options{
			Roots: cfg.Paths, Walk: wopts, Lang: q.lang, Matcher: q.m, Rules: q.rules, Literals: q.lits,
		}, each)
		if err != nil {
			errorLine(r.stderr, err)
			return exitError
		}
	}
	sort.SliceStable(done, func(i, j int) bool { return done[i].path < done[j].path })
	if rewriting {
		files := make([]*astsearch.File, len(done))
		for i := range done {
			files[i] = done[i].file
		}
		return r.rewrite(files)
	}
	matched := len(done) > 0
	for _, d := range done {
		r.out.Write(d.out)
	}
	switch {
	case r.errored.Load() && !matched:
		return exitError
	case matched:
		return exitMatch
	}
	return exitNoMatch
}

// readRuleFile reads a --rule file, bounded.
func readRuleFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, structural.MaxRuleFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > structural.MaxRuleFile {
		return nil, fmt.Errorf("over the %d KiB cap of a rule file", structural.MaxRuleFile>>10)
	}
	return data, nil
}
