package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/evgrep/evgrep/internal/astsearch"
	"github.com/evgrep/evgrep/internal/cli"
	"github.com/evgrep/evgrep/internal/textpos"
	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/structural"
	"github.com/evgrep/evgrep/walker"
)

// structuralQuery compiles --ast and --kind with --lang (one compiler with
// the agent's: astsearch.Query).
func structuralQuery(f cli.StructuralFlags) (*structural.Lang, structural.Matcher, []string, error) {
	lang, m, lits, _, err := astsearch.Query{Lang: f.Lang, Pattern: f.Pattern, Kind: f.Kind}.Compile()
	switch {
	case errors.Is(err, astsearch.ErrNoLang):
		return nil, nil, nil, errors.New("--ast and --kind need --lang (one of " + strings.Join(structural.LangNames(), ", ") + ")")
	case errors.Is(err, astsearch.ErrNothing):
		return nil, nil, nil, errors.New("--lang needs --ast PATTERN or --kind KIND")
	}
	return lang, m, lits, err
}

// structuralSearch implements --ast/--kind: rg-style lines
// path:line:column:first line of the match, or with --json one object
// per match. Files are printed in path order, matches in source order.
func (r *run) structuralSearch(wopts walker.Options) int {
	cfg := r.cfg
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(structuralGCPercent)
	}
	type query struct {
		lang  *structural.Lang
		m     structural.Matcher
		rules []*structural.Rule
		lits  []string
	}
	var queries []query
	if files := cfg.Structural.Rules; len(files) > 0 {
		if cfg.Structural.Pattern != "" || cfg.Structural.Kind != "" {
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
		lang, m, lits, err := structuralQuery(cfg.Structural)
		if err != nil {
			errorLine(r.stderr, err)
			return exitError
		}
		queries = append(queries, query{lang: lang, m: m, lits: lits})
	}
	tmpl, rewriting := cfg.Structural.Rewrite, cfg.Structural.Rewriting
	// --rule with --apply and no --rewrite writes the rules' own fixes.
	var allRules []*structural.Rule
	for _, q := range queries {
		allRules = append(allRules, q.rules...)
	}
	fixing := !rewriting && cfg.Structural.Apply && len(allRules) > 0
	// Each file keeps its bytes and its matches (or, for --rewrite, its
	// edits), not its tree nor any rendered text; after the walk the files
	// are printed in path order, match by match, straight to the output,
	// so memory is what the matches need and never what they print.
	var done []*keptFile
	each := func(f *astsearch.File) {
		if f.Err != nil {
			errorLine(r.stderr, fmt.Sprintf("%s: %v", f.Path, f.Err))
			r.errored.Store(true)
		}
		if f.Tree == nil || len(f.Matches) == 0 {
			return
		}
		k := &keptFile{path: f.Path, src: f.Src, rev: f.Rev}
		switch {
		case rewriting:
			k.edits = astsearch.Edits(f, tmpl)
		case fixing:
			k.edits = astsearch.FixEdits(f, allRules)
		case !cfg.JSON && compactText(k, f):
			// The text form's rows are smaller than the file: they are
			// kept instead of its bytes.
		default:
			k.matches = f.Matches
			for i := range k.matches {
				for j := range k.matches[i].Vars {
					k.matches[i].Vars[j].Nodes = nil // indices into the tree, which is not kept
				}
			}
		}
		done = append(done, k)
	}
	for _, q := range queries {
		_, err := astsearch.Run(context.Background(), &astsearch.Options{
			Roots: cfg.Paths, Walk: wopts, Lang: q.lang, Matcher: q.m, Rules: q.rules, Literals: q.lits,
		}, each)
		if err != nil {
			errorLine(r.stderr, err)
			return exitError
		}
	}
	sort.SliceStable(done, func(i, j int) bool { return done[i].path < done[j].path })
	if rewriting || fixing {
		return r.rewrite(done)
	}
	matched := len(done) > 0
	r.printStructural(done, cfg.JSON)
	switch {
	case r.errored.Load() && !matched:
		return exitError
	case matched:
		return exitMatch
	}
	return exitNoMatch
}

// keptFile is what a structural search keeps of a file with matches until
// it is printed.
type keptFile struct {
	path    string
	src     []byte
	rev     revisions.Revision
	matches []structural.Match
	edits   []astsearch.Edit
	// rows are the text form's matches when they take less than the
	// file (src is then nil): position, rule, and the match's first line
	// in text[rows[i].from:rows[i].to].
	rows []textRow
	text []byte
}

// textRow is one match of the text form, kept without its file.
type textRow struct {
	line, col int
	rule      string
	from, to  int
}

// compactText keeps the text form's rows of f's matches in k, in place of
// its bytes, when their first lines together take at most half the file
// (nested matches on one line would take more: then the bytes are kept).
func compactText(k *keptFile, f *astsearch.File) bool {
	n := 0
	for i := range f.Matches {
		n += len(astsearch.FirstLine(f.Src, &f.Matches[i]))
	}
	if n > len(f.Src)/2 {
		return false
	}
	lines := textpos.NewMapper(f.Src)
	k.text = make([]byte, 0, n)
	k.rows = make([]textRow, len(f.Matches))
	for i := range f.Matches {
		mt := &f.Matches[i]
		pos := lines.Position(mt.Start)
		from := len(k.text)
		k.text = append(k.text, astsearch.FirstLine(f.Src, mt)...)
		k.rows[i] = textRow{line: pos.Line, col: pos.Column, rule: mt.Rule, from: from, to: len(k.text)}
	}
	k.src = nil
	return true
}

// printStructural writes the matches of files, in their order, one match
// at a time; it stops at the first failed write (a closed pipe).
func (r *run) printStructural(files []*keptFile, asJSON bool) {
	var line []byte
	for _, f := range files {
		p := f.path
		if r.cfg.UsingDefaultPath {
			p = strings.TrimPrefix(p, "./")
		}
		for _, row := range f.rows {
			line = fmt.Appendf(line[:0], "%s:%d:%d:", p, row.line, row.col)
			if row.rule != "" {
				line = fmt.Appendf(line, "[%s] ", row.rule)
			}
			line = append(append(line, f.text[row.from:row.to]...), '\n')
			if _, err := r.out.Write(line); err != nil {
				return
			}
		}
		f.rows, f.text = nil, nil
		lines := textpos.NewMapper(f.src)
		for i := range f.matches {
			mt := &f.matches[i]
			line = line[:0]
			if asJSON {
				line = jsonLine(line[:0], astsearch.JSONMatch(p, f.src, lines, mt))
			} else {
				pos := lines.Position(mt.Start)
				line = fmt.Appendf(line, "%s:%d:%d:", p, pos.Line, pos.Column)
				if mt.Rule != "" {
					line = fmt.Appendf(line, "[%s] ", mt.Rule)
				}
				line = append(append(line, astsearch.FirstLine(f.src, mt)...), '\n')
			}
			if _, err := r.out.Write(line); err != nil {
				return
			}
			if cap(line) > maxKeptLine {
				line = nil // one huge line's buffer is not kept for the rest
			}
		}
		f.src, f.matches = nil, nil
	}
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
