package cli

import (
	"fmt"
	"strings"

	"github.com/evgrep/evgrep/internal/terms"
)

// hasTerms reports whether the run is a multi-term search (--terms or
// --term).
func hasTerms(a *Args) bool { return a.Has("terms") || a.Has("term") }

// termsConflicts are the flags a multi-term search refuses: they choose
// other patterns, change what a match is, or replace the output form
// that reports each term.
var termsConflicts = []string{
	"regexp", "file", "word-regexp", "line-regexp", "invert-match", "multiline",
	"multiline-dotall", "pcre2", "auto-hybrid-regex", "replace", "count",
	"count-matches", "files-with-matches", "files-without-match", "files",
	"max-count", "passthru", "null-data", "vimgrep", "rev", "changed-since",
}

// termsConfig fills the terms of a multi-term search: the values of
// --terms split at commas and of --term taken verbatim, in command-line
// order, then validated; and --match.
func termsConfig(a *Args, c *Config) error {
	if !hasTerms(a) {
		return fmt.Errorf("--match applies to a multi-term search (--terms or --term)")
	}
	for _, f := range termsConflicts {
		if a.Has(f) {
			return fmt.Errorf("--terms cannot be combined with --%s", f)
		}
	}
	if e, ok := a.Value("engine"); ok && e != "default" {
		return fmt.Errorf("--terms cannot be combined with --engine %s", e)
	}
	var list []string
	for _, fv := range a.InOrder("terms", "term") {
		if fv.Flag == "terms" {
			list = append(list, strings.Split(fv.Value, ",")...)
		} else {
			list = append(list, fv.Value)
		}
	}
	if err := terms.Validate(list); err != nil {
		return err
	}
	m, _ := a.Value("match")
	match, err := terms.ParseMatch(m)
	if err != nil {
		return err
	}
	c.Terms, c.TermsMatch = list, match
	// Matching lines print as path:line:text unless -N says otherwise.
	c.Pipeline.Search.LineNumbers = !a.Has("no-line-number")
	return nil
}
