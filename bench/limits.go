package main

import "time"

// Every tunable limit of the harness lives here.
const (
	// copyChunk is the write size used to install the copies of evgrep and
	// rg that are measured (see installCopies).
	copyChunk = 128 << 10

	// defaultRuns is the number of timed runs per tool and query (after one
	// warm-up run) in the full suite.
	defaultRuns = 7
	// quickRuns is the same for `--quick`.
	quickRuns = 2

	// defaultBudget bounds the measuring part of the full suite (corpus
	// preparation and the build come on top); the planner stops adding
	// timed rounds to a query when its share of the budget is spent.
	defaultBudget = 8 * time.Minute
	// quickBudget is the same for `--quick`.
	quickBudget = 40 * time.Second

	// defaultTimeout kills one run of evgrep or rg; a tool that times out
	// is dropped from the rest of that query and reported as a timeout.
	defaultTimeout = 60 * time.Second
	// quickTimeout is the same for `--quick`.
	quickTimeout = 20 * time.Second
	// defaultOthersTimeout kills one run of grep, git grep or ugrep, which
	// take up to minutes on some queries; they are context, not the subject.
	defaultOthersTimeout = 10 * time.Second
	// quickOthersTimeout is the same for `--quick`.
	quickOthersTimeout = 5 * time.Second

	// minTimedRounds is the number of timed rounds a query always gets,
	// whatever its share of the budget.
	minTimedRounds = 1
	// minCoreRounds is the number of timed runs evgrep and rg get on a job
	// beyond its share of the budget, as long as the whole budget lasts
	// (they are the pair compared; their runs are short next to grep's).
	minCoreRounds = 5

	// tinyRunsFactor multiplies the runs on the tiny tree, whose runs take
	// a few milliseconds and are dominated by noise.
	tinyRunsFactor = 4
	// tinyFiles is the number of files in the startup-cost tree.
	tinyFiles = 10

	// largeFileMinBytes is the minimum size of the single large file.
	largeFileMinBytes = 200 << 20

	// copyBufferBytes is the buffer used to drain a tool's stdout and to
	// build the large file; the harness keeps its own RSS small because a
	// vfork'ed child's Maxrss starts at the parent's high-water mark.
	copyBufferBytes = 64 << 10
	// stderrKeepBytes is how much of a tool's stderr is kept for the report.
	stderrKeepBytes = 2 << 10
	// waitDelay bounds how long Wait waits for a killed tool's pipes.
	waitDelay = 2 * time.Second

	// rssFloorMarginKiB: a child whose Maxrss is within this margin of the
	// harness's own high-water RSS is reported as "at most" that value.
	rssFloorMarginKiB = 256

	// Acceptance targets, shown in the summary: the time ratios of issue
	// 4, and the peak-RSS bound of 2.5× rg that linking the official MCP
	// SDK brought (issue 11).
	targetMedianRatio = 1.0
	targetMaxRatio    = 1.5
	targetRSSRatio    = 2.5
	targetTinyRatio   = 1.2
)
