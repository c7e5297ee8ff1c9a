package app

import (
	"encoding/json"
	"errors"
	"fmt"
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
	lang, m, lits, err := structuralQuery(cfg.Args)
	if err != nil {
		errorLine(r.stderr, err)
		return exitError
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
	_, err = astsearch.Run(&astsearch.Options{
		Roots: cfg.Paths, Walk: wopts, Lang: lang, Matcher: m, Literals: lits,
	}, func(f *astsearch.File) {
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
			b = fmt.Appendf(b, "%s:%d:%d:%s\n", p, pos.Line, pos.Column, astsearch.FirstLine(f.Tree, mt))
		}
		done = append(done, rendered{path: f.Path, out: b})
	})
	if err != nil {
		errorLine(r.stderr, err)
		return exitError
	}
	sort.Slice(done, func(i, j int) bool { return done[i].path < done[j].path })
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
