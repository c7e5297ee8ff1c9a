package cli

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"

	"github.com/evgrep/evgrep/internal/input"
)

// OutputKind is the printer that renders results.
type OutputKind int

// The printers.
const (
	OutputStandard OutputKind = iota
	OutputSummary
	OutputJSON
)

// SummaryKind selects what the summary printer shows.
type SummaryKind int

// Summary printer kinds, as rg 13.
const (
	SummaryNone SummaryKind = iota
	SummaryCount
	SummaryCountMatches
	SummaryPathWithMatch
	SummaryPathWithoutMatch
	SummaryQuiet
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
)

// Env describes the process environment that rg consults when choosing
// defaults.
type Env struct {
	StdoutTTY     bool
	StdinReadable bool // stdin is a file, FIFO or socket (not a tty)
	Stdin         io.Reader
}

// Config is the fully derived configuration of one evgrep run.
type Config struct {
	Args *Args
	// Warnings are messages to print before running (an unreadable
	// RIPGREP_CONFIG_PATH file).
	Warnings []string

	Command  Command
	Patterns []string
	// PatternsGiven is false when the command line gave no pattern at all
	// (e.g. an empty -f file): nothing can match.
	Paths            []string
	UsingDefaultPath bool
	OneSearch        bool // exactly one file or stdin
	Threads          int

	// matcher
	Fixed, Word, Line, Multiline, DotAll, CRLF, NullData, NoUnicode bool
	IgnoreCase, SmartCase                                           bool
	Invert                                                          bool

	// searcher
	LineNumber        bool
	BeforeContext     int
	AfterContext      int
	Passthru          bool
	BinaryImplicit    BinaryMode
	BinaryExplicit    BinaryMode
	Encoding          string // "" auto, "none", or a label
	SearchZip         bool
	MaxCount          int64 // -1 = none
	MaxColumns        int   // 0 = none
	MaxColumnsPreview bool
	Mmap              bool
	Quiet             bool
	Stats             bool
	IncludeZero       bool
	Output            OutputKind
	Summary           SummaryKind
	Heading           bool
	WithFilename      bool
	OnlyMatching      bool
	Vimgrep           bool
	Column            bool
	ByteOffset        bool
	Trim              bool
	Replace           []byte
	HasReplace        bool
	ContextSeparator  []byte // nil = none
	FieldMatchSep     []byte
	FieldContextSep   []byte
	PathSeparator     byte // 0 = default
	PathTerminator    byte // 0 = none ('\n' used where a newline ends a path)
	NullPaths         bool
	Color             bool
	Colors            []string
	NoMessages        bool
	NoIgnoreMessages  bool
	UTF16Columns      bool
	FileSeparatorOn   bool // a blank line / context separator between files
	FileSeparator     []byte

	// walker
	Hidden                                                    bool
	NoIgnore                                                  bool // -u/--no-ignore: also turns off .rgignore
	NoIgnoreDot, NoIgnoreVCS, NoIgnoreParent, NoIgnoreExclude bool
	NoIgnoreGlobal, NoIgnoreFiles, NoRequireGit               bool
	IgnoreFiles                                               []string
	IgnoreFileCaseInsensitive                                 bool
	Globs                                                     []Glob
	TypeAdd, TypeClear, TypeSelect, TypeNegate                []string
	TypeChanges                                               []FlagValue // the four, in command-line order (rg 15 applies them so)
	Follow                                                    bool
	MaxDepth                                                  int   // -1 = none
	MaxFilesize                                               int64 // -1 = none
	OneFileSystem                                             bool
	Sort                                                      string // "", path, modified, accessed, created
	SortReverse                                               bool

	// agent / MCP
	AgentRequest string
	AgentFormat  string
	MCPHTTP      string
}

// Glob is one -g/--iglob argument with its case sensitivity resolved.
type Glob struct {
	Pattern         string
	CaseInsensitive bool
}

// BinaryMode is how NUL bytes are handled.
type BinaryMode int

// Binary detection modes, as rg's BinaryDetection.
const (
	BinaryQuit    BinaryMode = iota // stop at the first NUL (walked files)
	BinaryConvert                   // treat NUL as a line end, warn (named files, --binary)
	BinaryNone                      // -a/--text, --null-data
)

// Load parses argv and derives the Config.
func Load(argv []string, env Env) (*Config, error) {
	argv, warnings := withConfigArgs(argv)
	a, err := Parse(argv)
	if err != nil {
		return nil, err
	}
	c := &Config{Args: a, Warnings: warnings}
	switch {
	case a.Has("help"):
		c.Command = CmdHelp
		return c, nil
	case a.Has("version"):
		c.Command = CmdVersion
		return c, nil
	}
	if v, ok := a.Value("agent"); ok {
		c.Command = CmdAgent
		c.AgentRequest = v
		c.AgentFormat, _ = a.Value("agent-format")
		return c, nil
	}
	if a.Has("mcp") || a.Has("mcp-http") {
		c.Command = CmdMCP
		c.MCPHTTP, _ = a.Value("mcp-http")
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
	takesFirstAsPath := a.Has("file") || a.Has("files") || a.Has("regexp") || a.Has("type-list") || a.Has("outline")
	paths := append([]string(nil), pos...)
	if takesFirstAsPath && hasPatternSlot {
		paths = append([]string{patternSlot}, paths...)
	}
	if !takesFirstAsPath && !hasPatternSlot && !a.Has("pcre2-version") {
		return nil, &UsageError{Msg: "error: The following required arguments were not provided:\n    <PATTERN>" + usageTail}
	}

	// Matcher flags.
	c.Fixed = a.Has("fixed-strings")
	c.Word = a.Has("word-regexp")
	c.Line = a.Has("line-regexp")
	c.Multiline = a.Has("multiline")
	c.DotAll = a.Has("multiline-dotall")
	c.CRLF = a.Has("crlf")
	c.NullData = a.Has("null-data")
	c.NoUnicode = a.Has("no-unicode") || a.Has("no-pcre2-unicode")
	c.IgnoreCase = a.Has("ignore-case") && !a.Has("case-sensitive")
	c.SmartCase = a.Has("smart-case") && !a.Has("ignore-case") && !a.Has("case-sensitive")
	c.Invert = a.Has("invert-match")

	if a.Has("pcre2") || a.Has("auto-hybrid-regex") {
		if a.Has("pcre2") {
			return nil, fmt.Errorf("PCRE2 is not available in this build of ripgrep")
		}
	}
	if v, ok := a.Value("pre"); ok && v != "" {
		return nil, fmt.Errorf("--pre is not supported: evgrep runs no preprocessor processes (it decompresses -z formats in process)")
	}
	if e, ok := a.Value("engine"); ok && e == "pcre2" {
		return nil, fmt.Errorf("PCRE2 is not available in this build of ripgrep")
	}

	// Patterns (rg's `patterns()`): -e values, else the positional; then -f files.
	if !a.Has("files") && !a.Has("type-list") && !a.Has("outline") {
		if es := a.Values("regexp"); len(es) > 0 {
			c.Patterns = append(c.Patterns, es...)
		} else if !a.Has("file") && hasPatternSlot {
			c.Patterns = append(c.Patterns, patternSlot)
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
				return nil, fmt.Errorf("%s: %s", f, input.OSErrorText(err))
			}
			c.Patterns = append(c.Patterns, splitPatternLines(data)...)
		}
	}

	// Paths.
	if len(paths) == 0 {
		c.UsingDefaultPath = true
		fileIsStdin := false
		for _, f := range a.Values("file") {
			if f == "-" {
				fileIsStdin = true
			}
		}
		searchCwd := !env.StdinReadable || (a.Has("file") && fileIsStdin) || a.Has("files") || a.Has("type-list") || a.Has("pcre2-version") || a.Has("outline")
		if searchCwd {
			paths = []string{"./"}
		} else {
			paths = []string{"-"}
		}
	}
	c.Paths = paths
	onlyStdin := len(paths) == 1 && paths[0] == "-"
	c.OneSearch = len(paths) == 1 && (onlyStdin || isFile(paths[0]))

	// Output kind.
	count, countMatches := a.Has("count"), a.Has("count-matches")
	if countMatches && c.Invert {
		count, countMatches = true, false
	} else if count && a.Has("only-matching") {
		count, countMatches = false, true
	}
	c.Quiet = a.Has("quiet")
	switch {
	case c.Quiet:
		c.Output = OutputSummary
		c.Summary = SummaryQuiet
	case a.Has("json"):
		c.Output = OutputJSON
	case count || countMatches || a.Has("files-with-matches") || a.Has("files-without-match"):
		c.Output = OutputSummary
		switch {
		case countMatches:
			c.Summary = SummaryCountMatches
		case count:
			c.Summary = SummaryCount
		case a.Has("files-with-matches"):
			c.Summary = SummaryPathWithMatch
		default:
			c.Summary = SummaryPathWithoutMatch
		}
	}

	// Contexts.
	after, err := usizeOf(a, "after-context")
	if err != nil {
		return nil, err
	}
	before, err := usizeOf(a, "before-context")
	if err != nil {
		return nil, err
	}
	both, err := usizeOf(a, "context")
	if err != nil {
		return nil, err
	}
	if both > 0 {
		before, after = both, both
	}
	c.BeforeContext, c.AfterContext = before, after
	c.Passthru = a.Has("passthru")

	// Line numbers (rg's `line_number()`).
	switch {
	case c.Output == OutputSummary:
		c.LineNumber = false
	case a.Has("no-line-number"):
		c.LineNumber = false
	case c.Output == OutputJSON:
		c.LineNumber = true
	default:
		c.LineNumber = (env.StdoutTTY && !onlyStdin) || a.Has("line-number") || a.Has("column") || a.Has("pretty") || a.Has("vimgrep")
	}

	c.Vimgrep = a.Has("vimgrep")
	c.Column = !a.Has("no-column") && (a.Has("column") || c.Vimgrep)
	c.Heading = !(a.Has("no-heading") || c.Vimgrep) && (env.StdoutTTY || a.Has("heading") || a.Has("pretty"))
	c.WithFilename = !a.Has("no-filename") && (a.Has("with-filename") || c.Vimgrep || len(paths) > 1 || (paths[0] != "-" && isDir(paths[0])))
	c.OnlyMatching = a.Has("only-matching")
	c.ByteOffset = a.Has("byte-offset")
	c.Trim = a.Has("trim")
	if r, ok := a.Value("replace"); ok {
		c.Replace, c.HasReplace = []byte(r), true
	}
	c.IncludeZero = a.Has("include-zero")
	c.Stats = c.Output == OutputJSON || a.Has("stats")
	c.NoMessages = a.Has("no-messages")
	c.NoIgnoreMessages = a.Has("no-ignore-messages")
	c.UTF16Columns = a.Has("utf16-columns")

	if a.Has("no-context-separator") {
		c.ContextSeparator = nil
	} else if s, ok := a.Value("context-separator"); ok {
		c.ContextSeparator = Unescape(s)
	} else {
		c.ContextSeparator = []byte("--")
	}
	c.FieldMatchSep = []byte(":")
	if s, ok := a.Value("field-match-separator"); ok {
		c.FieldMatchSep = Unescape(s)
	}
	c.FieldContextSep = []byte("-")
	if s, ok := a.Value("field-context-separator"); ok {
		c.FieldContextSep = Unescape(s)
	}
	if s, ok := a.Value("path-separator"); ok {
		sep := Unescape(s)
		if len(sep) > 1 {
			return nil, fmt.Errorf("A path separator must be exactly one byte, but the given separator is %d bytes: %s\nIn some shells on Windows '/' is automatically expanded. Use '//' instead.", len(sep), Escape(sep))
		}
		if len(sep) == 1 {
			c.PathSeparator = sep[0]
		}
	}
	c.NullPaths = a.Has("null")
	if c.NullPaths {
		c.PathTerminator = 0
	}

	// File separator (rg's `file_separator()`).
	if c.Output == OutputStandard {
		if c.Heading {
			c.FileSeparatorOn, c.FileSeparator = true, []byte{}
		} else if before > 0 || after > 0 {
			if c.ContextSeparator != nil {
				c.FileSeparatorOn, c.FileSeparator = true, c.ContextSeparator
			}
		}
	}

	// Color.
	color, _ := a.Value("color")
	if color == "" && c.Vimgrep {
		color = "never"
	}
	switch color {
	case "always", "ansi":
		c.Color = true
	case "", "auto":
		c.Color = (env.StdoutTTY || a.Has("pretty")) && os.Getenv("TERM") != "dumb" && os.Getenv("TERM") != ""
	}
	c.Colors = a.Values("colors")

	// Max count / columns.
	if v, ok := a.Value("max-count"); ok {
		n, _ := strconv.ParseInt(v, 10, 64)
		c.MaxCount = n
	} else {
		c.MaxCount = -1
	}
	if v, ok := a.Value("max-columns"); ok {
		n, _ := strconv.Atoi(v)
		c.MaxColumns = n
	}
	c.MaxColumnsPreview = a.Has("max-columns-preview")

	// Binary handling.
	unrestricted := a.Count("unrestricted")
	none := a.Has("text") || c.NullData
	switch {
	case none:
		c.BinaryImplicit = BinaryNone
	case a.Has("binary") || unrestricted >= 3:
		c.BinaryImplicit = BinaryConvert
	default:
		c.BinaryImplicit = BinaryQuit
	}
	if none {
		c.BinaryExplicit = BinaryNone
	} else {
		c.BinaryExplicit = BinaryConvert
	}

	// Encoding.
	if !a.Has("no-encoding") {
		if e, ok := a.Value("encoding"); ok {
			if e != "auto" && e != "none" {
				if err := input.ValidateEncoding(e); err != nil {
					return nil, err
				}
			}
			if e != "auto" {
				c.Encoding = e
			}
		}
	}
	c.SearchZip = a.Has("search-zip")
	c.Mmap = a.Has("mmap")

	// Walker.
	noIgnore := a.Has("no-ignore") || unrestricted >= 1
	c.Hidden = a.Has("hidden") || unrestricted >= 2
	c.NoIgnore = noIgnore
	c.NoIgnoreDot = a.Has("no-ignore-dot") || noIgnore
	c.NoIgnoreExclude = a.Has("no-ignore-exclude") || noIgnore
	c.NoIgnoreFiles = a.Has("no-ignore-files")
	c.NoIgnoreGlobal = a.Has("no-ignore-global") || noIgnore
	c.NoIgnoreParent = a.Has("no-ignore-parent") || noIgnore
	c.NoIgnoreVCS = a.Has("no-ignore-vcs") || noIgnore
	c.NoRequireGit = a.Has("no-require-git")
	c.IgnoreFiles = a.Values("ignore-file")
	c.IgnoreFileCaseInsensitive = a.Has("ignore-file-case-insensitive")
	gci := a.Has("glob-case-insensitive")
	for _, g := range a.Values("glob") {
		c.Globs = append(c.Globs, Glob{Pattern: g, CaseInsensitive: gci})
	}
	for _, g := range a.Values("iglob") {
		c.Globs = append(c.Globs, Glob{Pattern: g, CaseInsensitive: true})
	}
	c.TypeClear = a.Values("type-clear")
	c.TypeAdd = a.Values("type-add")
	c.TypeSelect = a.Values("type")
	c.TypeNegate = a.Values("type-not")
	c.TypeChanges = a.InOrder("type-clear", "type-add", "type", "type-not")
	c.Follow = a.Has("follow")
	c.MaxDepth = -1
	if v, ok := a.Value("max-depth"); ok {
		n, _ := strconv.Atoi(v)
		c.MaxDepth = n
	}
	c.MaxFilesize = -1
	if v, ok := a.Value("max-filesize"); ok {
		n, err := ParseHumanSize(v)
		if err != nil {
			return nil, err
		}
		c.MaxFilesize = n
	}
	c.OneFileSystem = a.Has("one-file-system")
	if a.Has("sort-files") {
		c.Sort = "path"
	} else if v, ok := a.Value("sort"); ok {
		c.Sort = v
	} else if v, ok := a.Value("sortr"); ok {
		c.Sort, c.SortReverse = v, true
	}
	if c.Sort == "none" {
		c.Sort, c.SortReverse = "", false
	}

	// Threads.
	threads := 0
	if v, ok := a.Value("threads"); ok {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("invalid digit found in string")
		}
		threads = int(n)
	}
	if c.Sort != "" {
		threads = 1
	}
	if threads == 0 {
		threads = min(12, runtime.NumCPU())
	}
	c.Threads = threads

	// Command.
	switch {
	case a.Has("pcre2-version"):
		c.Command = CmdPCRE2Version
	case a.Has("type-list"):
		c.Command = CmdTypeList
	case a.Has("outline"):
		c.Command = CmdOutline
	case a.Has("files"):
		c.Command = CmdFiles
	case len(c.Patterns) == 0 || c.MaxCount == 0:
		c.Command = CmdSearchNever
	default:
		c.Command = CmdSearch
	}
	return c, nil
}

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

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// HasStdinPath reports whether "-" is among the paths.
func (c *Config) HasStdinPath() bool {
	for _, p := range c.Paths {
		if p == "-" {
			return true
		}
	}
	return false
}

// String is for debugging.
func (k OutputKind) String() string {
	return [...]string{"standard", "summary", "json"}[k]
}
