package agent

// Bounds of the agent's answers and requests. (The text budgets shared
// with the rendering code, summaryTextBudget, responseBudget and the
// sample sizes, are declared next to it in answer.go.)
const (
	// everythingReserve is kept free of match lines when deciding whether
	// a whole result fits one page (mode auto): the status line, notes
	// and the cursor.
	everythingReserve = 1600
	// summaryRowReserve is kept free below each summary sample row for
	// the lines that follow the samples (the summary cursor and the next
	// calls).
	summaryRowReserve = 1200

	// maxContext, defaultLimit, maxLimit and maxInspectBatch bound the
	// request fields context, limit and targets.
	maxContext      = 20
	defaultLimit    = 20
	maxLimit        = 100
	maxInspectBatch = 5

	// matchesTailReserve is what a matches page keeps free of match lines
	// for what follows them: unverified files, the cursor and the next
	// calls.
	matchesTailReserve = 1200
	// maxUnverifiedNamed is how many unverified files the text of a page
	// names (the details list all of the page's).
	maxUnverifiedNamed = 5

	// maxSelect is how many files one cursor request may select (paths).
	maxSelect = 20
	// nextInspect is how many match numbers a suggested inspect call
	// names.
	nextInspect = 3

	// maxProblems bounds the per-path errors kept for an answer.
	maxProblems = 5
)

// ProgressEvery is how many searched files separate two Env.Progress calls.
const ProgressEvery = 256

// Context budgets (Request.Budget) in estimated tokens; an answer's
// characters are estimated as 4 per token.
const (
	budgetFullTokens     = 2000
	budgetTightTokens    = 1000
	budgetCriticalTokens = 500
	charsPerToken        = 4
	// budgetReserve is kept free of match lines, under a budget, for the
	// status line, the budget note and the cursor.
	budgetReserve = 600
	// budgetNoteBytes is what the note that states the budget takes.
	budgetNoteBytes = 200
)

// Outline bounds.
const (
	// maxOutlineFiles is how many files one outline lists (in path
	// order); its cursor records them.
	maxOutlineFiles = 50000
	// outlineReserve is kept free on an outline page for the compact line's
	// end, the cursor and the notes.
	outlineReserve = 400
)

// Multi-term answers (terms.go).
const (
	// termsPageItems is how many items one page of a multi-term answer
	// shows (fewer when the 16 KiB bound of its text or details is met).
	termsPageItems = 30
	// termsExcerptBytes bounds the line excerpt an item keeps.
	termsExcerptBytes = 240
	// termsFilesShown is how many kept files the first page names.
	termsFilesShown = 10
	// termsPageReserve is kept free on a page for the cursor and the next
	// call.
	termsPageReserve = 1024
)

// Git bounds.
const (
	// maxRevisionBytes is the longest rev or changedSince accepted (gitrev
	// refuses longer ones too; this answers before a repository is opened).
	maxRevisionBytes = 256
)
