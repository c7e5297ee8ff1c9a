package main

import "strings"

// Syntax tells the grep-family tools how to read a pattern; rg and evgrep
// always get the pattern as a regex (a plain literal is detected by them).
type Syntax int

const (
	// Literal patterns have no regex metacharacters; grep-family tools get -F.
	Literal Syntax = iota
	// Extended patterns are valid POSIX ERE with GNU extensions (\w, \s);
	// grep-family tools get -E.
	Extended
	// Perl patterns need PCRE (\p{...}); grep and git grep get -P, ugrep
	// reads them natively.
	Perl
)

// CorpusKind is the shape of the corpus a query runs on.
type CorpusKind int

const (
	// Tree is a directory searched recursively (GOROOT or a --corpus DIR).
	Tree CorpusKind = iota
	// Tiny is the 10-file tree that measures startup cost.
	Tiny
	// Large is the single large file.
	Large
	// Small is a repository-sized tree (GOROOT/src/net, some 400
	// files), searched in place: the agent call's corpus.
	Small
	// Lang is a tree of one language family that this machine ships (C
	// headers, Python's library, npm's JavaScript), searched by the
	// structural jobs of its language only.
	Lang
)

// String names the corpus kind in reports.
func (k CorpusKind) String() string {
	switch k {
	case Tree:
		return "tree"
	case Tiny:
		return "tiny"
	case Large:
		return "large"
	case Small:
		return "small"
	case Lang:
		return "lang"
	}
	return "unknown"
}

// Query is one benchmark query, independent of the tool running it.
type Query struct {
	// Name identifies the query in reports (unique within a corpus).
	Name string
	// Kind is the kind of corpus the query runs on.
	Kind CorpusKind
	// Pattern is the pattern; empty for --files.
	Pattern string
	// Syntax tells grep-family tools which dialect the pattern is in.
	Syntax Syntax
	// IgnoreCase adds -i, Word adds -w, LineNumber adds -n (otherwise line
	// numbers are turned off explicitly where a tool has a switch for it).
	IgnoreCase, Word, LineNumber bool
	// Files lists files instead of searching (rg --files).
	Files bool
	// Quick puts the query in the `--quick` subset.
	Quick bool
	// Lang makes the query structural: Pattern is an ast-grep pattern of
	// this language, run by evgrep --ast and ast-grep only.
	Lang string `json:",omitempty"`
	// Engine is rg's --engine for rg and evgrep ("pcre2", "auto"; empty:
	// the default). The grep family gets -P when Syntax is Perl.
	Engine string `json:",omitempty"`
	// Multiline adds -U (rg and evgrep only: grep has no equivalent).
	Multiline bool `json:",omitempty"`
	// Agent times one `evgrep --agent` search of Pattern against
	// `rg --json` of the same pattern (the agent's defaults: hidden
	// files, smart case). Their outputs differ, so lines are not compared.
	Agent bool `json:",omitempty"`
}

// Flags returns the query's options in rg's spelling, for reports.
func (q Query) Flags() string {
	var f []string
	if q.Lang != "" {
		f = append(f, "--ast", "--lang "+q.Lang)
	}
	if q.Agent {
		f = append(f, "--agent (rg: --json)")
	}
	if q.Engine != "" {
		f = append(f, "--engine "+q.Engine)
	}
	if q.Multiline {
		f = append(f, "-U")
	}
	if q.Files {
		f = append(f, "--files")
	}
	if q.IgnoreCase {
		f = append(f, "-i")
	}
	if q.Word {
		f = append(f, "-w")
	}
	if q.LineNumber {
		f = append(f, "-n")
	}
	return strings.Join(f, " ")
}

// The patterns shared by several queries.
const (
	patLiteral     = "ErrUnexpectedEOF"
	patSuffix      = "[A-Z][a-z]+Error"
	patAlternation = "ErrUnexpectedEOF|ErrShortWrite|ErrClosedPipe|ErrNoProgress"
	patNoLiteral   = `\w{5}\s+\w{5}\s+\w{5}\s+\w{5}\s+\w{5}`
	patLargeLit    = "NewReader"
	patLargeAlt    = "NewReader|NewWriter|ReadAll|WriteString|ErrUnexpectedEOF"
)

// treeQueries are ripgrep's benchsuite queries (linux_* and the like)
// adapted to a source tree such as GOROOT.
var treeQueries = []Query{
	{Name: "literal", Pattern: patLiteral, Syntax: Literal, Quick: true},
	{Name: "literal -n", Pattern: patLiteral, Syntax: Literal, LineNumber: true},
	{Name: "literal -i", Pattern: patLiteral, Syntax: Literal, IgnoreCase: true, Quick: true},
	{Name: "literal -w", Pattern: patLiteral, Syntax: Literal, Word: true},
	{Name: "no match", Pattern: "zqxZjvNeverThere", Syntax: Literal},
	{Name: "literal suffix", Pattern: patSuffix, Syntax: Extended, Quick: true},
	{Name: "alternation", Pattern: patAlternation, Syntax: Extended, Quick: true},
	{Name: "alternation -i", Pattern: patAlternation, Syntax: Extended, IgnoreCase: true},
	{Name: "unicode greek", Pattern: `\p{Greek}`, Syntax: Perl},
	{Name: "unicode word", Pattern: `\wAh`, Syntax: Extended},
	{Name: "no literal", Pattern: patNoLiteral, Syntax: Extended},
	{Name: "files", Files: true, Quick: true},
	{Name: "structural", Pattern: "panic($A)", Lang: "go"},
	// Issue 23: the command lines editors send. A look-behind needs
	// PCRE2 (-P, or --engine auto falling back to it); -U with a counted
	// repetition after a line end.
	{Name: "pcre2 look-behind", Pattern: patLookBehind, Syntax: Perl, Engine: "pcre2"},
	{Name: "auto look-behind", Pattern: patLookBehind, Syntax: Perl, Engine: "auto"},
	{Name: "multiline counted", Pattern: `\{\n\t.{120,}`, Syntax: Extended, Multiline: true},
}

// patLookBehind is the look-behind pattern of the PCRE2 jobs.
const patLookBehind = `(?<=func )\w+Error\b`

// langQueries are the structural jobs of each language family, run on
// the Lang corpus of their language (langTrees): one ast-grep pattern a
// family besides Go's on GOROOT.
var langQueries = []Query{
	{Name: "structural memcpy", Kind: Lang, Pattern: "memcpy($A, $B, $C)", Lang: "c"},
	{Name: "structural isinstance", Kind: Lang, Pattern: "isinstance($A, $B)", Lang: "python"},
	{Name: "structural require", Kind: Lang, Pattern: "require($A)", Lang: "javascript"},
}

// langTrees are the trees of the Lang corpora by language, the first
// that exists of each (globs allowed): what Debian's libc6-dev, python3
// and npm install, which .ci/run installs.
var langTrees = []struct {
	Name, Lang string
	Dirs       []string
}{
	{"c-headers", "c", []string{"/usr/include"}},
	{"python-lib", "python", []string{"/usr/lib/python3.*"}},
	{"npm-js", "javascript", []string{"/usr/lib/node_modules/npm", "/usr/share/nodejs/npm"}},
}

// smallQueries run on the repository-sized tree.
var smallQueries = []Query{
	{Name: "agent", Kind: Small, Pattern: "Deadline", Syntax: Literal, Agent: true},
}

// tinyQueries measure startup cost on the 10-file tree.
var tinyQueries = []Query{
	{Name: "literal", Kind: Tiny, Pattern: "Reader", Syntax: Literal, Quick: true},
	{Name: "regex -n", Kind: Tiny, Pattern: `[A-Z]\w+Reader\(`, Syntax: Extended, LineNumber: true},
}

// largeQueries are ripgrep's subtitles_* queries adapted to one large file
// of Go source.
var largeQueries = []Query{
	{Name: "literal", Kind: Large, Pattern: patLargeLit, Syntax: Literal},
	{Name: "literal -i", Kind: Large, Pattern: patLargeLit, Syntax: Literal, IgnoreCase: true},
	{Name: "alternation", Kind: Large, Pattern: patLargeAlt, Syntax: Extended},
	{Name: "surrounding words", Kind: Large, Pattern: `\w+\s+Reader\s+\w+`, Syntax: Extended},
	{Name: "cyrillic literal", Kind: Large, Pattern: "Фицпатрик", Syntax: Literal},
}
