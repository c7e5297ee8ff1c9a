package app

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/cli"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/printer"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/internal/terms"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/walker"
)

// terms implements --terms/--term: one pass of the pipeline with the
// terms' line finder, every occurrence of every term counted per file
// (internal/terms), the files --match keeps printed as rg prints match
// lines (or listed, for none; or as one JSON object per occurrence with
// --json), then a summary with each term's counts over the kept files.
func (r *run) terms(wopts walker.Options) int {
	cfg := r.cfg
	if cfg.ColorError != nil {
		errorLine(r.stderr, cfg.ColorError)
		return exitError
	}
	ts, err := terms.Compile(cfg.Terms, cfg.Matcher.Case)
	if err != nil {
		errorLine(r.stderr, err)
		return exitError
	}
	m := ts.Lines()
	opts := cfg.Pipeline
	opts.Walk = wopts
	opts.Stdin = r.stdin
	opts.Search.Multiline = false
	tot := &termTotals{Totals: terms.NewTotals(ts.Len())}
	var searched atomic.Bool
	err = pipeline.Run(cfg.Paths, &opts, m, func() pipeline.Sink {
		s := &termSink{r: r, ts: ts, scan: terms.NewFileScan(ts), tot: tot, searched: &searched}
		if cfg.Output == cli.OutputStandard && cfg.TermsMatch != terms.MatchNone {
			s.std = printer.NewStandard(&cfg.Printer, m)
		}
		return s
	})
	if err != nil {
		errorLine(r.stderr, err)
		return exitError
	}
	if cfg.UsingDefaultPath && !searched.Load() {
		r.message("No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.")
	}
	if !cfg.Quiet {
		r.outMu.Lock()
		if cfg.Output == cli.OutputJSON {
			_, _ = r.out.Write(termsJSONSummary(cfg, ts, tot.Totals))
		} else {
			_, _ = r.out.Write(termsTextSummary(cfg, ts, tot.Totals, r.anyPrinted))
		}
		r.outMu.Unlock()
	}
	if r.matched.Load() && (cfg.Quiet || !r.errored.Load()) {
		return exitMatch
	}
	if r.errored.Load() {
		return exitError
	}
	return exitNoMatch
}

// termTotals are the run's totals, added to by every worker.
type termTotals struct {
	mu sync.Mutex
	*terms.Totals
}

// termSink is one worker's sink of a multi-term search: the per-file
// term counts, and the output of a kept file (the standard printer's
// lines, or JSON occurrences), emitted when the file is done.
type termSink struct {
	r        *run
	ts       *matcher.TermSet
	scan     *terms.FileScan
	tot      *termTotals
	searched *atomic.Bool
	std      *printer.Standard // nil: JSON, a file list (none) or -q
	path     string
	jsonBuf  []byte
	occ      []matcher.TermRange
}

// Begin implements pipeline.Sink.
func (s *termSink) Begin(e walker.Entry) (bool, bool) {
	s.searched.Store(true)
	if s.r.quit.Load() {
		return false, false
	}
	s.path = s.r.displayPath(e)
	s.scan.Reset()
	s.jsonBuf = s.jsonBuf[:0]
	if s.std != nil {
		s.std.Reset(s.path)
	}
	return true, true
}

// End implements pipeline.Sink.
func (s *termSink) End(e walker.Entry, err error) bool {
	r, cfg := s.r, s.r.cfg
	if err != nil {
		r.message("%s: %s", s.path, err)
		return !r.quit.Load()
	}
	kept := s.scan.Keeps(cfg.TermsMatch)
	s.tot.mu.Lock()
	s.tot.Add(s.scan, kept)
	s.tot.mu.Unlock()
	if !kept {
		return !r.quit.Load()
	}
	r.matched.Store(true)
	switch {
	case cfg.Quiet:
	case cfg.TermsMatch == terms.MatchNone && cfg.Output == cli.OutputJSON:
		r.emit(jsonLine(nil, struct {
			Type string `json:"type"`
			Path string `json:"path"`
		}{"file", s.path}), false)
	case cfg.TermsMatch == terms.MatchNone:
		b := cfg.Printer.FormatPath(s.path)
		if cfg.Printer.NullPath {
			b = append(b, 0)
		} else {
			b = append(b, '\n')
		}
		r.emit(b, false)
	case s.std != nil:
		r.emit(s.std.Bytes(), true)
	default:
		r.emit(s.jsonBuf, false)
	}
	return !r.quit.Load()
}

// Matched implements search.Sink.
func (s *termSink) Matched(sr *search.Searcher, m *search.Match) (bool, error) {
	text := bytes.TrimSuffix(m.Bytes, []byte{'\n'})
	if s.r.cfg.TermsMatch == terms.MatchNone {
		// One term is enough to exclude the file.
		s.scan.Line(text, nil)
		return s.scan.Found() == 0, nil
	}
	if s.std == nil && !s.r.cfg.Quiet {
		s.occ = s.occ[:0]
		s.scan.Line(text, func(t matcher.TermRange) { s.occ = append(s.occ, t) })
		slices.SortFunc(s.occ, func(a, b matcher.TermRange) int {
			if a.Start != b.Start {
				return a.Start - b.Start
			}
			return a.Term - b.Term
		})
		for _, o := range s.occ {
			s.jsonBuf = s.appendJSON(s.jsonBuf, m, text, o)
		}
		return true, nil
	}
	s.scan.Line(text, nil)
	if s.std != nil {
		return s.std.Matched(sr, m)
	}
	return true, nil
}

// appendJSON appends one occurrence's JSON object and a newline. A line
// longer than termsJSONLine bytes is shown by a window of that size
// around the occurrence ("lines".excerpt is the window's byte offset in
// the line), so that a huge line with many occurrences is not written
// whole for each.
func (s *termSink) appendJSON(b []byte, m *search.Match, text []byte, o matcher.TermRange) []byte {
	type data struct {
		Text    string `json:"text,omitempty"`
		Bytes   string `json:"bytes,omitempty"`
		Excerpt *int   `json:"excerpt,omitempty"`
	}
	line := data{}
	if len(text) > termsJSONLine {
		lo := max(0, o.Start-termsJSONLine/4)
		hi := min(len(text), lo+termsJSONLine)
		for lo > 0 && !utf8.RuneStart(text[lo]) {
			lo--
		}
		for hi < len(text) && !utf8.RuneStart(text[hi]) {
			hi--
		}
		text, line.Excerpt = text[lo:hi], &lo
	}
	if utf8.Valid(text) {
		line.Text = string(text)
	} else {
		line.Bytes = base64.StdEncoding.EncodeToString(text)
	}
	v := struct {
		Type      string `json:"type"`
		Term      string `json:"term"`
		TermIndex int    `json:"termIndex"`
		Path      string `json:"path"`
		Line      uint64 `json:"line"`
		Column    int    `json:"column"`
		Offset    int64  `json:"offset"`
		End       int64  `json:"end"`
		Lines     data   `json:"lines"`
	}{"occurrence", s.r.cfg.Terms[o.Term], o.Term, s.path, m.LineNumber, o.Start + 1,
		m.AbsOffset + int64(o.Start), m.AbsOffset + int64(o.End), line}
	return jsonLine(b, v)
}

// Context implements search.Sink.
func (s *termSink) Context(sr *search.Searcher, c *search.Context) (bool, error) {
	if s.std != nil {
		return s.std.Context(sr, c)
	}
	return true, nil
}

// ContextBreak implements search.Sink.
func (s *termSink) ContextBreak(sr *search.Searcher) (bool, error) {
	if s.std != nil {
		return s.std.ContextBreak(sr)
	}
	return true, nil
}

// BinaryData implements search.Sink.
func (s *termSink) BinaryData(sr *search.Searcher, off int64) (bool, error) {
	if s.std != nil {
		return s.std.BinaryData(sr, off)
	}
	return true, nil
}

// Finish implements search.Sink.
func (s *termSink) Finish(sr *search.Searcher, f *search.Finish) error {
	if s.std != nil {
		return s.std.Finish(sr, f)
	}
	return nil
}

// termsTextSummary is the human summary: the rule and file counts, then
// one row per term (its lines, occurrences and files in the kept files).
func termsTextSummary(cfg *cli.Config, ts *matcher.TermSet, t *terms.Totals, printed bool) []byte {
	var b []byte
	if printed {
		b = append(b, '\n')
	}
	verb := map[terms.Match]string{terms.MatchAny: "hold a term", terms.MatchAll: "hold every term", terms.MatchNone: "hold none of the terms"}[cfg.TermsMatch]
	b = fmt.Appendf(b, "%d terms, match %s: %d of %d files searched %s\n", len(cfg.Terms), cfg.TermsMatch, t.Kept, t.Searched, verb)
	if cfg.TermsMatch == terms.MatchNone {
		return b
	}
	for i, term := range cfg.Terms {
		c := t.Terms[i]
		note := ""
		if ts.Folds(i) {
			note = " (case ignored)"
		}
		b = fmt.Appendf(b, "%s%s: %d lines, %d occurrences, %d files\n", strconv.Quote(term), note, c.Lines, c.Occurrences, c.Files)
	}
	return b
}

// termsJSONSummary is --json's last object.
func termsJSONSummary(cfg *cli.Config, ts *matcher.TermSet, t *terms.Totals) []byte {
	type row struct {
		Term        string `json:"term"`
		IgnoreCase  bool   `json:"ignoreCase"`
		Lines       int64  `json:"lines"`
		Occurrences int64  `json:"occurrences"`
		Files       int64  `json:"files"`
	}
	v := struct {
		Type          string `json:"type"`
		Match         string `json:"match"`
		FilesSearched int64  `json:"filesSearched"`
		FilesKept     int64  `json:"filesKept"`
		Terms         []row  `json:"terms"`
	}{Type: "summary", Match: string(cfg.TermsMatch), FilesSearched: t.Searched, FilesKept: t.Kept}
	for i, term := range cfg.Terms {
		c := t.Terms[i]
		v.Terms = append(v.Terms, row{term, ts.Folds(i), c.Lines, c.Occurrences, c.Files})
	}
	return jsonLine(nil, v)
}
