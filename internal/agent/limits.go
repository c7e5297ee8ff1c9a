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

// ProgressEvery is how many searched files separate two progress reports.
const ProgressEvery = 256

// parseProgressEvery is how many parsed files separate two progress
// calls of an impact's parse stage (a parse costs far more than a read).
const parseProgressEvery = 8

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

// Impact and navigation bounds.
const (
	// maxSymbolBytes bounds the name an impact looks for.
	maxSymbolBytes = 256
	// defaultParseBudget and maxParseBudget bound the files one impact
	// parses (request field parseBudget, 1-maxParseBudget).
	defaultParseBudget = 200
	maxParseBudget     = 2000
	// maxImpactRetained bounds the bytes of the files an impact keeps
	// to parse; files past it keep their occurrences, unclassified.
	maxImpactRetained = 256 << 20
	// impactTextBytes bounds the excerpt of one occurrence.
	impactTextBytes = 200
	// analysisPageItems is how many items an analysis page shows.
	analysisPageItems = 30
	// analysisReserve is what an analysis page keeps free of items for
	// its counts, test files, cursor and next calls.
	analysisReserve = 3000
	// analysisListed bounds the files an analysis page names with counts;
	// listedPathBytes bounds each of their paths there.
	analysisListed  = 10
	listedPathBytes = 160
)

// Navigation bounds (modes imports and tests).
const (
	// maxNavFiles bounds the files one navigation reads after its
	// prefilter; more are counted and stated.
	maxNavFiles = 2000
	// maxNavLines bounds the matching lines kept per file.
	maxNavLines = 50
	// maxTestNames bounds the declarations whose mentions link a test file.
	maxTestNames = 256
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
	// termsListBytes bounds the first page's per-term counts (text and
	// details alike): each term is echoed within its share of it, less
	// termRowBytes for the counts around it, and at least termEchoMin
	// bytes.
	termsListBytes = 6144
	termRowBytes   = 80
	termEchoMin    = 24
)

// Git bounds.
const (
	// maxRevisionBytes is the longest rev or changedSince accepted (gitrev
	// refuses longer ones too; this answers before a repository is opened).
	maxRevisionBytes = 256
)

// Bounds of rank answers.
const (
	// maxRankItems is how many ranked chunks one rank answer keeps for
	// its pages.
	maxRankItems = 100
	// defaultRankPage and maxRankPage are the chunks shown a page.
	defaultRankPage = 5
	maxRankPage     = 30
	// maxRankChunkShow bounds the source shown of one chunk, in bytes.
	maxRankChunkShow = 4 << 10
	// rankReserve is what a rank page keeps free of chunks for its status
	// lines and cursor.
	rankReserve = 1 << 10
)

// Bounds of the structured details (Answer.Details, the MCP
// structuredContent and the "details" of --agent-format json).
const (
	// MaxDetailsBytes bounds an answer's details as JSON (json.Marshal,
	// HTML characters escaped), errors included, as responseBudget bounds
	// its text: every answer is at most 16 KiB of text plus 16 KiB of
	// details.
	MaxDetailsBytes = 16 << 10

	// matchesDetailsReserve is what a matches page keeps free of its match
	// entries for the rest of its details: the page, the cursor, the next
	// calls and a budget note.
	matchesDetailsReserve = 1200
	// summaryDetailsReserve is what a summary keeps free of its file and
	// sample entries for its page, cursors and next calls.
	summaryDetailsReserve = 1600
	// outlineDetailsReserve is what an outline page keeps free of its file
	// entries for its page, cursor and problems.
	outlineDetailsReserve = 1000
)

// contextJSONBytes is what the fields of one context entry take beside its
// path and lines (match, firstLine, the names and brackets).
const contextJSONBytes = 80
