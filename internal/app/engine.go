package app

import (
	"strings"

	"github.com/evgrep/evgrep/internal/cli"
	"github.com/evgrep/evgrep/matcher"
)

// engine is the compiled pattern as the searcher and the printers use it.
type engine struct {
	*matcher.Matcher
	// canMatchTerm reports whether a match may contain the line
	// terminator; only then does -U search whole files across lines (rg's
	// multi_line_with_matcher).
	canMatchTerm bool
}

func newEngine(cfg *cli.Config) (*engine, error) {
	o := matcher.Options{
		Patterns:       cfg.Patterns,
		Fixed:          cfg.Fixed,
		Word:           cfg.Word,
		Line:           cfg.Line,
		Multiline:      cfg.Multiline,
		DotAll:         cfg.DotAll,
		CRLF:           cfg.CRLF,
		LineTerminator: '\n',
		NoUnicode:      cfg.NoUnicode,
	}
	if cfg.NullData && !cfg.Multiline {
		o.LineTerminator = 0
	}
	switch {
	case cfg.IgnoreCase:
		o.Case = matcher.Insensitive
	case cfg.SmartCase:
		o.Case = matcher.Smart
	}
	m, err := matcher.Compile(o)
	if err != nil {
		return nil, err
	}
	e := &engine{Matcher: m}
	if cfg.Multiline {
		e.canMatchTerm = canMatchNewline(cfg)
	}
	return e, nil
}

// canMatchNewline is a conservative reading of the patterns: anything that
// may match '\n' (an escape, a class, dot-all, \s, \p, a negated class).
func canMatchNewline(cfg *cli.Config) bool {
	for _, p := range cfg.Patterns {
		if cfg.Fixed {
			if strings.Contains(p, "\n") {
				return true
			}
			continue
		}
		if cfg.DotAll || strings.ContainsAny(p, "\n[") || strings.Contains(p, `\n`) || strings.Contains(p, `\s`) ||
			strings.Contains(p, `\p`) || strings.Contains(p, `\P`) || strings.Contains(p, `\W`) || strings.Contains(p, `\D`) ||
			strings.Contains(p, `\S`) || strings.Contains(p, "(?s") || strings.Contains(p, `\A`) || strings.Contains(p, `\z`) || strings.Contains(p, `\x`) || strings.Contains(p, `\u`) || strings.Contains(p, "(?") {
			return true
		}
	}
	return false
}
