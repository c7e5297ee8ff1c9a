package pcre2

// Bounds of one PCRE2 match call. PCRE2's interpreter (there is no JIT in
// the translated library) backtracks; these limits make a catastrophic
// pattern fail with PCRE2's own "match limit exceeded" (or "heap limit"/
// "depth limit") error instead of running for hours or growing without
// bound. rg reports the same error when its JIT gives up.
const (
	// matchLimit caps the calls of PCRE2's internal match() per match
	// attempt (PCRE2's default, which rg keeps).
	matchLimit = 10_000_000

	// depthLimit caps the backtracking depth per match attempt (PCRE2's
	// default).
	depthLimit = 10_000_000

	// heapLimitKiB caps the heap PCRE2 may use for backtracking frames in
	// one match call, in KiB (PCRE2's default is 20 GB; rg's JIT stack is
	// 10 MiB). 64 MiB per searching goroutine.
	heapLimitKiB = 64 << 10

	// maxPatternLen refuses patterns longer than this many bytes before
	// PCRE2 compiles them (the compiled form is bounded by PCRE2 itself).
	maxPatternLen = 16 << 20

	// maxKeptSubject is the largest C scratch buffer (the copy of a
	// subject PCRE2 searches) a pooled match state keeps between calls.
	maxKeptSubject = 1 << 20

	// maxCount is the largest count of a repetition the prefilter keeps
	// (package matcher's limit); a larger one leaves the pattern without
	// a prefilter.
	maxCount = 1000

	// maxPrefilterLen bounds the translated pattern of the prefilter.
	maxPrefilterLen = 64 << 10
)
