package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"
)

// Statuses of one tool on one job.
const (
	statusOK      = "ok"
	statusTimeout = "timeout"
	statusError   = "error"
	statusNA      = "n/a"
)

// Report is everything one harness run measured; it is written as JSON.
type Report struct {
	Started              time.Time     `json:"started"`
	Seconds              float64       `json:"seconds"`
	Quick                bool          `json:"quick"`
	Runs                 int           `json:"runs"`
	TimeoutSeconds       float64       `json:"timeout_seconds"`
	OthersTimeoutSeconds float64       `json:"others_timeout_seconds"`
	BudgetSeconds        float64       `json:"budget_seconds"`
	Machine              Machine       `json:"machine"`
	Tools                []Tool        `json:"tools"`
	Missing              []string      `json:"missing_tools,omitempty"`
	Corpora              []Corpus      `json:"corpora"`
	Jobs                 []JobResult   `json:"jobs"`
	Summary              Summary       `json:"summary"`
	Notes                []string      `json:"notes,omitempty"`
	toolOrder            []string      // columns of the table
	elapsed              time.Duration // for the footer
}

// Machine describes where the numbers were taken.
type Machine struct {
	GOOS        string  `json:"goos"`
	GOARCH      string  `json:"goarch"`
	CPUs        int     `json:"cpus"`
	Load1       float64 `json:"load1_at_start"`
	HarnessRSS  int64   `json:"harness_peak_rss_kib"`
	Environment string  `json:"child_locale"`
}

// JobResult is one query on one corpus, every tool.
type JobResult struct {
	ID      string `json:"id"`
	Corpus  string `json:"corpus"`
	Query   string `json:"query"`
	Pattern string `json:"pattern,omitempty"`
	Flags   string `json:"flags,omitempty"`
	// RgLines is the number of lines rg printed (nil without rg).
	RgLines *int64 `json:"rg_lines"`
	// Ratio is evgrep's median wall time over rg's (nil when either is missing).
	Ratio *float64 `json:"ratio_evgrep_rg"`
	// RSSRatio is evgrep's peak RSS over rg's (nil when either is missing).
	RSSRatio *float64 `json:"rss_ratio_evgrep_rg"`
	// AstGrepRatio is evgrep's median time over ast-grep's on a
	// structural query (nil elsewhere).
	AstGrepRatio *float64 `json:"ratio_evgrep_astgrep,omitempty"`
	// EvgrepAgrees says whether evgrep printed as many lines as rg.
	EvgrepAgrees *bool        `json:"evgrep_agrees"`
	Results      []ToolResult `json:"results"`
}

// ToolResult is one tool's runs of one job.
type ToolResult struct {
	Tool          string    `json:"tool"`
	Command       string    `json:"command,omitempty"`
	Dir           string    `json:"dir,omitempty"`
	Status        string    `json:"status"`
	Runs          int       `json:"runs"`
	WallSeconds   []float64 `json:"wall_seconds,omitempty"`
	MedianSeconds float64   `json:"median_seconds"`
	MinSeconds    float64   `json:"min_seconds"`
	MaxRSSKiB     int64     `json:"peak_rss_kib"`
	// RSSAtFloor marks a peak RSS that may be the harness's own (see README).
	RSSAtFloor bool `json:"rss_at_harness_floor,omitempty"`
	// Lines is how many lines the tool printed, -1 when no run completed.
	Lines int64 `json:"lines"`
	// LinesStable is false when the tool printed different line counts in
	// different runs of the same job.
	LinesStable bool `json:"lines_stable"`
	// Agrees compares Lines with rg's (nil without rg).
	Agrees    *bool `json:"agrees_with_rg"`
	ExitCodes []int `json:"exit_codes,omitempty"`
	// TimeoutSeconds is the limit of one run.
	TimeoutSeconds float64 `json:"timeout_seconds"`
	Stderr         string  `json:"stderr,omitempty"`
}

// measured reports whether the result has a usable time.
func (t ToolResult) measured() bool {
	return (t.Status == statusOK || t.Status == statusError) && t.Runs > 0
}

// Summary checks the acceptance targets of issue 4.
type Summary struct {
	Compared         int      `json:"jobs_compared"`
	MedianRatio      *float64 `json:"median_ratio"`
	MaxRatio         *float64 `json:"max_ratio"`
	MaxRatioJob      string   `json:"max_ratio_job,omitempty"`
	AboveMaxRatio    []string `json:"jobs_above_max_ratio"`
	MaxRSSRatio      *float64 `json:"max_rss_ratio"`
	MaxRSSRatioJob   string   `json:"max_rss_ratio_job,omitempty"`
	AboveRSSRatio    []string `json:"jobs_above_rss_ratio"`
	TinyRatio        *float64 `json:"tiny_ratio"`
	EvgrepMismatches []string `json:"evgrep_mismatches"`
	OtherMismatches  []string `json:"other_tool_mismatches"`
	Unmeasured       []string `json:"evgrep_unmeasured"`
}

// toolResult condenses a cell.
func toolResult(c *cell) ToolResult {
	tr := ToolResult{Tool: c.tool.Name, LinesStable: true, TimeoutSeconds: c.tool.Timeout.Seconds()}
	if !c.applies {
		tr.Status = statusNA
		return tr
	}
	tr.Command = c.inv.String()
	tr.Dir = c.inv.Dir
	all := append([]Sample{c.warm}, c.samples...)
	tr.Lines = c.warm.Lines
	if broken(c.warm) {
		tr.Lines = -1
	}
	tr.Status = statusOK
	var walls []float64
	for i, s := range all {
		if s.StartErr != nil {
			tr.Status = statusError
			tr.Stderr = s.StartErr.Error()
			continue
		}
		if s.TimedOut {
			tr.Status = statusTimeout
			continue
		}
		if s.Exit < 0 {
			tr.Status = statusError
			continue
		}
		if s.Exit > 1 && tr.Status == statusOK {
			tr.Status = statusError
		}
		if s.Lines != tr.Lines {
			tr.LinesStable = false
		}
		if s.Stderr != "" && tr.Stderr == "" {
			tr.Stderr = s.Stderr
		}
		if !containsInt(tr.ExitCodes, s.Exit) {
			tr.ExitCodes = append(tr.ExitCodes, s.Exit)
		}
		if i == 0 {
			continue // the warm-up is not timed
		}
		walls = append(walls, s.Wall.Seconds())
		if s.MaxRSSKiB > tr.MaxRSSKiB {
			tr.MaxRSSKiB = s.MaxRSSKiB
			tr.RSSAtFloor = s.AtFloor()
		}
	}
	tr.WallSeconds = walls
	tr.Runs = len(walls)
	if len(walls) > 0 && tr.Status != statusTimeout {
		tr.MedianSeconds = median(walls)
		tr.MinSeconds = walls[0]
		for _, x := range walls {
			tr.MinSeconds = math.Min(tr.MinSeconds, x)
		}
	}
	return tr
}

// containsInt reports whether xs holds x.
func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// jobResult condenses a job's cells and compares every tool with rg.
func jobResult(j Job, cells []*cell) JobResult {
	jr := JobResult{ID: j.ID(), Corpus: j.Corpus.Name, Query: j.Query.Name, Pattern: j.Query.Pattern, Flags: j.Query.Flags()}
	var rg, ev, ag *ToolResult
	for _, c := range cells {
		jr.Results = append(jr.Results, toolResult(c))
	}
	for i := range jr.Results {
		switch jr.Results[i].Tool {
		case toolRg:
			rg = &jr.Results[i]
		case toolEvgrep:
			ev = &jr.Results[i]
		case toolAstGrep:
			ag = &jr.Results[i]
		}
	}
	if ag != nil && ev != nil && ag.measured() && ev.measured() && ag.MedianSeconds > 0 {
		ratio := ev.MedianSeconds / ag.MedianSeconds
		jr.AstGrepRatio = &ratio
	}
	if rg != nil && rg.measured() && rg.LinesStable && !j.Query.Agent {
		n := rg.Lines
		jr.RgLines = &n
		for i := range jr.Results {
			t := &jr.Results[i]
			if t.Tool == toolRg || t.Status == statusNA || t.Status == statusTimeout || t.Runs == 0 {
				continue
			}
			agree := t.LinesStable && t.Lines == n
			t.Agrees = &agree
		}
	}
	if ev != nil {
		jr.EvgrepAgrees = ev.Agrees
	}
	if rg != nil && ev != nil && rg.measured() && ev.measured() && rg.MedianSeconds > 0 {
		ratio := ev.MedianSeconds / rg.MedianSeconds
		jr.Ratio = &ratio
		if rg.MaxRSSKiB > 0 && ev.MaxRSSKiB > 0 {
			rr := float64(ev.MaxRSSKiB) / float64(rg.MaxRSSKiB)
			jr.RSSRatio = &rr
		}
	}
	return jr
}

// summarize checks the acceptance targets over all jobs.
func summarize(jobs []JobResult) Summary {
	s := Summary{AboveMaxRatio: []string{}, AboveRSSRatio: []string{}, EvgrepMismatches: []string{},
		OtherMismatches: []string{}, Unmeasured: []string{}}
	var ratios []float64
	for _, j := range jobs {
		if j.Ratio != nil {
			r := *j.Ratio
			ratios = append(ratios, r)
			if s.MaxRatio == nil || r > *s.MaxRatio {
				s.MaxRatio, s.MaxRatioJob = ptr(r), j.ID
			}
			if r > targetMaxRatio {
				s.AboveMaxRatio = append(s.AboveMaxRatio, j.ID)
			}
			if strings.HasPrefix(j.ID, "tiny/") {
				s.TinyRatio = ptr(r)
			}
		} else {
			s.Unmeasured = append(s.Unmeasured, j.ID)
		}
		if j.RSSRatio != nil {
			r := *j.RSSRatio
			if s.MaxRSSRatio == nil || r > *s.MaxRSSRatio {
				s.MaxRSSRatio, s.MaxRSSRatioJob = ptr(r), j.ID
			}
			if r > targetRSSRatio {
				s.AboveRSSRatio = append(s.AboveRSSRatio, j.ID)
			}
		}
		for _, t := range j.Results {
			if t.Agrees == nil || *t.Agrees {
				continue
			}
			if t.Tool == toolEvgrep {
				s.EvgrepMismatches = append(s.EvgrepMismatches, j.ID)
			} else {
				s.OtherMismatches = append(s.OtherMismatches, t.Tool+" on "+j.ID)
			}
		}
	}
	s.Compared = len(ratios)
	if len(ratios) > 0 {
		s.MedianRatio = ptr(median(ratios))
	}
	return s
}

// ptr returns a pointer to a copy of x.
func ptr(x float64) *float64 { return &x }

// writeJSON writes the report as indented JSON.
func writeJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// writeMarkdown writes the results table and the acceptance summary.
func writeMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	others := []string{}
	for _, name := range r.toolOrder {
		if name != toolEvgrep && name != toolRg {
			others = append(others, name)
		}
	}
	hasEv, hasRg := false, false
	for _, name := range r.toolOrder {
		hasEv = hasEv || name == toolEvgrep
		hasRg = hasRg || name == toolRg
	}
	header := []string{"corpus", "query", "pattern", "lines (rg)"}
	if hasEv {
		header = append(header, "evgrep")
	}
	if hasRg {
		header = append(header, "rg")
	}
	if hasEv && hasRg {
		header = append(header, "evgrep/rg time", "evgrep/rg RSS")
	}
	header = append(header, others...)
	header = append(header, "line counts")
	writeRow(&b, header)
	sep := make([]string, len(header))
	for i := range sep {
		sep[i] = "---"
		if i >= 3 && i < len(header)-1 {
			sep[i] = "---:"
		}
	}
	writeRow(&b, sep)
	for _, j := range r.Jobs {
		res := map[string]ToolResult{}
		for _, t := range j.Results {
			res[t.Tool] = t
		}
		row := []string{j.Corpus, j.Query, patternCell(j)}
		if j.RgLines != nil {
			row = append(row, fmt.Sprint(*j.RgLines))
		} else {
			row = append(row, "?")
		}
		if hasEv {
			row = append(row, toolCell(res[toolEvgrep]))
		}
		if hasRg {
			row = append(row, toolCell(res[toolRg]))
		}
		if hasEv && hasRg {
			row = append(row, ratioCell(j.Ratio, targetMaxRatio), ratioCell(j.RSSRatio, targetRSSRatio))
		}
		for _, name := range others {
			row = append(row, toolCell(res[name]))
		}
		row = append(row, countsCell(j))
		writeRow(&b, row)
	}
	b.WriteString("\n")
	for _, j := range r.Jobs {
		if j.AstGrepRatio != nil {
			fmt.Fprintf(&b, "Structural job %s: evgrep/ast-grep time %.2fx (target at most 1.0x).\n\n", j.ID, *j.AstGrepRatio)
		}
	}
	writeSummary(&b, r)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRow writes one Markdown table row.
func writeRow(b *strings.Builder, cells []string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(strings.ReplaceAll(c, "|", `\|`))
		b.WriteString(" |")
	}
	b.WriteString("\n")
}

// patternCell shows the pattern and flags as code.
func patternCell(j JobResult) string {
	p := j.Pattern
	if j.Flags != "" {
		if p != "" {
			p = j.Flags + " " + p
		} else {
			p = j.Flags
		}
	}
	if p == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(p, "`", "'") + "`"
}

// toolCell shows a tool's median time and peak RSS.
func toolCell(t ToolResult) string {
	switch {
	case t.Tool == "":
		return ""
	case t.Status == statusNA:
		return "—"
	case t.Status == statusTimeout:
		return fmt.Sprintf("timeout (>%g s)", t.TimeoutSeconds)
	case !t.measured():
		return "error"
	}
	out := fmtSeconds(t.MedianSeconds) + " · " + fmtRSS(t.MaxRSSKiB, t.RSSAtFloor)
	if t.Status == statusError {
		out += " (exit " + exitList(t.ExitCodes) + ")"
	}
	return out
}

// exitList joins exit codes with slashes.
func exitList(codes []int) string {
	s := make([]string, len(codes))
	for i, c := range codes {
		s[i] = fmt.Sprint(c)
	}
	return strings.Join(s, "/")
}

// fmtSeconds prints a duration in seconds with three significant places
// for short runs.
func fmtSeconds(s float64) string {
	if s < 0.1 {
		return fmt.Sprintf("%.1f ms", s*1000)
	}
	return fmt.Sprintf("%.3f s", s)
}

// fmtRSS prints KiB as MB; a value at the harness floor is an upper bound.
func fmtRSS(kib int64, atFloor bool) string {
	if kib <= 0 {
		return "? MB"
	}
	out := fmt.Sprintf("%.1f MB", float64(kib)/1024)
	if atFloor {
		out = "≤" + out
	}
	return out
}

// ratioCell prints a ratio, in bold when above limit.
func ratioCell(r *float64, limit float64) string {
	if r == nil {
		return "—"
	}
	s := fmt.Sprintf("%.2f×", *r)
	if *r > limit {
		s = "**" + s + "**"
	}
	return s
}

// countsCell says whether every tool printed as many lines as rg, and
// names the ones that did not, loudly.
func countsCell(j JobResult) string {
	if j.RgLines == nil {
		return "no rg count"
	}
	var bad []string
	for _, t := range j.Results {
		if t.Agrees != nil && !*t.Agrees {
			d := fmt.Sprintf("%s %d", t.Tool, t.Lines)
			if !t.LinesStable {
				d += " (unstable)"
			}
			bad = append(bad, d)
		}
	}
	if len(bad) == 0 {
		return "ok"
	}
	sort.Strings(bad)
	return "**MISMATCH** " + strings.Join(bad, ", ")
}

// writeSummary writes the acceptance checks and the run's conditions.
func writeSummary(b *strings.Builder, r *Report) {
	s := r.Summary
	check := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**MISSED**"
	}
	fmt.Fprintf(b, "Acceptance (issue 4), over %d jobs timed for both evgrep and rg:\n\n", s.Compared)
	if s.MedianRatio != nil {
		fmt.Fprintf(b, "- median evgrep/rg time ratio %.2f× (target ≤ %.1f×): %s\n", *s.MedianRatio, targetMedianRatio, check(*s.MedianRatio <= targetMedianRatio))
	}
	if s.MaxRatio != nil {
		fmt.Fprintf(b, "- largest ratio %.2f× on %s (target: none above %.1f×): %s", *s.MaxRatio, s.MaxRatioJob, targetMaxRatio, check(len(s.AboveMaxRatio) == 0))
		if len(s.AboveMaxRatio) > 0 {
			fmt.Fprintf(b, " — %d above: %s", len(s.AboveMaxRatio), strings.Join(s.AboveMaxRatio, ", "))
		}
		b.WriteString("\n")
	}
	if s.MaxRSSRatio != nil {
		fmt.Fprintf(b, "- largest peak-RSS ratio %.2f× on %s (target ≤ %.1f×): %s", *s.MaxRSSRatio, s.MaxRSSRatioJob, targetRSSRatio, check(len(s.AboveRSSRatio) == 0))
		if len(s.AboveRSSRatio) > 0 {
			fmt.Fprintf(b, " — %d above: %s", len(s.AboveRSSRatio), strings.Join(s.AboveRSSRatio, ", "))
		}
		b.WriteString("\n")
	}
	if s.TinyRatio != nil {
		fmt.Fprintf(b, "- tiny tree (startup) ratio %.2f× (target ≤ %.1f×): %s\n", *s.TinyRatio, targetTinyRatio, check(*s.TinyRatio <= targetTinyRatio))
	}
	if len(s.EvgrepMismatches) > 0 {
		fmt.Fprintf(b, "- line counts: **MISMATCH** evgrep ≠ rg on %s\n", strings.Join(s.EvgrepMismatches, ", "))
	} else {
		fmt.Fprintf(b, "- line counts: evgrep agrees with rg on every job compared: met\n")
	}
	if len(s.Unmeasured) > 0 {
		fmt.Fprintf(b, "- **no ratio** (timeout, error or missing tool) on %s\n", strings.Join(s.Unmeasured, ", "))
	}
	if len(s.OtherMismatches) > 0 {
		fmt.Fprintf(b, "- other tools that printed a different number of lines than rg (informational): %s\n", strings.Join(s.OtherMismatches, "; "))
	}
	b.WriteString("\n")
	fmt.Fprintf(b, "Times are medians of up to %d timed runs after one warm-up (each cell: median wall time · peak RSS); %s/%s, %d CPUs, load %.2f at start, %s.\n",
		r.Runs, r.Machine.GOOS, r.Machine.GOARCH, r.Machine.CPUs, r.Machine.Load1, r.Started.UTC().Format("2006-01-02 15:04 MST"))
	var vs []string
	for _, t := range r.Tools {
		vs = append(vs, t.Version)
	}
	fmt.Fprintf(b, "Tools: %s.\n", strings.Join(vs, "; "))
	for _, n := range r.Notes {
		fmt.Fprintf(b, "Note: %s\n", n)
	}
}
