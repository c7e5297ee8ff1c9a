package app

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/evgrep/evgrep/internal/cli"
	"github.com/evgrep/evgrep/internal/printer"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/matcher/pcre2"
)

// patternMatcher is what a search needs from a compiled pattern, whichever
// engine compiled it (*matcher.Matcher or *pcre2.Matcher). The searcher and
// printers already call matchers through their own interfaces, so choosing
// the engine here adds no indirection to the default engine's hot path.
type patternMatcher interface {
	search.Matcher
	printer.Matcher
	// MatchesMayCross decides whether -U searches whole buffers.
	MatchesMayCross() bool
}

// compileMatcher compiles the patterns with the engine cfg selects, as
// rg's HiArgs::matcher: auto mode uses the default engine and falls back to
// PCRE2 only when the default engine cannot compile the pattern.
func compileMatcher(cfg *cli.Config) (patternMatcher, error) {
	switch cfg.Engine {
	case cli.EnginePCRE2:
		return pcre2.Compile(cfg.Matcher)
	case cli.EngineAuto:
		m, defErr := matcher.Compile(cfg.Matcher)
		if defErr == nil {
			return m, nil
		}
		p, pcreErr := pcre2.Compile(cfg.Matcher)
		if pcreErr == nil {
			return p, nil
		}
		divider := strings.Repeat("~", 79)
		return nil, fmt.Errorf("regex could not be compiled with either the default regex engine or with PCRE2.\n\n"+
			"default regex engine error:\n%s\n%s\n%s\n\nPCRE2 regex engine error:\n%s", divider, defErr, divider, pcreErr)
	}
	return matcher.Compile(cfg.Matcher)
}

// keepsPartialOutput reports whether what was printed for a file before
// the matcher gave up on it (PCRE2's match limit) is still shown, as rg
// does when it searches sequentially (one thread, or one file or stdin)
// and so prints straight to stdout; its parallel search prints each file's
// output only once the file's search succeeded.
func (r *run) keepsPartialOutput(err error) bool {
	var abort interface{ SearchAbort() }
	if !errors.As(err, &abort) {
		return false
	}
	if r.cfg.Pipeline.Walk.Threads == 1 {
		return true
	}
	if len(r.cfg.Paths) != 1 {
		return false
	}
	if r.cfg.Paths[0] == "-" {
		return true
	}
	st, serr := os.Stat(r.cfg.Paths[0])
	return serr == nil && st.Mode().IsRegular()
}
