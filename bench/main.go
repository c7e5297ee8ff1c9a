// Command bench is evgrep's benchmark harness. It replays ripgrep's
// benchsuite queries, adapted to a GOROOT tree, a single large file and a
// tiny tree, against evgrep, rg, grep, git grep and ugrep (those that are
// installed), and reports median wall time, peak RSS, the evgrep/rg ratio
// and whether every tool printed as many lines as rg. It prints a Markdown
// table on stdout, writes JSON and an SVG chart under bench/results, and
// shows progress on stderr. It is a program, never a test: run it with
// `make bench`, `make bench-quick` or `go run ./bench --help`.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

func main() {
	debug.SetGCPercent(10)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the parsed command-line flags.
type options struct {
	quick      bool
	list       bool
	runs       int
	timeout    time.Duration
	others     time.Duration
	budget     time.Duration
	corpora    []string
	goroot     string
	evgrep     string
	rg         string
	tools      []string
	only       *regexp.Regexp
	noLarge    bool
	inPlace    bool
	cacheDir   string
	resultsDir string
	name       string
}

// stringList is a repeatable string flag.
type stringList []string

// String joins the values.
func (s *stringList) String() string { return strings.Join(*s, ",") }

// Set appends one value.
func (s *stringList) Set(v string) error {
	*s = append(*s, v)
	return nil
}

// parseOptions reads the flags; defaults depend on --quick, so the
// defaults of runs, timeout, budget and name are applied after parsing.
func parseOptions(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	root := repoRoot()
	o := &options{}
	var corpora stringList
	var tools, only string
	fs.BoolVar(&o.quick, "quick", false, "run the quick subset: fewer queries and runs, no large file")
	fs.BoolVar(&o.list, "list", false, "print the jobs and every tool's command line, run nothing")
	fs.IntVar(&o.runs, "runs", 0, fmt.Sprintf("timed runs per tool and query after one warm-up (default %d, %d with --quick)", defaultRuns, quickRuns))
	fs.DurationVar(&o.timeout, "timeout", 0, fmt.Sprintf("kill a single run of evgrep or rg after this long (default %s, %s with --quick)", defaultTimeout, quickTimeout))
	fs.DurationVar(&o.others, "others-timeout", 0, fmt.Sprintf("kill a single run of grep, git grep or ugrep after this long (default %s, %s with --quick)", defaultOthersTimeout, quickOthersTimeout))
	fs.DurationVar(&o.budget, "budget", 0, fmt.Sprintf("stop adding timed runs when measuring has taken this long (default %s, %s with --quick)", defaultBudget, quickBudget))
	fs.Var(&corpora, "corpus", "also run the tree queries on `DIR` (repeatable)")
	fs.StringVar(&o.goroot, "goroot", "", "the GOROOT tree to search and to build the large file from (default: go env GOROOT)")
	fs.StringVar(&o.evgrep, "evgrep", filepath.Join(root, "bin", "evgrep"), "the evgrep binary")
	fs.StringVar(&o.rg, "rg", os.Getenv("EVGREP_REFERENCE_RG"), "the reference rg binary (default: $EVGREP_REFERENCE_RG, else rg on PATH)")
	fs.StringVar(&tools, "tools", strings.Join(knownTools, ","), "comma-separated tools to run, when installed")
	fs.StringVar(&only, "only", "", "run only the jobs whose id (corpus/query) matches this `REGEXP`")
	fs.BoolVar(&o.noLarge, "no-large", false, "skip the large-file queries")
	fs.BoolVar(&o.inPlace, "in-place", false, "run evgrep and rg where they are instead of from fresh copies (see README: peak RSS)")
	fs.StringVar(&o.cacheDir, "cache", filepath.Join(root, "bench", ".cache"), "where the large file and the tiny tree are built")
	fs.StringVar(&o.resultsDir, "results", filepath.Join(root, "bench", "results"), "where the JSON and SVG results go")
	fs.StringVar(&o.name, "name", "", "base name of the result files (default latest, quick with --quick)")
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: go run ./bench [flags]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	o.corpora = corpora
	var err error
	if o.tools, err = parseToolList(tools); err != nil {
		return nil, err
	}
	if only != "" {
		if o.only, err = regexp.Compile(only); err != nil {
			return nil, fmt.Errorf("--only: %v", err)
		}
	}
	if o.runs < 0 || o.timeout < 0 || o.others < 0 || o.budget < 0 {
		return nil, errors.New("--runs, --timeout, --others-timeout and --budget must not be negative")
	}
	if o.runs == 0 {
		o.runs = pick(o.quick, quickRuns, defaultRuns)
	}
	if o.timeout == 0 {
		o.timeout = pick(o.quick, quickTimeout, defaultTimeout)
	}
	if o.others == 0 {
		o.others = pick(o.quick, quickOthersTimeout, defaultOthersTimeout)
	}
	if o.budget == 0 {
		o.budget = pick(o.quick, quickBudget, defaultBudget)
	}
	if o.name == "" {
		o.name = pick(o.quick, "quick", "latest")
	}
	if strings.ContainsAny(o.name, `/\`) {
		return nil, fmt.Errorf("--name %q: a base name, not a path", o.name)
	}
	return o, nil
}

// pick returns a when cond holds, else b.
func pick[T any](cond bool, a, b T) T {
	if cond {
		return a
	}
	return b
}

// repoRoot is the nearest directory at or above the working directory
// holding go.mod, or the working directory.
func repoRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return wd
		}
		dir = parent
	}
}

// childEnv is the environment every tool runs in: a UTF-8 locale (so that
// grep's \w and -i are Unicode-aware, as rg's), no user or system git
// configuration, no rg config file, no pager.
func childEnv() []string {
	env := []string{
		"LC_ALL=C.UTF-8", "LANG=C.UTF-8",
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull,
		"GIT_PAGER=cat", "PAGER=cat", "TERM=dumb",
	}
	for _, k := range []string{"PATH", "HOME", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// loadAverage is the 1-minute load average, or -1 when unknown.
func loadAverage() float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(data))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}

// run is the whole program; it returns the exit code (2 on a harness
// error, 0 otherwise: missed targets are reported, not failed).
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseOptions(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	if err := bench(o, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "bench:", err)
		return 2
	}
	return 0
}

// bench prepares the corpora, measures every job and writes the reports.
func bench(o *options, stdout, stderr io.Writer) error {
	started := time.Now()
	rep := &Report{Started: started, Quick: o.quick, Runs: o.runs,
		TimeoutSeconds: o.timeout.Seconds(), OthersTimeoutSeconds: o.others.Seconds(), BudgetSeconds: o.budget.Seconds(),
		Machine: Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPUs: runtime.NumCPU(),
			Load1: loadAverage(), Environment: "LC_ALL=C.UTF-8"}}
	tools, missing, err := findTools(o.evgrep, o.rg, o.tools)
	if err != nil {
		return err
	}
	for i := range tools {
		// ast-grep is the structural job's peer, not an informational
		// tool: it gets evgrep's timeout, or there is no ratio to give.
		peer := isCore(tools[i].Name) || tools[i].Name == toolAstGrep
		tools[i].Timeout = pick(peer, o.timeout, o.others)
	}
	if !o.inPlace {
		if err := installCopies(tools, filepath.Join(o.cacheDir, "bin")); err != nil {
			return err
		}
		rep.Notes = append(rep.Notes, "evgrep and rg ran from copies written to "+filepath.Join(o.cacheDir, "bin")+" (same bytes, same page-cache state; --in-place runs them where they are).")
	}
	rep.Tools, rep.Missing = tools, missing
	for _, t := range tools {
		rep.toolOrder = append(rep.toolOrder, t.Name)
		fmt.Fprintf(stderr, "bench: %-8s %s (%s)\n", t.Name, t.Path, t.Version)
	}
	if len(missing) > 0 {
		fmt.Fprintf(stderr, "bench: not installed, skipped: %s\n", strings.Join(missing, ", "))
		rep.Notes = append(rep.Notes, "not installed, skipped: "+strings.Join(missing, ", ")+".")
	}
	if !hasTool(tools, toolRg) {
		rep.Notes = append(rep.Notes, "rg is not installed: no ratios and no line-count check.")
	}

	corpora, err := prepareCorpora(o, stderr)
	if err != nil {
		return err
	}
	rep.Corpora = corpora
	jobs := selectJobs(corpora, o)
	if len(jobs) == 0 {
		return errors.New("no job selected (check --only)")
	}
	if o.list {
		return listJobs(stdout, jobs, tools)
	}

	r := newRunner(childEnv())
	deadline := time.Now().Add(o.budget) // corpus preparation is not in the budget
	shortCore, shortOthers := 0, 0
	for i, j := range jobs {
		runs := o.runs
		if j.Corpus.Kind == Tiny {
			runs *= tinyRunsFactor
		}
		left := time.Until(deadline)
		share := left / time.Duration(len(jobs)-i)
		fmt.Fprintf(stderr, "[%d/%d] %s %s (up to %d runs, %.0fs of budget left)\n",
			i+1, len(jobs), j.ID(), patternCell(JobResult{Pattern: j.Query.Pattern, Flags: j.Query.Flags()}),
			runs, left.Seconds())
		cells := measureJob(r, j, tools, plan{runs: runs, share: share, left: left}, stderr)
		jr := jobResult(j, cells)
		core, others := shortRuns(jr, runs)
		if core {
			shortCore++
		}
		if others {
			shortOthers++
		}
		rep.Jobs = append(rep.Jobs, jr)
	}
	if shortCore > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("to stay within the %s budget, evgrep and rg got fewer timed runs than asked on %d of %d jobs.", o.budget, shortCore, len(jobs)))
	}
	if shortOthers > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("to stay within the %s budget, grep, git grep or ugrep got fewer timed runs than asked on %d of %d jobs.", o.budget, shortOthers, len(jobs)))
	}
	rep.Summary = summarize(rep.Jobs)
	rep.Machine.HarnessRSS = r.maxFloorKiB
	if rep.Machine.HarnessRSS > 0 {
		rep.Notes = append(rep.Notes, fmt.Sprintf("a peak RSS marked ≤ is at the harness's own high-water mark (%.1f MB) and only bounds the tool's from above.", float64(rep.Machine.HarnessRSS)/1024))
	}
	rep.elapsed = time.Since(started)
	rep.Seconds = rep.elapsed.Seconds()
	if err := writeMarkdown(stdout, rep); err != nil {
		return err
	}
	return writeResults(o, rep, stderr)
}

// shortRuns reports whether evgrep or rg, and whether another tool, got
// fewer than runs timed runs on the job without having failed.
func shortRuns(jr JobResult, runs int) (core, others bool) {
	for _, t := range jr.Results {
		if t.Status != statusOK || t.Runs >= runs {
			continue
		}
		if isCore(t.Tool) {
			core = true
		} else {
			others = true
		}
	}
	return core, others
}

// hasTool reports whether tools holds name.
func hasTool(tools []Tool, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// prepareCorpora returns GOROOT, the --corpus trees, the tiny tree and
// (unless --quick or --no-large) the large file.
func prepareCorpora(o *options, stderr io.Writer) ([]Corpus, error) {
	goroot, err := findGoroot(o.goroot)
	if err != nil {
		return nil, err
	}
	var out []Corpus
	g, err := treeCorpus("goroot", goroot)
	if err != nil {
		return nil, fmt.Errorf("GOROOT: %v", err)
	}
	out = append(out, g)
	seen := map[string]bool{"goroot": true, "small": true, "tiny": true, "large": true}
	for _, dir := range o.corpora {
		name := filepath.Base(filepath.Clean(dir))
		if abs, err := filepath.Abs(dir); err == nil {
			name = filepath.Base(abs)
		}
		for base, k := name, 2; seen[name]; k++ {
			name = fmt.Sprintf("%s-%d", base, k)
		}
		seen[name] = true
		c, err := treeCorpus(name, dir)
		if err != nil {
			return nil, fmt.Errorf("--corpus: %v", err)
		}
		out = append(out, c)
	}
	out = append(out, langCorpora(stderr)...)
	small, err := treeCorpus("small", filepath.Join(goroot, "src", "net"))
	if err != nil {
		return nil, fmt.Errorf("small tree: %v", err)
	}
	small.Kind, small.KindName = Small, Small.String()
	out = append(out, small)
	tiny, err := prepareTiny(o.cacheDir, goroot)
	if err != nil {
		return nil, fmt.Errorf("tiny tree: %v", err)
	}
	out = append(out, tiny)
	if !o.quick && !o.noLarge {
		large, err := prepareLarge(o.cacheDir, goroot, largeFileMinBytes, stderr)
		if err != nil {
			return nil, fmt.Errorf("large file: %v", err)
		}
		out = append(out, large)
	}
	for _, c := range out {
		fmt.Fprintf(stderr, "bench: corpus %-8s %s: %d files, %.1f MB\n", c.Name, c.Path, c.Files, float64(c.Bytes)/(1<<20))
	}
	return out, nil
}

// selectJobs pairs every corpus with its queries, keeping the quick subset
// with --quick and the jobs matching --only.
func selectJobs(corpora []Corpus, o *options) []Job {
	var jobs []Job
	for _, c := range corpora {
		var qs []Query
		switch c.Kind {
		case Tree:
			qs = treeQueries
		case Tiny:
			qs = tinyQueries
		case Large:
			qs = largeQueries
		case Small:
			qs = smallQueries
		case Lang:
			for _, q := range langQueries {
				if q.Lang == c.Lang {
					qs = append(qs, q)
				}
			}
		}
		for _, q := range qs {
			q.Kind = c.Kind
			j := Job{Corpus: c, Query: q}
			if o.quick && !q.Quick {
				continue
			}
			if o.only != nil && !o.only.MatchString(j.ID()) {
				continue
			}
			jobs = append(jobs, j)
		}
	}
	return jobs
}

// listJobs prints every job with each tool's command line.
func listJobs(w io.Writer, jobs []Job, tools []Tool) error {
	var b strings.Builder
	for _, j := range jobs {
		fmt.Fprintf(&b, "%s\n", j.ID())
		for _, t := range tools {
			inv, ok := t.Invocation(j.Query, j.Corpus.Target())
			if !ok {
				fmt.Fprintf(&b, "  %-8s (no equivalent)\n", t.Name)
				continue
			}
			fmt.Fprintf(&b, "  %-8s (cd %s && %s)\n", t.Name, shellQuote(inv.Dir), inv)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeResults writes NAME.json and NAME.svg into the results folder.
func writeResults(o *options, rep *Report, stderr io.Writer) error {
	if err := os.MkdirAll(o.resultsDir, 0o755); err != nil {
		return err
	}
	jsonPath := filepath.Join(o.resultsDir, o.name+".json")
	svgPath := filepath.Join(o.resultsDir, o.name+".svg")
	if err := writeFileWith(jsonPath, func(w io.Writer) error { return writeJSON(w, rep) }); err != nil {
		return err
	}
	subtitle := fmt.Sprintf("%s · %d CPUs · up to %d runs · %s", rep.Started.UTC().Format("2006-01-02 15:04 MST"), rep.Machine.CPUs, rep.Runs, versionsLine(rep.Tools))
	if err := writeFileWith(svgPath, func(w io.Writer) error {
		return writeSVG(w, "evgrep / rg median wall time per query", subtitle, chartBars(rep.Jobs))
	}); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "bench: wrote %s and %s in %s\n", jsonPath, svgPath, rep.elapsed.Round(time.Second))
	return nil
}

// versionsLine names evgrep's and rg's versions for the chart.
func versionsLine(tools []Tool) string {
	var vs []string
	for _, t := range tools {
		if t.Name == toolEvgrep || t.Name == toolRg {
			vs = append(vs, t.Version)
		}
	}
	return strings.Join(vs, " vs ")
}

// writeFileWith writes a file through fill, atomically.
func writeFileWith(path string, fill func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after the rename
	if err := fill(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
