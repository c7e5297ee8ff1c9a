package matcher

// Limits and tuning constants of the matcher, kept in one place.
const (
	// nestLimit is the deepest nesting of groups, classes and repetitions
	// accepted in a pattern (ripgrep's default).
	nestLimit = 250

	// re2RepeatLimit is the largest counted repetition RE2 accepts (also as
	// the product of nested counts). Larger counts run on the fallback VM.
	re2RepeatLimit = 1000

	// vmRepeatLimit bounds the number of copies a counted repetition may
	// expand to in the fallback VM's program.
	vmRepeatLimit = 100000

	// vmProgLimit bounds the size of a compiled VM program (instructions);
	// larger patterns are rejected as too big, like Rust's size limit.
	vmProgLimit = 4 << 20

	// chunkSize is how many bytes of a buffer one RE2 call scans when no
	// literal prefilter applies (cut at a line terminator).
	chunkSize = 256 << 10

	// minChunkSize is the first chunk a NextLine call scans with RE2.
	minChunkSize = 8 << 10

	// maxLiteralVariants bounds how many alternative literals the
	// prefilter tracks (alternations and case variants multiply).
	maxLiteralVariants = 16

	// maxClassExpand is the largest character class turned into literal
	// alternatives for the prefilter.
	maxClassExpand = 4

	// maxScanBytes is the most distinct bytes one prefilter position may
	// need to look for with IndexByte.
	maxScanBytes = 4

	// maxTeddyLiterals is the most literals the vectorised multi-literal
	// scan takes (two per bucket); larger sets keep the byte scanners.
	maxTeddyLiterals = 16

	// teddyOffsetWindow bounds the literal positions considered for the
	// vectorised scan's three tested offsets.
	teddyOffsetWindow = 16

	// minMultiScan is the shortest buffer a single literal is looked for
	// with the vectorised scan; shorter ones keep the byte scanner.
	minMultiScan = 256
)
