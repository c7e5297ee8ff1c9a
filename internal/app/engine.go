package app

import (
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
	return &engine{Matcher: m, canMatchTerm: cfg.Multiline && m.MatchesMayCross()}, nil
}
