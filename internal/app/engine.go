package app

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/evgrep/evgrep/internal/cli"
	"github.com/evgrep/evgrep/internal/printer"
)

// engine adapts the compiled pattern to the searcher and the printers.
type engine struct {
	re           *regexp.Regexp
	canMatchTerm bool
	term         byte
}

func newEngine(cfg *cli.Config) (*engine, error) {
	var pats []string
	for _, p := range cfg.Patterns {
		if cfg.Fixed {
			p = regexp.QuoteMeta(p)
		}
		if cfg.Line {
			p = "^(?:" + p + ")$"
		}
		if p == "" {
			p = "(?:)"
		}
		pats = append(pats, p)
	}
	pat := strings.Join(pats, "|")
	if cfg.Word {
		pat = `\b(?:` + pat + `)\b`
	}
	flags := "(?m)"
	if cfg.IgnoreCase || (cfg.SmartCase && strings.ToLower(pat) == pat) {
		flags += "(?i)"
	}
	re, err := regexp.Compile(flags + pat)
	if err != nil {
		return nil, err
	}
	return &engine{re: re, canMatchTerm: strings.Contains(pat, `\n`), term: '\n'}, nil
}

func (e *engine) NextLine(buf []byte, from int) (int, int, bool) {
	for ls := from; ls < len(buf); {
		le := bytes.IndexByte(buf[ls:], e.term)
		var end int
		if le < 0 {
			end = len(buf)
		} else {
			end = ls + le + 1
		}
		line := buf[ls:end]
		if len(line) > 0 && line[len(line)-1] == e.term {
			line = line[:len(line)-1]
		}
		if e.re.Match(line) {
			return ls, end, true
		}
		ls = end
	}
	return 0, 0, false
}

func (e *engine) IsMatch(line []byte) bool { return e.re.Match(line) }

func (e *engine) Find(buf []byte) (int, int, bool) {
	loc := e.re.FindIndex(buf)
	if loc == nil {
		return 0, 0, false
	}
	return loc[0], loc[1], true
}

func (e *engine) FindIter(hay []byte, from int, fn func(int, int) bool) {
	for _, loc := range e.re.FindAllIndex(hay[from:], -1) {
		if !fn(loc[0]+from, loc[1]+from) {
			return
		}
	}
}

func (e *engine) Replace(dst, hay []byte, from, to int, template []byte, ranges []printer.Range) ([]byte, []printer.Range) {
	last := from
	for _, loc := range e.re.FindAllSubmatchIndex(hay[from:], -1) {
		if loc[0]+from >= to {
			break
		}
		dst = append(dst, hay[last:loc[0]+from]...)
		s := len(dst)
		dst = e.re.Expand(dst, template, hay[from:], loc)
		ranges = append(ranges, printer.Range{Start: s - 0, End: len(dst)})
		last = loc[1] + from
	}
	dst = append(dst, hay[last:min(len(hay), to)]...)
	return dst, ranges
}
