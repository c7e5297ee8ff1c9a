package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// flagHelp is a one-line description of each visible flag, in evgrep's own
// words. Hidden negations (--no-X that only undo X) are listed under X.
var flagHelp = map[string]string{
	"after-context":                "Show NUM lines after every match.",
	"before-context":               "Show NUM lines before every match.",
	"context":                      "Show NUM lines before and after every match.",
	"binary":                       "Search binary files found while walking (stop at the first match after a NUL).",
	"block-buffered":               "Buffer output in blocks (default when not a terminal).",
	"byte-offset":                  "Print the 0-based byte offset before each line (or match, with -o).",
	"case-sensitive":               "Match case exactly (the default).",
	"color":                        "When to colour output: never, auto, always, ansi.",
	"colors":                       "Colour spec TYPE:ATTR:VALUE, e.g. match:fg:red (repeatable).",
	"column":                       "Show the 1-based column of the first match on each line.",
	"context-separator":            "String printed between non-adjacent context groups (default --).",
	"count":                        "Print only the number of matching lines per file.",
	"count-matches":                "Print only the number of matches per file.",
	"crlf":                         "Treat CRLF as a line terminator ($ matches before \\r\\n).",
	"debug":                        "Accepted for compatibility; evgrep prints no debug log.",
	"dfa-size-limit":               "Accepted for compatibility (rg's DFA size limit).",
	"encoding":                     "Text encoding of searched files: auto, none, or a WHATWG label.",
	"engine":                       "Regex engine: default, pcre2, or auto (the default unless the pattern needs PCRE2).",
	"field-context-separator":      "Separator between fields of context lines (default -).",
	"field-match-separator":        "Separator between fields of matching lines (default :).",
	"file":                         "Read patterns from PATTERNFILE, one per line (repeatable; - is stdin).",
	"files":                        "Print the files that would be searched, without searching.",
	"files-with-matches":           "Print only the paths of files with at least one match.",
	"files-without-match":          "Print only the paths of files without a match.",
	"fixed-strings":                "Treat patterns as literal text, not regexes.",
	"follow":                       "Follow symbolic links while walking.",
	"generate":                     "Print a man page or a shell completion script: man, complete-bash, complete-zsh, complete-fish, complete-powershell.",
	"glob":                         "Include (or, with !, exclude) paths matching GLOB (repeatable).",
	"glob-case-insensitive":        "Match every --glob case-insensitively.",
	"heading":                      "Print the file path above each file's matches.",
	"help":                         "Print this help.",
	"hidden":                       "Search hidden files and directories.",
	"hostname-bin":                 "Program whose output is {host} in hyperlinks (default: the system's host name).",
	"hyperlink-format":             "Print paths as OSC-8 links: an alias (default, none, cursor, file, grep+, kitty, macvim, textmate, vscode, vscode-insiders, vscodium) or a format with {path} {host} {line} {column} {wslprefix}.",
	"iglob":                        "Like --glob, matched case-insensitively.",
	"ignore-case":                  "Match case-insensitively (Unicode simple folding).",
	"ignore-file":                  "Read more ignore rules from PATH (repeatable).",
	"ignore-file-case-insensitive": "Read ignore files case-insensitively.",
	"include-zero":                 "With -c/--count-matches, also print files with zero matches.",
	"invert-match":                 "Print the lines that do not match.",
	"json":                         "Print results as JSON Lines (begin, match, context, end, summary).",
	"line-buffered":                "Flush after every line.",
	"line-number":                  "Show 1-based line numbers.",
	"line-regexp":                  "Only match whole lines.",
	"max-columns":                  "Omit lines longer than NUM bytes.",
	"max-columns-preview":          "Show a preview of omitted long lines.",
	"max-count":                    "Stop a file after NUM matching lines.",
	"max-depth":                    "Descend at most NUM directory levels.",
	"max-filesize":                 "Skip files larger than NUM bytes (suffixes K, M, G).",
	"mmap":                         "Allow memory maps.",
	"multiline":                    "Let matches span lines.",
	"multiline-dotall":             "With -U, let . match newlines.",
	"no-config":                    "Ignore the RIPGREP_CONFIG_PATH file of default arguments.",
	"no-filename":                  "Never print file paths before lines.",
	"no-heading":                   "Print the path on every line instead of above groups.",
	"no-ignore":                    "Ignore no files because of ignore rules (.gitignore, .ignore, ...).",
	"no-ignore-dot":                "Do not use .ignore files.",
	"no-ignore-exclude":            "Do not use .git/info/exclude.",
	"no-ignore-files":              "Do not use --ignore-file files.",
	"no-ignore-global":             "Do not use the global gitignore.",
	"no-ignore-messages":           "Do not report errors in ignore files.",
	"no-ignore-parent":             "Do not use ignore files of parent directories.",
	"no-ignore-vcs":                "Do not use .gitignore and other VCS ignore files.",
	"no-line-number":               "Do not show line numbers.",
	"no-messages":                  "Do not report file errors.",
	"no-mmap":                      "Never use memory maps.",
	"no-pcre2-unicode":             "Same as --no-unicode.",
	"no-require-git":               "Use .gitignore files outside git repositories too.",
	"no-unicode":                   "Disable Unicode in patterns (\\w, \\b, . are ASCII/byte based).",
	"null":                         "End printed paths with NUL.",
	"null-data":                    "Use NUL as the line terminator (implies --text).",
	"one-file-system":              "Do not cross file system boundaries.",
	"only-matching":                "Print only the matched parts, one per line.",
	"passthru":                     "Print every line, matching or not.",
	"path-separator":               "Print paths with this one-byte separator.",
	"pcre2":                        "Use PCRE2 (look-around, backreferences; pure Go in evgrep).",
	"pcre2-version":                "Print the version of PCRE2 in this build.",
	"pre":                          "Not available in evgrep (no preprocessor processes).",
	"pre-glob":                     "Not available in evgrep.",
	"pretty":                       "Same as --color always --heading --line-number.",
	"quiet":                        "Print nothing; exit 0 on the first match.",
	"regex-size-limit":             "The size limit of the compiled regex (default 100M).",
	"regexp":                       "A pattern to search for (repeatable; allows a leading -).",
	"replace":                      "Print each match replaced by TEXT ($1, ${name}, $$ expand).",
	"search-zip":                   "Search inside gzip, bzip2, xz, lzma, lz4, brotli, zstd and .Z files.",
	"smart-case":                   "Ignore case unless the pattern has an uppercase letter.",
	"sort":                         "Sort results: path, modified, accessed, created, none.",
	"sortr":                        "Sort results in reverse order.",
	"stats":                        "Print statistics after the search.",
	"stop-on-nonmatch":             "Stop reading a file at the first non-matching line after a match (overrides -U).",
	"text":                         "Search binary files as text.",
	"threads":                      "Number of threads (0 = choose).",
	"trim":                         "Trim leading ASCII whitespace from printed lines.",
	"type":                         "Only search files of TYPE (see --type-list).",
	"type-add":                     "Add a type definition NAME:GLOB or NAME:include:TYPES.",
	"type-clear":                   "Clear the globs of TYPE.",
	"type-list":                    "Print all file types and their globs.",
	"type-not":                     "Do not search files of TYPE.",
	"unrestricted":                 "-u: --no-ignore, -uu: also --hidden, -uuu: also --binary.",
	"version":                      "Print the version.",
	"vimgrep":                      "Print every match as path:line:column:line.",
	"with-filename":                "Print the file path before each line.",
	"word-regexp":                  "Only match whole words.",
	"sort-files":                   "Same as --sort path (deprecated in rg).",
	"auto-hybrid-regex":            "Same as --engine auto.",

	"utf16-columns": "evgrep: add start_utf16/end_utf16 to --json submatches.",
	"agent":         "evgrep: answer one agent request (JSON, or - for stdin).",
	"agent-format":  "evgrep: text (default) or json ({\"text\",\"details\"}).",
	"mcp":           "evgrep: serve the agent tool over MCP on stdio.",
	"mcp-http":      "evgrep: serve MCP over streamable HTTP on ADDR (loopback by default).",
	"outline":       "evgrep: print the declarations of files (with --json: structured).",
	"rank":          "evgrep: rank code chunks for a query, best first (-m N chunks, default 10; with --json: structured).",

	"mcp-allow-origin": "evgrep: serve browser pages of this origin over --mcp-http (exact match, repeatable).",

	"ast":           "evgrep: structural search with ast-grep's pattern language ($A, $$$A, $_).",
	"lang":          "evgrep: the language of --ast, --kind and --rewrite (go, python, rust, ...).",
	"kind":          "evgrep: structural search for syntax nodes of a kind (with --lang).",
	"rule":          "evgrep: structural search with an ast-grep rule file (YAML, repeatable).",
	"rewrite":       "evgrep: print a unified diff replacing each structural match with TEMPLATE.",
	"apply":         "evgrep: write the --rewrite edits, or with --rule alone the rules' fixes (each file only if unchanged since read).",
	"terms":         "evgrep: search 2-64 literal terms at once, comma-separated (repeatable; a term with a comma: --term).",
	"term":          "evgrep: one literal term of a multi-term search, verbatim (repeatable; joins --terms in order).",
	"match":         "evgrep: with --terms, the files to report: any (default), all (every term) or none (no term).",
	"rev":           "evgrep: search the files of Git commit REV (read in process), not the working tree.",
	"changed-since": "evgrep: only matches in lines added or changed since Git commit REV.",

	"impact":        "evgrep: every occurrence of the name declared at FILE:LINE, by syntax role (with --json: structured).",
	"impact-symbol": "evgrep: every occurrence of the symbol NAME, by syntax role, under PATH (default: .).",
	"parse-budget":  "evgrep: files --impact parses at most, 1-2000 (default 200).",
	"imports":       "evgrep: what FILE imports (resolved to workspace files) and who imports it.",
	"tests":         "evgrep: the test files of FILE, each with the evidence for the link.",
}

// WriteHelp prints evgrep's help in rg's layout: usage, arguments, then
// every flag with its short form and value name.
func WriteHelp(w io.Writer, version string) {
	fmt.Fprintf(w, "evgrep %s (ripgrep 15.2.0 compatible)\n", version)
	fmt.Fprint(w, `Search a source tree recursively for a regex pattern, honouring .gitignore,
hidden files and binary files as ripgrep 15.2 does, and answer coding agents
with bounded evidence (--agent, --mcp).

USAGE:
    evgrep [OPTIONS] PATTERN [PATH ...]
    evgrep [OPTIONS] -e PATTERN ... [PATH ...]
    evgrep [OPTIONS] -f PATTERNFILE ... [PATH ...]
    evgrep [OPTIONS] --files [PATH ...]
    evgrep [OPTIONS] --type-list
    evgrep [OPTIONS] --terms T1,T2,... [--term T] [--match any|all|none] [PATH ...]
    command | evgrep [OPTIONS] PATTERN
    evgrep --agent '{"pattern":"..."}'
    evgrep --mcp

ARGS:
    <PATTERN>    A regular expression (rg syntax). Use -e or -- for one starting with -.
    <PATH>...    Files or directories to search (default: the current directory).

OPTIONS:
`)
	var names []string
	for n := range flagHelp {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		d := byLong[n]
		if d == nil {
			continue
		}
		var left strings.Builder
		if d.short != 0 {
			fmt.Fprintf(&left, "-%c, ", d.short)
		} else {
			left.WriteString("    ")
		}
		left.WriteString("--" + n)
		if d.value {
			left.WriteString(" <" + strings.ToUpper(strings.ReplaceAll(n, "-", "_")) + ">")
		}
		fmt.Fprintf(w, "    %-44s %s\n", left.String(), flagHelp[n])
	}
}
