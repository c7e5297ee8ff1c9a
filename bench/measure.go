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

// plan decides how many timed rounds a job gets: runs at most, and no new
// round once the job's share of the budget would be exceeded by another
// round as long as the last one (minTimedRounds are always run).
type plan struct {
	runs  int
	share time.Duration
}

// another reports whether round (1-based) should run, given the time spent
// on the job so far and the duration of the last round.
func (p plan) another(round int, spent, lastRound time.Duration) bool {
	if round > p.runs {
		return false
	}
	if round <= minTimedRounds {
		return true
	}
	return spent+lastRound <= p.share
}

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
	start := time.Now()
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
	var lastRound time.Duration
	for round := 1; p.another(round, time.Since(start), lastRound); round++ {
		roundStart := time.Now()
		line.Reset()
		fmt.Fprintf(&line, "  run %d/%d", round, p.runs)
		ran := 0
		for k := range cells {
			c := cells[(k+round)%len(cells)]
			if !c.applies || c.dropped {
				continue
			}
			s := r.run(c.inv, c.tool.Timeout)
			c.samples = append(c.samples, s)
			c.dropped = broken(s)
			ran++
			fmt.Fprintf(&line, " %s %s", c.tool.Name, progressCell(s))
		}
		if ran == 0 {
			break
		}
		fmt.Fprintln(w, line.String())
		lastRound = time.Since(roundStart)
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
