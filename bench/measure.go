package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// Job is one query on one corpus.
type Job struct {
	Corpus Corpus
	Query  Query
}

// ID names the job in reports and in --only filters: "corpus/query".
func (j Job) ID() string {
	return j.Corpus.Name + "/" + j.Query.Name
}

// cell holds one tool's runs of one job.
type cell struct {
	tool    Tool
	inv     Invocation
	applies bool
	warm    Sample
	samples []Sample
	// dropped is set when a run could not be timed (not started, killed,
	// signalled): the tool gets no more runs on this job.
	dropped bool
}

// broken reports whether s cannot be timed at all.
func broken(s Sample) bool {
	return s.StartErr != nil || s.TimedOut || s.Exit < 0
}

// roundKind is what the next timed round of a job runs.
type roundKind int

const (
	// roundStop ends the job.
	roundStop roundKind = iota
	// roundAll runs every tool.
	roundAll
	// roundCore runs only evgrep and rg, the pair the suite is about, when
	// the slower greps would overrun the job's share of the budget.
	roundCore
)

// plan decides the timed rounds of a job: runs at most; a full round while
// one as long as the last full round fits in the job's share of the
// budget (the first minTimedRounds always run in full); then rounds of
// evgrep and rg alone while such a round fits in the share, or, up to
// minCoreRounds, in the whole budget left.
type plan struct {
	runs int
	// share is the job's part of the budget; left is all the budget left
	// when the job starts.
	share, left time.Duration
}

// next decides round (1-based), given the time spent on the job so far,
// the duration of the last full round and the time evgrep and rg took in
// the last round.
func (p plan) next(round int, spent, lastFull, lastCore time.Duration) roundKind {
	switch {
	case round > p.runs:
		return roundStop
	case round <= minTimedRounds || spent+lastFull <= p.share:
		return roundAll
	case spent+lastCore <= p.share:
		return roundCore
	case round <= minCoreRounds && spent+lastCore <= p.left:
		return roundCore
	}
	return roundStop
}

// isCore reports whether the tool is one of the pair compared (evgrep, rg).
func isCore(name string) bool {
	return name == toolEvgrep || name == toolRg
}

// now is the budget planner's clock (tests replace it; run times are
// always taken from the real clock).
var now = time.Now

// execer runs tools; *runner is the real one, tests use a fake.
type execer interface {
	// beginJob is called once before a job's warm-up.
	beginJob()
	// run runs one command line once, killing it after timeout.
	run(inv Invocation, timeout time.Duration) Sample
}

// measureJob runs the job's warm-up round, then timed rounds in which the
// tools take turns (the starting tool rotates each round), and reports
// progress on w.
func measureJob(r execer, j Job, tools []Tool, p plan, w io.Writer) []*cell {
	cells := make([]*cell, len(tools))
	for i, t := range tools {
		inv, ok := t.Invocation(j.Query, j.Corpus.Target())
		cells[i] = &cell{tool: t, inv: inv, applies: ok}
	}
	r.beginJob()
	start := now()
	var line strings.Builder
	line.WriteString("  warm-up ")
	for _, c := range cells {
		if !c.applies {
			continue
		}
		c.warm = r.run(c.inv, c.tool.Timeout)
		c.dropped = broken(c.warm)
		fmt.Fprintf(&line, " %s %s", c.tool.Name, progressCell(c.warm))
	}
	fmt.Fprintln(w, line.String())
	var lastFull, lastCore time.Duration
	for round := 1; ; round++ {
		kind := p.next(round, now().Sub(start), lastFull, lastCore)
		if kind == roundStop {
			break
		}
		roundStart := now()
		var core time.Duration
		line.Reset()
		fmt.Fprintf(&line, "  run %d/%d", round, p.runs)
		if kind == roundCore {
			line.WriteString(" (evgrep and rg only)")
		}
		ran := 0
		for k := range cells {
			c := cells[(k+round)%len(cells)]
			if !c.applies || c.dropped || (kind == roundCore && !isCore(c.tool.Name)) {
				continue
			}
			s := r.run(c.inv, c.tool.Timeout)
			c.samples = append(c.samples, s)
			c.dropped = broken(s)
			if isCore(c.tool.Name) {
				core += s.Wall
			}
			ran++
			fmt.Fprintf(&line, " %s %s", c.tool.Name, progressCell(s))
		}
		if ran == 0 {
			break
		}
		fmt.Fprintln(w, line.String())
		if kind == roundAll {
			lastFull = now().Sub(roundStart)
		}
		lastCore = core
	}
	return cells
}

// progressCell is one sample in a progress line.
func progressCell(s Sample) string {
	switch {
	case s.StartErr != nil:
		return "error"
	case s.TimedOut:
		return "timeout"
	case s.Exit < 0:
		return "killed"
	}
	out := fmt.Sprintf("%.3fs", s.Wall.Seconds())
	if s.Exit > 1 {
		out += fmt.Sprintf("(exit %d)", s.Exit)
	}
	return out
}

// median is the median of xs (the mean of the middle two for an even
// count), or 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
