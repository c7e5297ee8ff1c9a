// Package app is the glue between the command line and the engine packages:
// it parses rg-compatible flags, runs the search pipeline (walker → readers
// → matcher → printers) and maps errors to rg's exit codes.
package app

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/evgrep/evgrep/internal/cli"
	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/printer"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/walker"
	"github.com/evgrep/evgrep/walker/ignore"
	"github.com/evgrep/evgrep/walker/types"
)

// Version is evgrep's version string.
const Version = "0.1.0"

// versionText is --version's output. Run through a link named rg (as a
// drop-in replacement), the first line reads as rg 13's so that tools that
// check "ripgrep N.N.N" accept it; otherwise it names evgrep.
func versionText(argv0 string) string {
	if argv0 == "rg" {
		return "ripgrep 13.0.0 (evgrep " + Version + ")\n-SIMD -AVX (compiled)\n+SIMD +AVX (runtime)\n"
	}
	return "evgrep " + Version + " (ripgrep 13.0.0 compatible)\n"
}

// gcPercent is the GC target used unless GOGC is set.
const gcPercent = 50

// Exit codes, as rg.
const (
	exitMatch   = 0
	exitNoMatch = 1
	exitError   = 2
)

// Main runs evgrep with args (without the program name) and returns the exit
// code: 0 when something matched, 1 when nothing did, 2 on error.
//
// EVGREP_CPUPROFILE=FILE writes a pprof CPU profile of the run (for the
// benchmark work; see bench/README.md).
func Main(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	// A search keeps little live data (buffers, one directory at a time):
	// a tighter GC target and no allocation profiling keep the resident
	// size down at no measurable cost (bench/README.md).
	runtime.MemProfileRate = 0
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
	if path := os.Getenv("EVGREP_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			defer f.Close()
			if pprof.StartCPUProfile(f) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}
	env := cli.Env{StdoutTTY: isTTY(stdout), StdinReadable: isReadableStdin(stdin), Stdin: stdin}
	cfg, err := cli.Load(args, env)
	if err != nil {
		fmt.Fprintln(stderr, strings.TrimRight(err.Error(), "\n"))
		return exitError
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintln(stderr, w)
	}
	switch cfg.Command {
	case cli.CmdHelp:
		cli.WriteHelp(stdout, Version)
		return exitMatch
	case cli.CmdVersion:
		fmt.Fprint(stdout, versionText(filepath.Base(os.Args[0])))
		return exitMatch
	case cli.CmdPCRE2Version:
		fmt.Fprintln(stderr, "PCRE2 is not available in this build of ripgrep.")
		return exitError
	}
	// As rg: a closed pipe on stdout (`evgrep … | head -1`) ends the
	// search quietly with status 0 instead of killing the process.
	signal.Ignore(syscall.SIGPIPE)
	r := &run{cfg: cfg, stdin: stdin, stderr: stderr, rawOut: stdout, start: time.Now()}
	bw := bufio.NewWriterSize(stdout, 64*1024)
	r.out = bw
	code := r.main()
	err = bw.Flush()
	if isBrokenPipe(err) || isBrokenPipe(r.outErr) {
		return exitMatch
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitError
	}
	return code
}

// run is one invocation.
type run struct {
	cfg    *cli.Config
	stdin  *os.File
	stderr io.Writer
	rawOut io.Writer // unbuffered stdout, for the MCP stdio transport
	start  time.Time

	outMu      sync.Mutex
	out        *bufio.Writer
	anyPrinted bool
	outErr     error

	errored atomic.Bool
	matched atomic.Bool
	quit    atomic.Bool
	// quitSearch stops searching (not walking) after -q found a match.
	quitSearch atomic.Bool

	statsMu sync.Mutex
	stats   printer.Stats
}

// message prints a per-path error in rg's style and marks the run as
// failed (exit 2), unless --no-messages.
func (r *run) message(format string, a ...any) {
	r.errored.Store(true)
	if r.cfg.NoMessages {
		return
	}
	r.outMu.Lock()
	fmt.Fprintf(r.stderr, format+"\n", a...)
	r.outMu.Unlock()
}

func (r *run) main() int {
	cfg := r.cfg
	switch cfg.Command {
	case cli.CmdTypeList:
		b, err := r.typesBuilder()
		if err != nil {
			fmt.Fprintln(r.stderr, err)
			return exitError
		}
		_, _ = types.WriteList(r.out, b.Definitions())
		return exitMatch
	case cli.CmdAgent:
		return r.agent()
	case cli.CmdMCP:
		return r.mcp()
	}
	if cfg.Command == cli.CmdOutline {
		wopts, err := r.walkerOptions()
		if err != nil {
			fmt.Fprintln(r.stderr, err)
			return exitError
		}
		return r.outline(wopts)
	}

	wopts, err := r.walkerOptions()
	if err != nil {
		fmt.Fprintln(r.stderr, err)
		return exitError
	}
	switch cfg.Command {
	case cli.CmdFiles:
		r.files(wopts)
	case cli.CmdSearchNever:
		// rg searches nothing when no pattern can match (an empty -f file
		// or -m0).
	default:
		eng, err := newEngine(cfg)
		if err != nil {
			fmt.Fprintln(r.stderr, err)
			return exitError
		}
		if err := r.search(wopts, eng); err != nil {
			fmt.Fprintln(r.stderr, err)
			return exitError
		}
	}
	if r.matched.Load() && (cfg.Quiet || !r.errored.Load()) {
		return exitMatch
	}
	if r.errored.Load() {
		return exitError
	}
	return exitNoMatch
}

func (r *run) typesBuilder() (*types.Builder, error) {
	cfg := r.cfg
	kinds := map[string]types.ChangeKind{"type-clear": types.ChangeClear, "type-add": types.ChangeAdd, "type": types.ChangeSelect, "type-not": types.ChangeNegate}
	var changes []types.Change
	for _, fv := range cfg.TypeChanges {
		changes = append(changes, types.Change{Kind: kinds[fv.Flag], Arg: fv.Value})
	}
	return types.FromChanges(changes)
}

func (r *run) walkerOptions() (walker.Options, error) {
	cfg := r.cfg
	o := walker.DefaultOptions()
	o.Threads = cfg.Threads
	o.Hidden = cfg.Hidden
	o.NoIgnore = cfg.NoIgnore
	o.NoIgnoreDot = cfg.NoIgnoreDot
	o.NoIgnoreVCS = cfg.NoIgnoreVCS
	o.NoIgnoreParent = cfg.NoIgnoreParent
	o.NoIgnoreExclude = cfg.NoIgnoreExclude
	o.NoIgnoreGlobal = cfg.NoIgnoreGlobal
	o.NoIgnoreFiles = cfg.NoIgnoreFiles
	o.RequireGit = !cfg.NoRequireGit
	o.IgnoreFiles = cfg.IgnoreFiles
	o.IgnoreCaseInsensitive = cfg.IgnoreFileCaseInsensitive
	for _, g := range cfg.Globs {
		o.Globs = append(o.Globs, ignore.OverrideGlob{Pattern: g.Pattern, CaseInsensitive: g.CaseInsensitive})
	}
	if len(o.Globs) > 0 {
		cwd, _ := os.Getwd()
		if _, err := ignore.NewOverride(cwd, o.Globs); err != nil {
			return o, err
		}
	}
	b, err := r.typesBuilder()
	if err != nil {
		return o, err
	}
	tm, err := b.Build()
	if err != nil {
		return o, err
	}
	if !tm.Empty() {
		o.Types = tm
	}
	o.Follow = cfg.Follow
	o.MaxDepth = cfg.MaxDepth
	o.MaxFilesize = cfg.MaxFilesize
	o.OneFileSystem = cfg.OneFileSystem
	switch cfg.Sort {
	case "path":
		o.Sort = walker.SortPath
	case "modified":
		o.Sort = walker.SortModified
	case "accessed":
		o.Sort = walker.SortAccessed
	case "created":
		o.Sort = walker.SortCreated
	}
	o.SortReverse = cfg.SortReverse
	if cfg.Command != cli.CmdFiles {
		if id, ok := walker.FileIDOf(os.Stdout); ok {
			if st, err := os.Stdout.Stat(); err == nil && st.Mode().IsRegular() {
				o.SkipFile = &id
			}
		}
	}
	o.OnError = func(err error) { r.message("%s", err) }
	o.OnIgnoreError = func(err error) {
		if !cfg.NoMessages && !cfg.NoIgnoreMessages {
			r.outMu.Lock()
			fmt.Fprintln(r.stderr, err)
			r.outMu.Unlock()
		}
	}
	return o, nil
}

// files implements --files.
func (r *run) files(wopts walker.Options) {
	cfg := r.cfg
	popts := r.printerOptions()
	walker.Walk(cfg.Paths, wopts, func(e walker.Entry) bool {
		if r.quit.Load() {
			return false
		}
		var b []byte
		p := popts.FormatPath(r.displayPath(e))
		if popts.Color && !popts.Colors.Path.IsNone() {
			b = append(b, popts.Colors.Path.Start()...)
			b = append(b, p...)
			b = append(b, "\x1b[0m"...)
		} else {
			b = append(b, p...)
		}
		if cfg.NullPaths {
			b = append(b, 0)
		} else {
			b = append(b, '\n')
		}
		r.matched.Store(true)
		if cfg.Quiet {
			r.quit.Store(true)
			return false
		}
		r.emit(b, false)
		return true
	})
}

// displayPath is the path as printed: "<stdin>" for standard input, and
// without the "./" of the implicit root (rg's strip_dot_prefix).
func (r *run) displayPath(e walker.Entry) string {
	if e.Stdin {
		return "<stdin>"
	}
	if r.cfg.UsingDefaultPath {
		return strings.TrimPrefix(e.Path, "./")
	}
	return e.Path
}

// emit writes one file's output, with rg's separator between files.
func (r *run) emit(b []byte, separated bool) {
	if len(b) == 0 {
		return
	}
	r.outMu.Lock()
	defer r.outMu.Unlock()
	if r.outErr != nil {
		return
	}
	if separated && r.cfg.FileSeparatorOn && r.anyPrinted {
		r.out.Write(r.cfg.FileSeparator)
		if r.cfg.Threads == 1 {
			r.out.Write(lineTerm(r.cfg))
		} else {
			r.out.WriteByte('\n')
		}
	}
	if _, err := r.out.Write(b); err != nil {
		r.outErr = err
		r.quit.Store(true)
	}
	r.anyPrinted = true
}

func lineTerm(cfg *cli.Config) []byte {
	switch {
	case cfg.NullData:
		return []byte{0}
	case cfg.CRLF:
		return []byte("\r\n")
	}
	return []byte("\n")
}

func (r *run) printerOptions() *printer.Options {
	cfg := r.cfg
	colors, err := printer.ParseColors(cfg.Colors)
	if err != nil {
		colors = printer.DefaultColors()
	}
	o := &printer.Options{
		Color:             cfg.Color,
		Colors:            colors,
		Heading:           cfg.Heading,
		WithFilename:      cfg.WithFilename,
		OnlyMatching:      cfg.OnlyMatching,
		PerMatch:          cfg.Vimgrep,
		Column:            cfg.Column,
		ByteOffset:        cfg.ByteOffset,
		Trim:              cfg.Trim,
		Replacement:       cfg.Replace,
		HasReplacement:    cfg.HasReplace,
		MaxColumns:        cfg.MaxColumns,
		MaxColumnsPreview: cfg.MaxColumnsPreview,
		MaxCount:          cfg.MaxCount,
		FieldMatchSep:     cfg.FieldMatchSep,
		FieldContextSep:   cfg.FieldContextSep,
		ContextSeparator:  cfg.ContextSeparator,
		PathSeparator:     cfg.PathSeparator,
		NullPath:          cfg.NullPaths,
		Stats:             cfg.Stats,
		LineTerm:          lineTerm(cfg),
		IncludeZero:       cfg.IncludeZero,
		UTF16Columns:      cfg.UTF16Columns,
	}
	switch cfg.Summary {
	case cli.SummaryCount:
		o.SummaryKind = printer.SummaryCount
	case cli.SummaryCountMatches:
		o.SummaryKind = printer.SummaryCountMatches
	case cli.SummaryPathWithMatch:
		o.SummaryKind = printer.SummaryPathWithMatch
	case cli.SummaryPathWithoutMatch:
		o.SummaryKind = printer.SummaryPathWithoutMatch
	case cli.SummaryQuiet:
		o.SummaryKind = printer.SummaryQuiet
	}
	return o
}

// filePrinter is the common face of the three printers.
type filePrinter interface {
	search.Sink
	Reset(path string)
	Bytes() []byte
	Stats() *printer.Stats
	MatchCount() int64
}

// worker owns the per-goroutine state of a search.
type worker struct {
	implicit, explicit *search.Searcher
	p                  filePrinter
}

func (r *run) search(wopts walker.Options, eng *engine) error {
	cfg := r.cfg
	if _, err := printer.ParseColors(cfg.Colors); err != nil {
		return err
	}
	popts := r.printerOptions()
	multiline := cfg.Multiline && eng.canMatchTerm
	base := search.Config{
		LineTerm:    '\n',
		CRLF:        cfg.CRLF,
		Invert:      cfg.Invert,
		Before:      cfg.BeforeContext,
		After:       cfg.AfterContext,
		Passthru:    cfg.Passthru,
		LineNumbers: cfg.LineNumber,
		Multiline:   multiline,
		BOMPeek:     cfg.Encoding == "",
	}
	if cfg.NullData {
		base.LineTerm = 0
	}
	mode := func(m cli.BinaryMode) search.BinaryMode {
		switch m {
		case cli.BinaryQuit:
			return search.BinaryQuit
		case cli.BinaryConvert:
			return search.BinaryConvert
		}
		return search.BinaryNone
	}
	pool := sync.Pool{New: func() any {
		ic, ec := base, base
		ic.Binary = mode(cfg.BinaryImplicit)
		ec.Binary = mode(cfg.BinaryExplicit)
		w := &worker{implicit: search.New(ic, eng), explicit: search.New(ec, eng)}
		switch cfg.Output {
		case cli.OutputJSON:
			w.p = printer.NewJSON(popts, eng)
		case cli.OutputSummary:
			w.p = printer.NewSummary(popts, eng)
		default:
			w.p = printer.NewStandard(popts, eng)
		}
		return w
	}}
	useMmap := r.mmapChoice()
	iopts := input.Options{SearchZip: cfg.SearchZip, Encoding: cfg.Encoding}
	var searched atomic.Bool
	walker.Walk(cfg.Paths, wopts, func(e walker.Entry) bool {
		searched.Store(true)
		if r.quit.Load() {
			return false
		}
		if r.quitSearch.Load() {
			// -q found a match: search no more, but let the walk report
			// the remaining paths' errors as rg does.
			return true
		}
		w := pool.Get().(*worker)
		defer pool.Put(w)
		s := w.implicit
		if e.Explicit || e.Stdin {
			s = w.explicit
		}
		w.p.Reset(r.displayPath(e))
		if err := r.searchOne(s, w.p, e, useMmap, multiline, iopts); err != nil {
			r.message("%s: %s", r.displayPath(e), err)
			return !r.quit.Load()
		}
		hasMatch := w.p.MatchCount() > 0
		if cfg.Summary == cli.SummaryPathWithoutMatch {
			// rg 13 reports success when it printed a path.
			hasMatch = !hasMatch
		}
		if hasMatch {
			r.matched.Store(true)
			if cfg.Quiet && !cfg.Stats {
				r.quitSearch.Store(true)
			}
		}
		if cfg.Stats {
			r.statsMu.Lock()
			r.stats.Add(w.p.Stats())
			r.statsMu.Unlock()
		}
		r.emit(w.p.Bytes(), cfg.Output == cli.OutputStandard)
		return !r.quit.Load()
	})
	if cfg.UsingDefaultPath && !searched.Load() {
		r.message("No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.")
	}
	if cfg.Stats {
		r.outMu.Lock()
		defer r.outMu.Unlock()
		if cfg.Output == cli.OutputJSON || cfg.Args.Has("json") {
			return printer.WriteJSONSummary(r.out, &r.stats, time.Since(r.start))
		}
		if cfg.Summary != cli.SummaryPathWithMatch && cfg.Summary != cli.SummaryPathWithoutMatch {
			return printer.WriteStats(r.out, &r.stats, time.Since(r.start))
		}
	}
	return nil
}

// mmapChoice is rg's rule: --mmap, or at most 10 paths that are all files.
func (r *run) mmapChoice() bool {
	cfg := r.cfg
	if cfg.Args.Has("no-mmap") {
		return false
	}
	if cfg.Mmap {
		return true
	}
	if len(cfg.Paths) > 10 {
		return false
	}
	for _, p := range cfg.Paths {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	return true
}

// searchOne searches one entry with the reader path rg would take.
func (r *run) searchOne(s *search.Searcher, p filePrinter, e walker.Entry, useMmap, multiline bool, iopts input.Options) error {
	if e.Stdin {
		rd := input.Wrap(r.stdin, iopts)
		if multiline {
			data, err := io.ReadAll(rd)
			if err != nil {
				return errors.New(input.OSErrorText(err))
			}
			return s.SearchSlice(data, p)
		}
		return s.SearchReader(rd, p)
	}
	zipped := iopts.SearchZip && input.CompressionFormat(e.Path) != ""
	if (useMmap || multiline) && !zipped {
		data, release, err := mapFile(e.Path)
		if err != nil {
			return err
		}
		if data != nil {
			defer release()
			if input.Raw(e.Path, data[:min(len(data), input.HeadLen)], iopts) {
				return guardFault(func() error { return s.SearchSlice(data, p) })
			}
		} else if data, err = os.ReadFile(e.Path); err != nil {
			return errors.New(input.OSErrorText(err))
		} else if len(data) > 0 && input.Raw(e.Path, data[:min(len(data), input.HeadLen)], iopts) {
			return s.SearchSlice(data, p)
		}
		if multiline {
			rc, err := input.NewReader(strings.NewReader(string(data)), e.Path, iopts)
			if err != nil {
				return err
			}
			defer rc.Close()
			dec, err := io.ReadAll(rc)
			if err != nil {
				return err
			}
			return s.SearchSlice(dec, p)
		}
	}
	if !zipped {
		// The common case: read the descriptor directly, decoding only
		// when the head holds a BOM or a label asks for it.
		var head [input.HeadLen]byte
		f, err := openRaw(e.Path, head[:])
		if err != nil {
			return err
		}
		defer f.Close()
		if input.Raw(e.Path, f.head, iopts) {
			return s.SearchReader(f, p)
		}
		rc, err := input.NewReader(f, e.Path, iopts)
		if err != nil {
			return err
		}
		defer rc.Close()
		return s.SearchReader(rc, p)
	}
	rc, err := input.Open(e.Path, iopts)
	if err != nil {
		return err
	}
	defer rc.Close()
	return s.SearchReader(rc, p)
}

func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}

func isReadableStdin(f *os.File) bool {
	if f == nil {
		return false
	}
	st, err := f.Stat()
	if err != nil {
		return false
	}
	m := st.Mode()
	return m.IsRegular() || m&os.ModeNamedPipe != 0 || m&os.ModeSocket != 0
}

func isBrokenPipe(err error) bool {
	return errors.Is(err, syscall.EPIPE)
}
