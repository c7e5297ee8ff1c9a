package agent

import "github.com/evgrep/evgrep/snapshot"

// Budgets of the rendered text, and the other bounds of an answer.
const (
	// summaryTextBudget keeps a summary page readable in one glance (the
	// issue's bound for a broad search is 8,000 characters).
	summaryTextBudget = 7600
	// responseBudget is the hard bound of one answer.
	responseBudget = snapshot.MaxResponseBytes
	// sampleFiles, sampleWindows and sampleLines shape summary samples.
	sampleFiles   = 5
	sampleWindows = 2
	sampleLines   = 7
	// sampleTextChars bounds one sample line.
	sampleTextChars = 160

	// everythingReserve is kept free of match lines when deciding whether
	// a whole result fits one page (mode auto): the status line, notes
	// and the cursor.
	everythingReserve = 1600
	// summaryRowReserve is kept free below each summary sample row for
	// the lines that follow it (totals, more-files note, cursor).
	summaryRowReserve = 400
	// matchesPageReserve is kept free on a matches page for its notes and
	// the cursor line.
	matchesPageReserve = 600
	// outlineReserve is kept free on an outline page for its note of the
	// files not shown.
	outlineReserve = 400

	// contextLineEstimate is the size reckoned for one context line
	// before the lines are read.
	contextLineEstimate = 100

	// maxContext, defaultLimit, maxLimit and maxInspectBatch bound the
	// request fields context, limit and targets.
	maxContext      = 20
	defaultLimit    = 20
	maxLimit        = 100
	maxInspectBatch = 5

	// maxProblems bounds the per-path errors kept for an answer.
	maxProblems = 5
)
