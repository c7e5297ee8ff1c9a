// Package cli parses ripgrep's command line (15.2's flags) into a Config.
//
// The parser is written for rg's exact semantics rather than taken from a
// general flag library: rg lets a flag override another named flag ("-s"
// cancels an earlier "-i", "-l" an earlier "-c", as rg 15's own parser
// does; rg 13's clap 2 had the same rule),
// lets every single-valued flag override itself (the last value wins),
// counts repeated switches ("-uuu"), accepts values glued to short flags
// ("-A1", "-j=2") and lets some values start with a dash ("-e -foo"). No Go
// flag package models overrides between different flags, which is what
// decides the meaning of most real rg command lines.
package cli

import (
	"fmt"
	"slices"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/printer"
)

// flagDef describes one rg flag.
type flagDef struct {
	long      string
	short     byte
	value     bool     // takes a value
	multiple  bool     // every value counts (else the last one wins)
	hyphen    bool     // the value may begin with '-'
	number    bool     // the value must parse as an unsigned integer
	possible  []string // allowed values, when restricted
	overrides []string
	aliases   []string
	// check, when set, validates the value where the flag stands, as rg
	// 15 does: its error is reported as "error parsing flag F: ERR".
	check func(string) error
}

// flagTable lists every flag of ripgrep 15.2 (including hidden negations) plus
// evgrep's own additions, which never change the output of rg's flags.
var flagTable = []flagDef{
	{long: "after-context", short: 'A', value: true, number: true, overrides: []string{"passthru"}},
	{long: "auto-hybrid-regex", overrides: []string{"no-auto-hybrid-regex", "pcre2", "no-pcre2", "engine"}},
	{long: "no-auto-hybrid-regex", overrides: []string{"auto-hybrid-regex", "pcre2", "no-pcre2", "engine"}},
	{long: "before-context", short: 'B', value: true, number: true, overrides: []string{"passthru"}},
	{long: "binary", overrides: []string{"no-binary", "text", "no-text"}},
	{long: "no-binary", overrides: []string{"binary", "text", "no-text"}},
	{long: "block-buffered", overrides: []string{"no-block-buffered", "line-buffered", "no-line-buffered"}},
	{long: "no-block-buffered", overrides: []string{"block-buffered", "line-buffered", "no-line-buffered"}},
	{long: "byte-offset", short: 'b', overrides: []string{"no-byte-offset"}},
	{long: "no-byte-offset", overrides: []string{"byte-offset"}},
	{long: "case-sensitive", short: 's', overrides: []string{"ignore-case", "smart-case"}},
	{long: "color", value: true, possible: []string{"never", "auto", "always", "ansi"}},
	{long: "colors", value: true, multiple: true, check: checkColor},
	{long: "column", overrides: []string{"no-column"}},
	{long: "no-column", overrides: []string{"column"}},
	{long: "context", short: 'C', value: true, number: true, overrides: []string{"passthru"}},
	{long: "context-separator", value: true, overrides: []string{"no-context-separator"}},
	{long: "no-context-separator", overrides: []string{"context-separator"}},
	{long: "count", short: 'c', overrides: []string{"count-matches"}},
	{long: "count-matches", overrides: []string{"count"}},
	{long: "crlf", overrides: []string{"no-crlf", "null-data"}},
	{long: "no-crlf", overrides: []string{"crlf"}},
	{long: "debug"},
	{long: "trace", overrides: []string{"debug"}},
	{long: "dfa-size-limit", value: true, check: checkSize},
	{long: "encoding", short: 'E', value: true, check: checkEncoding},
	{long: "no-encoding", overrides: []string{"encoding"}},
	{long: "engine", value: true, possible: []string{"default", "pcre2", "auto"}, overrides: []string{"pcre2", "no-pcre2", "auto-hybrid-regex", "no-auto-hybrid-regex"}},
	{long: "field-context-separator", value: true},
	{long: "field-match-separator", value: true},
	{long: "file", short: 'f', value: true, multiple: true, hyphen: true},
	{long: "files"},
	{long: "files-with-matches", short: 'l', overrides: []string{"files-without-match"}},
	{long: "files-without-match", overrides: []string{"files-with-matches"}},
	{long: "fixed-strings", short: 'F', overrides: []string{"no-fixed-strings"}},
	{long: "no-fixed-strings", overrides: []string{"fixed-strings"}},
	{long: "follow", short: 'L', overrides: []string{"no-follow"}},
	{long: "no-follow", overrides: []string{"follow"}},
	{long: "generate", value: true, possible: []string{"man", "complete-bash", "complete-zsh", "complete-fish", "complete-powershell"}},
	{long: "glob", short: 'g', value: true, multiple: true, hyphen: true},
	{long: "glob-case-insensitive", overrides: []string{"no-glob-case-insensitive"}},
	{long: "no-glob-case-insensitive", overrides: []string{"glob-case-insensitive"}},
	{long: "heading", overrides: []string{"no-heading"}},
	{long: "no-heading", overrides: []string{"heading"}},
	{long: "help", short: 'h'},
	{long: "hidden", short: '.', overrides: []string{"no-hidden"}},
	{long: "no-hidden", overrides: []string{"hidden"}},
	{long: "hostname-bin", value: true},
	{long: "hyperlink-format", value: true},
	{long: "iglob", value: true, multiple: true, hyphen: true},
	{long: "ignore-case", short: 'i', overrides: []string{"case-sensitive", "smart-case"}},
	{long: "ignore-file", value: true, multiple: true, hyphen: true},
	{long: "ignore-file-case-insensitive", overrides: []string{"no-ignore-file-case-insensitive"}},
	{long: "no-ignore-file-case-insensitive", overrides: []string{"ignore-file-case-insensitive"}},
	{long: "include-zero", overrides: []string{"no-include-zero"}},
	{long: "no-include-zero", overrides: []string{"include-zero"}},
	{long: "invert-match", short: 'v', overrides: []string{"no-invert-match"}},
	{long: "no-invert-match", overrides: []string{"invert-match"}},
	{long: "json", overrides: []string{"no-json"}},
	{long: "no-json", overrides: []string{"json"}},
	{long: "line-buffered", overrides: []string{"no-line-buffered", "block-buffered", "no-block-buffered"}},
	{long: "no-line-buffered", overrides: []string{"line-buffered", "block-buffered", "no-block-buffered"}},
	{long: "line-number", short: 'n', overrides: []string{"no-line-number"}},
	{long: "no-line-number", short: 'N', overrides: []string{"line-number"}},
	{long: "line-regexp", short: 'x', overrides: []string{"word-regexp"}},
	{long: "max-columns", short: 'M', value: true, number: true},
	{long: "max-columns-preview", overrides: []string{"no-max-columns-preview"}},
	{long: "no-max-columns-preview", overrides: []string{"max-columns-preview"}},
	{long: "max-count", short: 'm', value: true, number: true},
	{long: "max-depth", short: 'd', value: true, number: true, aliases: []string{"maxdepth"}},
	{long: "max-filesize", value: true, check: checkSize},
	{long: "mmap", overrides: []string{"no-mmap"}},
	{long: "no-mmap", overrides: []string{"mmap"}},
	{long: "multiline", short: 'U', overrides: []string{"no-multiline", "stop-on-nonmatch"}},
	{long: "no-multiline", overrides: []string{"multiline"}},
	{long: "multiline-dotall", overrides: []string{"no-multiline-dotall"}},
	{long: "no-multiline-dotall", overrides: []string{"multiline-dotall"}},
	{long: "no-config"},
	{long: "no-ignore", overrides: []string{"ignore"}},
	{long: "ignore", overrides: []string{"no-ignore"}},
	{long: "no-ignore-dot", overrides: []string{"ignore-dot"}},
	{long: "ignore-dot", overrides: []string{"no-ignore-dot"}},
	{long: "no-ignore-exclude", overrides: []string{"ignore-exclude"}},
	{long: "ignore-exclude", overrides: []string{"no-ignore-exclude"}},
	{long: "no-ignore-files", overrides: []string{"ignore-files"}},
	{long: "ignore-files", overrides: []string{"no-ignore-files"}},
	{long: "no-ignore-global", overrides: []string{"ignore-global"}},
	{long: "ignore-global", overrides: []string{"no-ignore-global"}},
	{long: "no-ignore-messages", overrides: []string{"ignore-messages"}},
	{long: "ignore-messages", overrides: []string{"no-ignore-messages"}},
	{long: "no-ignore-parent", overrides: []string{"ignore-parent"}},
	{long: "ignore-parent", overrides: []string{"no-ignore-parent"}},
	{long: "no-ignore-vcs", overrides: []string{"ignore-vcs"}},
	{long: "ignore-vcs", overrides: []string{"no-ignore-vcs"}},
	{long: "no-messages", overrides: []string{"messages"}},
	{long: "messages", overrides: []string{"no-messages"}},
	{long: "no-pcre2-unicode", overrides: []string{"pcre2-unicode", "unicode"}},
	{long: "pcre2-unicode", overrides: []string{"no-pcre2-unicode", "no-unicode"}},
	{long: "no-require-git", overrides: []string{"require-git"}},
	{long: "require-git", overrides: []string{"no-require-git"}},
	{long: "no-unicode", overrides: []string{"unicode", "pcre2-unicode"}},
	{long: "unicode", overrides: []string{"no-unicode", "no-pcre2-unicode"}},
	{long: "null", short: '0'},
	{long: "null-data", overrides: []string{"crlf"}},
	{long: "one-file-system", overrides: []string{"no-one-file-system"}},
	{long: "no-one-file-system", overrides: []string{"one-file-system"}},
	{long: "only-matching", short: 'o'},
	{long: "path-separator", value: true},
	{long: "passthru", overrides: []string{"after-context", "before-context", "context"}, aliases: []string{"passthrough"}},
	{long: "pcre2", short: 'P', overrides: []string{"no-pcre2", "auto-hybrid-regex", "no-auto-hybrid-regex", "engine"}},
	{long: "no-pcre2", overrides: []string{"pcre2", "auto-hybrid-regex", "no-auto-hybrid-regex", "engine"}},
	{long: "pcre2-version"},
	{long: "pre", value: true, overrides: []string{"no-pre", "search-zip"}},
	{long: "no-pre", overrides: []string{"pre"}},
	{long: "pre-glob", value: true, multiple: true, hyphen: true},
	{long: "pretty", short: 'p'},
	{long: "quiet", short: 'q'},
	{long: "regex-size-limit", value: true, check: checkSize},
	{long: "regexp", short: 'e', value: true, multiple: true, hyphen: true},
	{long: "replace", short: 'r', value: true, hyphen: true},
	{long: "search-zip", short: 'z', overrides: []string{"no-search-zip", "pre"}},
	{long: "no-search-zip", overrides: []string{"search-zip"}},
	{long: "smart-case", short: 'S', overrides: []string{"case-sensitive", "ignore-case"}},
	{long: "sort-files", overrides: []string{"no-sort-files", "sort", "sortr"}},
	{long: "no-sort-files", overrides: []string{"sort-files", "sort", "sortr"}},
	{long: "sort", value: true, possible: []string{"path", "modified", "accessed", "created", "none"}, overrides: []string{"sortr", "sort-files", "no-sort-files"}},
	{long: "sortr", value: true, possible: []string{"path", "modified", "accessed", "created", "none"}, overrides: []string{"sort", "sort-files", "no-sort-files"}},
	{long: "stop-on-nonmatch", overrides: []string{"multiline"}},
	{long: "stats", overrides: []string{"no-stats"}},
	{long: "no-stats", overrides: []string{"stats"}},
	{long: "text", short: 'a', overrides: []string{"no-text", "binary", "no-binary"}},
	{long: "no-text", overrides: []string{"text", "binary", "no-binary"}},
	{long: "threads", short: 'j', value: true, number: true},
	{long: "trim", overrides: []string{"no-trim"}},
	{long: "no-trim", overrides: []string{"trim"}},
	{long: "type", short: 't', value: true, multiple: true},
	{long: "type-add", value: true, multiple: true},
	{long: "type-clear", value: true, multiple: true},
	{long: "type-not", short: 'T', value: true, multiple: true},
	{long: "type-list"},
	{long: "unrestricted", short: 'u', multiple: true},
	{long: "version", short: 'V'},
	{long: "vimgrep"},
	{long: "with-filename", short: 'H', overrides: []string{"no-filename"}},
	{long: "no-filename", short: 'I', overrides: []string{"with-filename"}},
	{long: "word-regexp", short: 'w', overrides: []string{"line-regexp"}},

	// evgrep additions (never alter the bytes of rg's own output forms).
	{long: "utf16-columns"},
	{long: "agent", value: true, hyphen: true},
	{long: "agent-format", value: true, possible: []string{"text", "json"}},
	{long: "mcp"},
	{long: "mcp-http", value: true},
	{long: "mcp-allow-origin", value: true},
	{long: "outline"},
	{long: "ast", value: true, hyphen: true},
	{long: "lang", value: true},
	{long: "kind", value: true},
	{long: "rule", value: true, multiple: true},
	{long: "rewrite", value: true, hyphen: true},
	{long: "apply"},
	{long: "impact", value: true},
	{long: "impact-symbol", value: true, hyphen: true},
	{long: "parse-budget", value: true, number: true},
	{long: "imports", value: true},
	{long: "tests", value: true},
	{long: "terms", value: true, multiple: true, hyphen: true},
	{long: "term", value: true, multiple: true, hyphen: true},
	{long: "match", value: true, possible: []string{"any", "all", "none"}},
	{long: "rev", value: true, hyphen: true},
	{long: "changed-since", value: true, hyphen: true},
	{long: "rank", value: true, hyphen: true},
}

var (
	byLong  map[string]*flagDef
	byShort [256]*flagDef // by the flag's letter (an array: no hashing at start-up)
)

// modeFlags choose what a run prints; as in rg 15, the last one given
// wins (rg 13 refused some pairs and ranked the others).
var modeFlags = []string{"count", "count-matches", "files-with-matches", "files-without-match", "json", "files", "type-list"}

func init() {
	// Every run parses its flags through these (sized once: this runs at
	// every start, see bench/README.md "The RSS floor").
	byLong = make(map[string]*flagDef, len(flagTable)+8)
	for i := range flagTable {
		d := &flagTable[i]
		if slices.Contains(modeFlags, d.long) {
			for _, m := range modeFlags {
				if d.long != m && !slices.Contains(d.overrides, m) {
					d.overrides = append(d.overrides, m)
				}
			}
		}
		byLong[d.long] = d
		for _, a := range d.aliases {
			byLong[a] = d
		}
		if d.short != 0 {
			byShort[d.short] = d
		}
	}
}

// checkEncoding validates an -E label ("auto" and "none" are not labels).
func checkEncoding(v string) error {
	if v == "auto" || v == "none" {
		return nil
	}
	return input.ValidateEncoding(v)
}

// checkSize validates a size (--max-filesize, the regex size limits).
func checkSize(v string) error {
	if _, err := ParseHumanSize(v); err != nil {
		return fmt.Errorf("invalid size: invalid format for size '%s', which should be a non-empty sequence of digits followed by an optional 'K', 'M' or 'G' suffix", v)
	}
	return nil
}

// checkColor validates one --colors spec.
func checkColor(v string) error {
	_, err := printer.ParseColors([]string{v})
	return err
}
