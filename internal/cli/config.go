package cli

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/oserr"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/printer"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/internal/terms"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/walker"
	"github.com/evgrep/evgrep/walker/ignore"
	"github.com/evgrep/evgrep/walker/types"
)

// OutputKind is the printer that renders results.
type OutputKind int

// The printers.
const (
	OutputStandard OutputKind = iota
	OutputSummary
	OutputJSON
)

// Command is what evgrep was asked to do.
type Command int

// Commands.
const (
	CmdSearch Command = iota
	CmdSearchNever
	CmdFiles
	CmdTypeList
	CmdHelp
	CmdVersion
	CmdPCRE2Version
	CmdAgent
	CmdMCP
	CmdOutline
	CmdGenerate
	CmdStructural
	CmdAnalysis
	CmdTerms
	CmdRank
)

// Env describes the process environment that rg consults when choosing
// defaults.
type Env struct {
	StdoutTTY     bool
	StdinReadable bool // stdin is a file, FIFO or socket (not a tty)
	Stdin         io.Reader
}

// Config is the fully derived configuration of one evgrep run: the option
// structs of the engine packages, filled by one small function per setting
// (as ripgrep's args code), plus what the process itself needs.
type Config struct {
	// Warnings are messages to print before running (an unreadable
	// RIPGREP_CONFIG_PATH file).
	Warnings []string

	Command Command
	// VersionLong is set for --version (rg 15's long form, with the
	// features); -V, written last, asks for the short one.
	VersionLong bool
	// Paths are the roots to search; UsingDefaultPath is set when none
	// was given (rg prints paths without "./" then).
	Paths            []string
	UsingDefaultPath bool

	// Matcher compiles the patterns with the engine Engine selects.
	Matcher matcher.Options
	Engine  Engine
	// Pipeline walks, reads and searches (its Stdin is the caller's; its
	// Search.Multiline still needs the compiled pattern's
	// MatchesMayCross, as rg's multi_line_with_matcher).
	Pipeline pipeline.Options
	// Types are the -t/-T/--type-add/--type-clear flags in command-line
	// order (rg 15 applies them so), compiled (into Pipeline.Walk.Types)
	// where a walk needs them, as rg does.
	Types []types.Change
	// Printer configures the printers; Output selects one.
	Printer printer.Options
	Output  OutputKind
	// ColorError is a bad --colors spec, reported when a search starts
	// (after a bad pattern, as rg).
	ColorError error

	Quiet bool
	// SuccessWithoutMatch makes a file without a match the run's success
	// (--files-without-match, with or without -q, as rg 15).
	SuccessWithoutMatch bool
	NoMessages          bool
	NoIgnoreMessages    bool
	// FileSeparator goes between the output of two files when
	// FileSeparatorOn (a blank line with --heading, the context
	// separator with context).
	FileSeparatorOn bool
	FileSeparator   []byte

	// Generate is --generate's kind (CmdGenerate).
	Generate string

	// agent / MCP
	AgentRequest string
	AgentFormat  string
	MCPHTTP      string
	// MCPAllowOrigins are the browser origins the MCP HTTP server serves.
	MCPAllowOrigins []string

	// Analysis is the analysis of CmdAnalysis ("impact", "impact-symbol",
	// "imports", "tests") and AnalysisTarget its value (FILE:LINE, a
	// symbol, a file); ParseBudget is
	// --parse-budget (0: the default).
	Analysis       string
	AnalysisTarget string
	ParseBudget    int
	// ParseBudgetSet is true when --parse-budget was given.
	ParseBudgetSet bool
	// JSON is --json for the commands with JSON forms of their own (the
	// analyses, --rank, --outline, --ast); a search's is Output.
	JSON bool
	// Query is --rank's query.
	Query string
	// Structural holds --ast, --kind, --lang, --rule, --rewrite and
	// --apply (CmdStructural).
	Structural StructuralFlags
	// Terms and TermsMatch are a multi-term search's terms and file rule
	// (CmdTerms; see terms.go).
	Terms      []string
	TermsMatch terms.Match
	// Rev is --rev: search that Git commit's tree. ChangedSince is
	// --changed-since: only lines added or changed since that commit.
	Rev, ChangedSince string
}

// StructuralFlags are the flags of a structural search, as given.
type StructuralFlags struct {
	// Pattern is --ast, Kind --kind, Lang --lang ("" when not given).
	Pattern, Kind, Lang string
	// Rules are the --rule files.
	Rules []string
	// Rewrite is --rewrite's template (Rewriting: the flag was given, the
	// template may be empty); Apply is --apply.
	Rewrite          string
	Rewriting, Apply bool
}

// structuralFlags reads the flags of a structural search.
func structuralFlags(a *Args) StructuralFlags {
	var f StructuralFlags
	f.Pattern, _ = a.Value("ast")
	f.Kind, _ = a.Value("kind")
	f.Lang, _ = a.Value("lang")
	f.Rules = a.Values("rule")
	f.Rewrite, f.Rewriting = a.Value("rewrite")
	f.Apply = a.Has("apply")
	return f
}

// scopeConfig derives the walk and the decoding of a command that reads
// files without a pattern (an analysis) as a search derives them.
func scopeConfig(a *Args, c *Config) error {
	in, err := inputOptions(a)
	if err != nil {
		return err
	}
	wo, err := walkOptions(a)
	if err != nil {
		return err
	}
	c.Pipeline = pipeline.Options{Walk: wo, Input: in}
	c.Types = typeChanges(a)
	return nil
}

// Load parses argv and derives the Config.
func Load(argv []string, env Env) (*Config, error) {
	argv, warnings := withConfigArgs(argv)
	a, err := Parse(argv)
	if err != nil {
		return nil, err
	}
	c := &Config{Warnings: warnings}
	switch {
	case a.Has("help"):
		c.Command = CmdHelp
		return c, nil
	case a.Has("version"):
		c.Command = CmdVersion
		c.VersionLong = a.Written("version") == "--version"
		return c, nil
	case a.Has("generate"):
		c.Command = CmdGenerate
		c.Generate, _ = a.Value("generate")
		return c, nil
	}
	if v, ok := a.Value("agent"); ok {
		c.Command = CmdAgent
		c.AgentRequest = v
		c.AgentFormat, _ = a.Value("agent-format")
		return c, nil
	}
	for _, k := range []string{"impact", "impact-symbol", "imports", "tests"} {
		if v, ok := a.Value(k); ok {
			c.Command, c.Analysis, c.AnalysisTarget, c.Paths = CmdAnalysis, k, v, a.Positional
			if v, ok := a.Value("parse-budget"); ok {
				n, err := strconv.Atoi(v)
				if err != nil {
					return nil, fmt.Errorf("invalid digit found in string")
				}
				c.ParseBudget, c.ParseBudgetSet = n, true
			}
			c.JSON = a.Has("json")
			// The scope flags mean what they mean for a search: ignore
			// rules, hidden, globs, types, depth, size, links, -E.
			if err := scopeConfig(a, c); err != nil {
				return nil, err
			}
			return c, nil
		}
	}
	if a.Has("mcp") || a.Has("mcp-http") {
		c.Command = CmdMCP
		c.MCPHTTP, _ = a.Value("mcp-http")
		c.MCPAllowOrigins = a.Values("mcp-allow-origin")
		return c, nil
	}

	// Positional split: the first positional is the pattern unless -e, -f
	// or --files is given (rg's `paths()`).
	pos := a.Positional
	patternSlot := ""
	hasPatternSlot := false
	if len(pos) > 0 {
		patternSlot, pos, hasPatternSlot = pos[0], pos[1:], true
	}
	takesFirstAsPath := a.Has("file") || a.Has("files") || a.Has("regexp") || a.Has("type-list") || a.Has("outline") || hasTerms(a) || a.Has("rank") || structural(a)
	paths := append([]string(nil), pos...)
	if takesFirstAsPath && hasPatternSlot {
		paths = append([]string{patternSlot}, paths...)
	}
	if !takesFirstAsPath && !hasPatternSlot && !a.Has("pcre2-version") {
		return nil, usageErr("ripgrep requires at least one pattern to execute a search")
	}
	if err := unsupported(a); err != nil {
		return nil, err
	}
	patterns, err := patterns(a, env, patternSlot, hasPatternSlot)
	if err != nil {
		return nil, err
	}
	c.Matcher = matcherOptions(a, patterns)
	c.Engine = engine(a)
	if v, ok := a.Value("regex-size-limit"); ok {
		n, err := ParseHumanSize(v)
		if err != nil {
			return nil, err
		}
		c.Matcher.SizeLimit = int(min(n, math.MaxInt32))
	}
	c.Paths, c.UsingDefaultPath = defaultPaths(a, env, paths)
	if err := gitFlags(a, c); err != nil {
		return nil, err
	}
	onlyStdin := len(c.Paths) == 1 && c.Paths[0] == "-"

	c.Quiet = a.Has("quiet")
	var summary printer.SummaryKind
	c.Output, summary = outputKind(a)
	c.SuccessWithoutMatch = summary == printer.SummaryPathWithoutMatch ||
		summary == printer.SummaryQuietWithoutMatch
	sc, err := searchConfig(a, c.Output, env.StdoutTTY && !onlyStdin)
	if err != nil {
		return nil, err
	}
	po, err := printerOptions(a, c.Paths, env.StdoutTTY)
	if err != nil {
		return nil, err
	}
	po.SummaryKind = summary
	// --json always ends with its summary, with -q too (rg 15).
	po.Stats = c.Output == OutputJSON || a.Has("stats") || a.Has("json")
	if po.Colors, c.ColorError = printer.ParseColors(a.Values("colors")); c.ColorError != nil {
		po.Colors = printer.DefaultColors()
	}
	c.Printer = po
	c.NoMessages = a.Has("no-messages")
	c.NoIgnoreMessages = a.Has("no-ignore-messages")
	if c.Output == OutputStandard {
		c.FileSeparatorOn, c.FileSeparator = fileSeparator(&c.Printer, sc.Before > 0 || sc.After > 0)
	}

	in, err := inputOptions(a)
	if err != nil {
		return nil, err
	}
	wo, err := walkOptions(a)
	if err != nil {
		return nil, err
	}
	if oneNonDirectory(c.Paths) {
		// rg 15 searches a single path that is not a folder without the
		// parallel walk (its messages then take walkdir's wording).
		wo.Threads = 1
	}
	c.Pipeline = pipeline.Options{
		Walk:   wo,
		Search: sc,
		Binary: binaryModes(a),
		Input:  in,
		Mmap:   pipeline.MmapChoice(c.Paths, a.Has("mmap"), a.Has("no-mmap")),
	}
	c.Types = typeChanges(a)
	c.JSON = a.Has("json")
	c.Query, _ = a.Value("rank")
	c.Structural = structuralFlags(a)
	// No pattern matches nothing, so that -v of an empty -f file matches
	// every line (rg 15); -m0 searches nothing.
	c.Command = command(a, (len(patterns) == 0 && !a.Has("invert-match")) || c.Printer.MaxCount == 0)
	if c.Command == CmdTerms || a.Has("match") {
		if err := termsConfig(a, c); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// unsupported refuses what this build cannot do (--pre).
func unsupported(a *Args) error {
	if v, ok := a.Value("pre"); ok && v != "" {
		return fmt.Errorf("--pre is not supported: evgrep runs no preprocessor processes (it decompresses -z formats in process)")
	}
	return nil
}

// Engine is the regex engine a search uses (rg's --engine).
type Engine int

// The engines.
const (
	// EngineDefault is evgrep's own regex engine (package matcher).
	EngineDefault Engine = iota
	// EnginePCRE2 is PCRE2 (package matcher/pcre2): -P, --engine pcre2.
	EnginePCRE2
	// EngineAuto uses the default engine unless it cannot compile the
	// pattern, then PCRE2: --auto-hybrid-regex, --engine auto.
	EngineAuto
)

// engine is the engine choice. -P, --no-pcre2, --auto-hybrid-regex,
// --no-auto-hybrid-regex and --engine override one another (the flag
// table), so at most one is present: the last given.
func engine(a *Args) Engine {
	switch {
	case a.Has("pcre2"):
		return EnginePCRE2
	case a.Has("auto-hybrid-regex"):
		return EngineAuto
	}
	switch v, _ := a.Value("engine"); v {
	case "pcre2":
		return EnginePCRE2
	case "auto":
		return EngineAuto
	}
	return EngineDefault
}

// patterns is rg's `patterns()`: the -e values, else the positional
// pattern; then the lines of every -f file.
func patterns(a *Args, env Env, slot string, hasSlot bool) ([]string, error) {
	if a.Has("files") || a.Has("type-list") || a.Has("outline") || hasTerms(a) || a.Has("rank") || structural(a) {
		return nil, nil
	}
	var out []string
	if es := a.Values("regexp"); len(es) > 0 {
		out = append(out, es...)
	} else if !a.Has("file") && hasSlot {
		out = append(out, slot)
	}
	for _, f := range a.Values("file") {
		var data []byte
		var err error
		if f == "-" {
			if env.Stdin != nil {
				data, err = io.ReadAll(env.Stdin)
			}
		} else {
			data, err = os.ReadFile(f)
		}
		if err != nil {
			return nil, oserr.Prefix(f, err)
		}
		out = append(out, splitPatternLines(data)...)
	}
	return out, nil
}

// matcherOptions are the pattern's compile options.
func matcherOptions(a *Args, patterns []string) matcher.Options {
	o := matcher.Options{
		Patterns:       patterns,
		Fixed:          a.Has("fixed-strings"),
		Word:           a.Has("word-regexp"),
		Line:           a.Has("line-regexp"),
		Multiline:      a.Has("multiline"),
		DotAll:         a.Has("multiline-dotall"),
		CRLF:           a.Has("crlf"),
		LineTerminator: '\n',
		NoUnicode:      a.Has("no-unicode") || a.Has("no-pcre2-unicode"),
		BanNUL:         !a.Has("text") && !a.Has("null-data"),
	}
	if a.Has("null-data") {
		// Lines end in NUL for the matcher too, with -U as well: a
		// pattern that cannot match across lines is searched line by line.
		o.LineTerminator = 0
	}
	switch {
	case a.Has("case-sensitive"):
	case a.Has("ignore-case"):
		o.Case = matcher.Insensitive
	case a.Has("smart-case"):
		o.Case = matcher.Smart
	}
	return o
}

// defaultPaths returns the roots: those given, else "./" or "-" by rg's
// rule (stdin when it is readable and nothing asks for the directory).
func defaultPaths(a *Args, env Env, paths []string) ([]string, bool) {
	if len(paths) > 0 {
		return paths, false
	}
	fileIsStdin := false
	for _, f := range a.Values("file") {
		if f == "-" {
			fileIsStdin = true
		}
	}
	searchCwd := !env.StdinReadable || (a.Has("file") && fileIsStdin) || a.Has("files") || a.Has("type-list") || a.Has("pcre2-version") || a.Has("outline") || a.Has("rank") || structural(a)
	if searchCwd {
		return []string{"./"}, true
	}
	return []string{"-"}, true
}

// outputKind selects the printer and, for the summary printer, its kind.
func outputKind(a *Args) (OutputKind, printer.SummaryKind) {
	// -o makes -c count matches, and -v then makes it count lines again
	// (rg 15 applies them in this order).
	count, countMatches := a.Has("count"), a.Has("count-matches")
	if count && a.Has("only-matching") {
		count, countMatches = false, true
	}
	if countMatches && a.Has("invert-match") {
		count, countMatches = true, false
	}
	switch {
	case a.Has("quiet") && a.Has("files-without-match") && !a.Has("count") && !a.Has("count-matches"):
		return OutputSummary, printer.SummaryQuietWithoutMatch
	case a.Has("quiet"):
		return OutputSummary, printer.SummaryQuiet
	case a.Has("json"):
		return OutputJSON, 0
	case countMatches:
		return OutputSummary, printer.SummaryCountMatches
	case count:
		return OutputSummary, printer.SummaryCount
	case a.Has("files-with-matches"):
		return OutputSummary, printer.SummaryPathWithMatch
	case a.Has("files-without-match"):
		return OutputSummary, printer.SummaryPathWithoutMatch
	}
	return OutputStandard, 0
}

// searchConfig is the searcher's configuration; lineNumbersByDefault is
// rg's default for -n (stdout a terminal, not only stdin).
func searchConfig(a *Args, out OutputKind, lineNumbersByDefault bool) (search.Config, error) {
	sc := search.Config{
		LineTerm: '\n',
		CRLF:     a.Has("crlf"),
		Invert:   a.Has("invert-match"),
		Passthru: a.Has("passthru"),
		// Set only when the pattern may match a line terminator.
		Multiline:      a.Has("multiline"),
		BOMPeek:        encodingLabel(a) == "",
		StopOnNonmatch: a.Has("stop-on-nonmatch"),
		MaxMatches:     max(maxCount(a), 0),
	}
	if a.Has("null-data") {
		sc.LineTerm = 0
		sc.EveryLine = !a.Has("multiline")
	}
	var err error
	if sc.Before, sc.After, err = contexts(a); err != nil {
		return sc, err
	}
	sc.LineNumbers = lineNumbers(a, out, lineNumbersByDefault)
	return sc, nil
}

// contexts returns -B and -A: each as given, else -C's value (rg 15: an
// explicit -A or -B wins over -C whatever their order).
func contexts(a *Args) (before, after int, err error) {
	both, err := usizeOf(a, "context")
	if err != nil {
		return 0, 0, err
	}
	before, after = both, both
	if _, ok := a.Value("after-context"); ok {
		if after, err = usizeOf(a, "after-context"); err != nil {
			return 0, 0, err
		}
	}
	if _, ok := a.Value("before-context"); ok {
		if before, err = usizeOf(a, "before-context"); err != nil {
			return 0, 0, err
		}
	}
	return before, after, nil
}

// lineNumbers is rg's `line_number()`.
func lineNumbers(a *Args, out OutputKind, byDefault bool) bool {
	switch {
	case out == OutputSummary:
		return false
	case a.Has("no-line-number"):
		return false
	case out == OutputJSON:
		return true
	}
	return byDefault || a.Has("line-number") || a.Has("column") || a.Has("pretty") || a.Has("vimgrep")
}

// printerOptions are the printers' options but SummaryKind, Stats and
// Colors.
func printerOptions(a *Args, paths []string, stdoutTTY bool) (printer.Options, error) {
	vimgrep := a.Has("vimgrep")
	o := printer.Options{
		Heading:           !(a.Has("no-heading") || vimgrep) && (stdoutTTY || a.Has("heading") || a.Has("pretty")),
		WithFilename:      !a.Has("no-filename") && (a.Has("with-filename") || vimgrep || len(paths) > 1 || (paths[0] != "-" && isDir(paths[0]))),
		OnlyMatching:      a.Has("only-matching"),
		PerMatch:          vimgrep,
		Column:            !a.Has("no-column") && (a.Has("column") || vimgrep),
		ByteOffset:        a.Has("byte-offset"),
		Trim:              a.Has("trim"),
		MaxColumnsPreview: a.Has("max-columns-preview"),
		MaxCount:          maxCount(a),
		NullPath:          a.Has("null"),
		LineTerm:          lineTerm(a),
		IncludeZero:       a.Has("include-zero"),
		UTF16Columns:      a.Has("utf16-columns"),
		Color:             color(a, stdoutTTY),
	}
	if r, ok := a.Value("replace"); ok {
		o.Replacement, o.HasReplacement = []byte(r), true
	}
	if v, ok := a.Value("max-columns"); ok {
		o.MaxColumns, _ = strconv.Atoi(v)
	}
	o.ContextSeparator, o.FieldMatchSep, o.FieldContextSep = separators(a)
	var err error
	if o.PathSeparator, err = pathSeparator(a); err != nil {
		return o, err
	}
	o.Hyperlink, err = hyperlink(a, o.Color)
	return o, err
}

// hyperlink is --hyperlink-format, with {host} from --hostname-bin (its
// output, trimmed) or else the system's host name, looked up only when
// links are written.
func hyperlink(a *Args, color bool) (*printer.Hyperlink, error) {
	f, ok := a.Value("hyperlink-format")
	if !ok {
		return nil, nil
	}
	h, err := printer.ParseHyperlink(f)
	if err != nil || h == nil {
		return h, err
	}
	h.WSLPrefix = printer.WSLPrefix()
	if !color || !h.UsesHost() {
		return h, nil
	}
	if bin, ok := a.Value("hostname-bin"); ok && bin != "" {
		if out, err := exec.Command(bin).Output(); err == nil {
			h.Host = strings.TrimSpace(string(out))
		}
	}
	if h.Host == "" {
		h.Host, _ = os.Hostname()
	}
	return h, nil
}

// separators returns the context separator (nil for none) and the field
// separators of match and context lines.
func separators(a *Args) (context, match, ctxField []byte) {
	context = []byte("--")
	if a.Has("no-context-separator") {
		context = nil
	} else if s, ok := a.Value("context-separator"); ok {
		context = Unescape(s)
	}
	match, ctxField = []byte(":"), []byte("-")
	if s, ok := a.Value("field-match-separator"); ok {
		match = Unescape(s)
	}
	if s, ok := a.Value("field-context-separator"); ok {
		ctxField = Unescape(s)
	}
	return context, match, ctxField
}

// pathSeparator is --path-separator's byte (0 for the default).
func pathSeparator(a *Args) (byte, error) {
	s, ok := a.Value("path-separator")
	if !ok {
		return 0, nil
	}
	sep := Unescape(s)
	if len(sep) > 1 {
		//lint:ignore ST1005 rg's exact error text (capitalised, two sentences)
		return 0, fmt.Errorf("A path separator must be exactly one byte, but the given separator is %d bytes: %s\nIn some shells on Windows '/' is automatically expanded. Use '//' instead.", len(sep), Escape(sep))
	}
	if len(sep) == 1 {
		return sep[0], nil
	}
	return 0, nil
}

// lineTerm is what ends a printed line that lacks one.
func lineTerm(a *Args) []byte {
	switch {
	case a.Has("null-data"):
		return []byte{0}
	case a.Has("crlf"):
		return []byte("\r\n")
	}
	return []byte("\n")
}

// fileSeparator is rg's `file_separator()` for the standard printer.
func fileSeparator(o *printer.Options, context bool) (bool, []byte) {
	if o.Heading {
		return true, []byte{}
	}
	if context && o.ContextSeparator != nil {
		return true, o.ContextSeparator
	}
	return false, nil
}

// color reports whether output is colored (--color, and for auto a
// terminal with a usable TERM).
func color(a *Args, stdoutTTY bool) bool {
	c, _ := a.Value("color")
	if c == "" && a.Has("vimgrep") {
		c = "never"
	}
	switch c {
	case "always", "ansi":
		return true
	case "", "auto":
		return (stdoutTTY || a.Has("pretty")) && os.Getenv("TERM") != "dumb" && os.Getenv("TERM") != ""
	}
	return false
}

// maxCount is -m's value, -1 without it.
func maxCount(a *Args) int64 {
	v, ok := a.Value("max-count")
	if !ok {
		return -1
	}
	n, _ := strconv.ParseInt(v, 10, 64)
	return n
}

// binaryModes is how walked and named files treat NUL bytes.
func binaryModes(a *Args) pipeline.Binary {
	if a.Has("text") || a.Has("null-data") {
		return pipeline.Binary{Implicit: search.BinaryNone, Explicit: search.BinaryNone}
	}
	b := pipeline.Binary{Implicit: search.BinaryQuit, Explicit: search.BinaryConvert}
	if a.Has("binary") || a.Count("unrestricted") >= 3 {
		b.Implicit = search.BinaryConvert
	}
	return b
}

// encodingLabel is -E's value: "" for auto, "none", or a label.
func encodingLabel(a *Args) string {
	if a.Has("no-encoding") {
		return ""
	}
	if e, ok := a.Value("encoding"); ok && e != "auto" {
		return e
	}
	return ""
}

// inputOptions are the decompression and decoding options.
func inputOptions(a *Args) (input.Options, error) {
	e := encodingLabel(a)
	if e != "" && e != "none" {
		if err := input.ValidateEncoding(e); err != nil {
			return input.Options{}, err
		}
	}
	return input.Options{SearchZip: a.Has("search-zip"), Encoding: e}, nil
}

// walkOptions are the walk's options but Types, SkipFile and the error
// callbacks.
func walkOptions(a *Args) (walker.Options, error) {
	o := walker.DefaultOptions()
	unrestricted := a.Count("unrestricted")
	noIgnore := a.Has("no-ignore") || unrestricted >= 1
	o.Hidden = a.Has("hidden") || unrestricted >= 2
	o.NoIgnore = noIgnore
	o.NoIgnoreDot = a.Has("no-ignore-dot") || noIgnore
	o.NoIgnoreExclude = a.Has("no-ignore-exclude") || noIgnore
	o.NoIgnoreFiles = a.Has("no-ignore-files")
	o.NoIgnoreGlobal = a.Has("no-ignore-global") || noIgnore
	o.NoIgnoreParent = a.Has("no-ignore-parent") || noIgnore
	o.NoIgnoreVCS = a.Has("no-ignore-vcs") || noIgnore
	o.RequireGit = !a.Has("no-require-git")
	o.IgnoreFiles = a.Values("ignore-file")
	o.IgnoreCaseInsensitive = a.Has("ignore-file-case-insensitive")
	o.Globs = globs(a)
	o.Follow = a.Has("follow")
	if v, ok := a.Value("max-depth"); ok {
		o.MaxDepth, _ = strconv.Atoi(v)
	}
	if v, ok := a.Value("max-filesize"); ok {
		n, err := ParseHumanSize(v)
		if err != nil {
			return o, err
		}
		o.MaxFilesize = n
	}
	o.OneFileSystem = a.Has("one-file-system")
	o.Sort, o.SortReverse = sortKey(a)
	var err error
	o.Threads, err = threads(a, o.Sort != walker.SortNone)
	return o, err
}

// globs are -g and --iglob in command-line order, with
// --glob-case-insensitive applied.
func globs(a *Args) []ignore.OverrideGlob {
	var out []ignore.OverrideGlob
	gci := a.Has("glob-case-insensitive")
	for _, g := range a.Values("glob") {
		out = append(out, ignore.OverrideGlob{Pattern: g, CaseInsensitive: gci})
	}
	for _, g := range a.Values("iglob") {
		out = append(out, ignore.OverrideGlob{Pattern: g, CaseInsensitive: true})
	}
	return out
}

// sortKey is --sort-files, --sort or --sortr.
func sortKey(a *Args) (walker.SortKey, bool) {
	v, reverse := "", false
	if a.Has("sort-files") {
		v = "path"
	} else if s, ok := a.Value("sort"); ok {
		v = s
	} else if s, ok := a.Value("sortr"); ok {
		v, reverse = s, true
	}
	switch v {
	case "path":
		return walker.SortPath, reverse
	case "modified":
		return walker.SortModified, reverse
	case "accessed":
		return walker.SortAccessed, reverse
	case "created":
		return walker.SortCreated, reverse
	}
	return walker.SortNone, false
}

// threads is -j (one thread when sorting; rg's default otherwise).
func threads(a *Args, sorted bool) (int, error) {
	n := 0
	if v, ok := a.Value("threads"); ok {
		u, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid digit found in string")
		}
		n = int(u)
	}
	if sorted {
		n = 1
	}
	if n == 0 {
		n = min(maxDefaultThreads, runtime.NumCPU())
	}
	return n, nil
}

// command is what the run does; never is set when no pattern can match.
func command(a *Args, never bool) Command {
	switch {
	case a.Has("pcre2-version"):
		return CmdPCRE2Version
	case a.Has("type-list"):
		return CmdTypeList
	case a.Has("outline"):
		return CmdOutline
	case hasTerms(a):
		return CmdTerms
	case a.Has("rank"):
		return CmdRank
	case structural(a):
		return CmdStructural
	case a.Has("files"):
		return CmdFiles
	case never:
		return CmdSearchNever
	}
	return CmdSearch
}

// structural reports whether a structural search was asked for (--ast,
// --kind or --rule); its paths are all positional.
func structural(a *Args) bool { return a.Has("ast") || a.Has("kind") || a.Has("rule") }

func usizeOf(a *Args, name string) (int, error) {
	v, ok := a.Value(name)
	if !ok {
		return 0, nil
	}
	n, err := strconv.ParseUint(v, 10, 63)
	if err != nil {
		return 0, fmt.Errorf("invalid digit found in string")
	}
	return int(n), nil
}

// splitPatternLines splits a -f file into patterns, one per line, without
// the line terminator (\n or \r\n).
func splitPatternLines(data []byte) []string {
	var out []string
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		out = append(out, string(line))
	}
	return out
}

// ParseHumanSize parses rg's `[0-9]+[KMG]?` sizes.
func ParseHumanSize(s string) (int64, error) {
	orig := s
	if s == "" {
		return 0, fmt.Errorf("invalid size format '%s'", s)
	}
	mult := int64(1)
	switch s[len(s)-1] {
	case 'K':
		mult, s = 1<<10, s[:len(s)-1]
	case 'M':
		mult, s = 1<<20, s[:len(s)-1]
	case 'G':
		mult, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid size format '%s'", s)
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("size too big in '%s'", orig)
	}
	return n * mult, nil
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// typeKinds names the type flags' kinds of change.
var typeKinds = map[string]types.ChangeKind{"type-clear": types.ChangeClear, "type-add": types.ChangeAdd, "type": types.ChangeSelect, "type-not": types.ChangeNegate}

// typeChanges lists the type flags in command-line order.
func typeChanges(a *Args) []types.Change {
	var out []types.Change
	for _, fv := range a.InOrder("type-clear", "type-add", "type", "type-not") {
		out = append(out, types.Change{Kind: typeKinds[fv.Flag], Arg: fv.Value})
	}
	return out
}

// oneNonDirectory reports whether paths is one path that is not a folder
// (a file, stdin, or a path that does not exist).
func oneNonDirectory(paths []string) bool {
	if len(paths) != 1 {
		return false
	}
	st, err := os.Stat(paths[0])
	return err != nil || !st.IsDir()
}
