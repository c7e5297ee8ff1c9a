// Package app is the process around evgrep: it loads the configuration
// (internal/cli), compiles the pattern, runs internal/pipeline with the rg
// printers as its sinks and emits their output, dispatches --files,
// --type-list, --outline, --agent and --mcp, and owns the process concerns
// (GC target, profiling, SIGPIPE, buffered stdout, rg's exit codes).
package app

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/term"

	"github.com/evgrep/evgrep/internal/cli"
	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/internal/printer"
	"github.com/evgrep/evgrep/internal/startpages"
	"github.com/evgrep/evgrep/matcher/pcre2"
	"github.com/evgrep/evgrep/walker"
	"github.com/evgrep/evgrep/walker/types"
)

// Version is evgrep's version string. `make release` sets it to `git
// describe --tags --always --dirty` with -ldflags -X (see version.go for
// builds that do not; version() is what is printed).
var Version = defaultVersion

// RGVersion is the ripgrep release whose command line evgrep follows.
const RGVersion = "15.2.0"

// versionText is -V's output, or with long --version's. Run through a
// link named rg (as a drop-in replacement), the first line reads as rg
// 15.2's, with evgrep's version where rg names its revision, so that tools
// that check "ripgrep N.N.N" accept it; otherwise it names evgrep. The
// long form adds, as rg 15.2's does, the features and the PCRE2 line (-P
// works in every build: a Go PCRE2, without JIT).
func versionText(argv0 string, long bool) string {
	first := "evgrep " + version() + " (ripgrep " + RGVersion + " compatible)\n"
	if argv0 == "rg" {
		first = "ripgrep " + RGVersion + " (evgrep " + version() + ")\n"
	}
	if !long {
		return first
	}
	return first + "\nfeatures:+pcre2\n\n" + pcre2.VersionText() + "\n"
}

// Exit codes, as rg.
const (
	exitMatch   = 0
	exitNoMatch = 1
	exitError   = 2
)

// Main runs evgrep with args (without the program name) and returns the exit
// code: 0 when something matched, 1 when nothing did, 2 on error.
//
// EVGREP_CPUPROFILE=FILE writes a pprof CPU profile of the run; a binary
// built with the evgprof tag also honours EVGREP_MEMPROFILE (memprofile.go).
func Main(args []string, stdin *os.File, stdout, stderr io.Writer) int {
	// A search keeps little live data (buffers, one directory at a time):
	// its GC target (limits.go) keeps the resident size down
	// (bench/README.md).
	defer memProfile()()
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
		errorLine(stderr, strings.TrimRight(err.Error(), "\n"))
		return exitError
	}
	for _, w := range cfg.Warnings {
		errorLine(stderr, w)
	}
	// The MCP server lives long and keeps snapshots: its lower target.
	// One --agent call keeps the search's target, which on a small tree
	// means no collection at all (five at 50), under a soft bound for the
	// calls whose snapshot is large.
	if os.Getenv("GOGC") == "" {
		switch cfg.Command {
		case cli.CmdMCP:
			debug.SetGCPercent(serverGCPercent)
		case cli.CmdAgent:
			if os.Getenv("GOMEMLIMIT") == "" {
				debug.SetMemoryLimit(agentMemoryLimit)
			}
		}
	}
	switch cfg.Command {
	case cli.CmdHelp:
		cli.WriteHelp(stdout, version())
		return exitMatch
	case cli.CmdVersion:
		fmt.Fprint(stdout, versionText(filepath.Base(os.Args[0]), cfg.VersionLong))
		return exitMatch
	case cli.CmdGenerate:
		prog := "evgrep"
		if filepath.Base(os.Args[0]) == "rg" {
			prog = "rg"
		}
		if err := cli.WriteGenerated(stdout, cfg.Generate, prog, version()); err != nil {
			fmt.Fprintln(stderr, err)
			return exitError
		}
		return exitMatch
	case cli.CmdPCRE2Version:
		fmt.Fprintln(stdout, pcre2.VersionText())
		return exitMatch
	}
	// As rg: a closed pipe on stdout (`evgrep … | head -1`) ends the
	// search quietly instead of killing the process. The status is the
	// one the search earned before the pipe closed (see printSink.End):
	// rg stops at the write that fails and says nothing on stderr.
	signal.Ignore(syscall.SIGPIPE)
	r := &run{cfg: cfg, stdin: stdin, stderr: stderr, rawOut: stdout, start: time.Now()}
	bw := bufio.NewWriterSize(stdout, stdoutBufferSize)
	r.out = bw
	code := r.main()
	err = bw.Flush()
	if isBrokenPipe(err) || isBrokenPipe(r.outErr) {
		return code
	}
	if err != nil {
		errorLine(stderr, err)
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
	errorLine(r.stderr, fmt.Sprintf(format, a...))
	r.outMu.Unlock()
}

// errorLine prints one message to stderr as rg 15 does: "rg: " first (on
// the message's first line only), whatever the program's name, so that
// tools reading rg's messages read ours.
func errorLine(w io.Writer, msg any) {
	fmt.Fprintf(w, "rg: %v\n", msg)
}

func (r *run) main() int {
	cfg := r.cfg
	switch cfg.Command {
	case cli.CmdTypeList:
		b, err := types.FromChanges(cfg.Types)
		if err != nil {
			errorLine(r.stderr, err)
			return exitError
		}
		_, _ = types.WriteList(r.out, b.Definitions())
		return exitMatch
	case cli.CmdAgent:
		return r.agent()
	case cli.CmdMCP:
		return r.mcp()
	case cli.CmdSearchNever:
		// rg searches nothing when no pattern can match (an empty -f file
		// or -m0).
		return exitNoMatch
	}
	var m patternMatcher
	if cfg.Command == cli.CmdSearch {
		var err error
		if m, err = compileMatcher(cfg); err != nil {
			errorLine(r.stderr, err)
			return exitError
		}
	}
	wopts, err := r.walkOptions()
	if err != nil {
		errorLine(r.stderr, err)
		return exitError
	}
	if cfg.Command == cli.CmdSearch || cfg.Command == cli.CmdFiles {
		// What the configuration and the pattern's compilation touched
		// (flag tables, the regex parser, ...) is given back before the
		// walk, as start-up's pages were (internal/startpages): a walk's
		// peak no longer sits on top of them.
		startpages.Drop()
	}
	switch cfg.Command {
	case cli.CmdAnalysis:
		return r.analysis(wopts)
	case cli.CmdOutline:
		return r.outline(wopts)
	case cli.CmdStructural:
		return r.structuralSearch(wopts)
	case cli.CmdTerms:
		return r.terms(wopts)
	case cli.CmdRank:
		return r.rank(wopts)
	case cli.CmdFiles:
		err = r.files(wopts)
	default:
		err = r.search(wopts, m)
	}
	if err != nil {
		errorLine(r.stderr, err)
		return exitError
	}
	if r.matched.Load() && (cfg.Quiet || !r.errored.Load()) {
		return exitMatch
	}
	if r.errored.Load() {
		return exitError
	}
	return exitNoMatch
}

// walkOptions completes the walk's options with what only the process
// knows: the compiled file types, the file stdout is redirected to, and
// where problems are reported.
func (r *run) walkOptions() (walker.Options, error) {
	cfg := r.cfg
	o := cfg.Pipeline.Walk
	// Without a type flag the matcher is empty: the built-in table (some
	// 300 types' globs, copied) is not built at every start.
	if len(cfg.Types) > 0 {
		b, err := types.FromChanges(cfg.Types)
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
	}
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
			errorLine(r.stderr, err)
			r.outMu.Unlock()
		}
	}
	return o, nil
}

// files implements --files.
func (r *run) files(wopts walker.Options) error {
	cfg := r.cfg
	popts := &cfg.Printer
	files := pipeline.Files
	if cfg.Rev != "" {
		files = func(_ []string, wopts walker.Options, visit func(walker.Entry) bool) error {
			return r.gitFiles(wopts, visit)
		}
	}
	// One path line per entry, built in a pooled buffer (emit copies it
	// out): no allocation per file (bench/README.md, "The RSS floor").
	colorStart := ""
	if popts.Color && !popts.Colors.Path.IsNone() {
		colorStart = popts.Colors.Path.Start()
	}
	return files(cfg.Paths, wopts, func(e walker.Entry) bool {
		if r.quit.Load() {
			return false
		}
		bp := pathLinePool.Get().(*[]byte)
		defer pathLinePool.Put(bp)
		b := (*bp)[:0]
		b = popts.AppendLinkOpen(b, r.displayPath(e))
		if colorStart != "" {
			b = append(b, colorStart...)
			b = popts.AppendPath(b, r.displayPath(e))
			b = append(b, "\x1b[0m"...)
		} else {
			b = popts.AppendPath(b, r.displayPath(e))
		}
		b = popts.AppendLinkClose(b)
		if popts.NullPath {
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
		*bp = b
		return true
	})
}

// pathLinePool holds the line buffers of --files.
var pathLinePool = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

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
		n := len(r.cfg.FileSeparator) + 1
		if r.cfg.Pipeline.Walk.Threads == 1 {
			r.out.Write(r.cfg.Printer.LineTerm)
			n += len(r.cfg.Printer.LineTerm) - 1
		} else {
			r.out.WriteByte('\n')
		}
		if r.cfg.Printer.Stats && r.cfg.Pipeline.Walk.Threads == 1 {
			// rg's printer counts the separator in "bytes printed" when
			// it prints it (one search at a time); rg's parallel
			// search prints it between the files' buffers and does
			// not count it.
			r.statsMu.Lock()
			r.stats.BytesPrinted += uint64(n)
			r.statsMu.Unlock()
		}
	}
	if _, err := r.out.Write(b); err != nil {
		r.outErr = err
		r.quit.Store(true)
	}
	r.anyPrinted = true
}

func (r *run) search(wopts walker.Options, m patternMatcher) error {
	cfg := r.cfg
	if cfg.ColorError != nil {
		return cfg.ColorError
	}
	popts := &cfg.Printer
	opts := cfg.Pipeline
	opts.Walk = wopts
	opts.Search.Multiline = opts.Search.Multiline && m.MatchesMayCross()
	opts.Stdin = r.stdin
	var searched atomic.Bool
	separated := cfg.Output == cli.OutputStandard
	oneAtATime := opts.Walk.Threads == 1 || r.oneFile()
	run := runFunc(pipeline.Run)
	if cfg.Rev != "" || cfg.ChangedSince != "" {
		gitRun, done, err := r.gitRun(&opts)
		if err != nil {
			return err
		}
		defer done()
		run, oneAtATime = gitRun, oneAtATime || cfg.Rev != ""
	}
	err := run(cfg.Paths, &opts, m, func() pipeline.Sink {
		ps := &printSink{r: r, searched: &searched, sequential: oneAtATime}
		switch cfg.Output {
		case cli.OutputJSON:
			ps.filePrinter = printer.NewJSON(popts, m)
		case cli.OutputSummary:
			ps.filePrinter = printer.NewSummary(popts, m)
		default:
			ps.filePrinter = printer.NewStandard(popts, m)
		}
		if sp, ok := ps.filePrinter.(spiller); ok && oneAtATime {
			// One search at a time, as rg prints then: a file's output
			// goes out as it is made (a 1 GiB line's output is never
			// held whole).
			sp.SetSpill(func(b []byte) {
				r.emit(b, separated && !ps.spilled)
				ps.spilled = true
			})
		}
		return ps
	})
	if err != nil {
		return err
	}
	if cfg.UsingDefaultPath && !searched.Load() {
		r.message("No files were searched, which means ripgrep probably applied a filter you didn't expect.\nRunning with --debug will show why files are being skipped.")
	}
	if cfg.Printer.Stats {
		r.outMu.Lock()
		defer r.outMu.Unlock()
		if !oneAtATime && separated && cfg.FileSeparatorOn && r.anyPrinted && r.outErr == nil {
			// rg's parallel search prints the statistics as one more
			// buffer, so the file separator goes before them too
			// (uncounted).
			r.out.Write(cfg.FileSeparator)
			r.out.WriteByte('\n')
		}
		// As rg: whether the statistics could be written does not
		// matter (a closed pipe, above all, stays quiet).
		if cfg.Output == cli.OutputJSON || cfg.JSON {
			_ = printer.WriteJSONSummary(r.out, &r.stats, time.Since(r.start))
			return nil
		}
		// rg 15 prints the block after every output form, -l and
		// --files-without-match included.
		_ = printer.WriteStats(r.out, &r.stats, time.Since(r.start))
	}
	return nil
}

// spiller is a printer that can write a file's output before the file is
// done (printer.JSON, printer.Standard).
type spiller interface{ SetSpill(func([]byte)) }

// oneFile reports whether the run searches one path that is a file or
// standard input: then there is one search at a time whatever the thread
// count (rg's is_one_search).
func (r *run) oneFile() bool {
	if len(r.cfg.Paths) != 1 {
		return false
	}
	if r.cfg.Paths[0] == "-" {
		return true
	}
	st, err := os.Stat(r.cfg.Paths[0])
	return err == nil && st.Mode().IsRegular()
}

func isTTY(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	// As rg (is_terminal): a terminal, not any character device, so
	// that `> /dev/null` gets the piped output (no colour, no heading).
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	tty := false
	if rc.Control(func(fd uintptr) { tty = term.IsTerminal(int(fd)) }) != nil {
		return false
	}
	return tty && os.Getenv("TERM") != "dumb"
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
