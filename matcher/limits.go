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
	// expand to in the fallback VM's program. rg's size rule (DefaultSizeLimit)
	// decides first; a count it accepts (a{3000000} fits in 100 MiB) fits.
	vmRepeatLimit = vmProgLimit

	// vmProgLimit bounds the size of a compiled VM program (instructions);
	// larger patterns are rejected as too big, like Rust's size limit.
	vmProgLimit = 4 << 20

	// DefaultSizeLimit is rg's default --regex-size-limit (bytes): the
	// most memory a pattern's NFA may take by rg 15's count (nfasize.go).
	DefaultSizeLimit = 100 << 20

	// re2InstLimit is the largest program (in instructions, estimated by
	// the states of rg's reverse NFA, nfasize.go) handed to RE2. Bigger
	// ones compile slowly, and RE2's DFA runs out of memory on them
	// (\w{1000}: 1.4 M instructions; 100,000 words: 0.9 M) and logs to
	// stderr, which go-re2 offers no way to turn off; the VM (or the
	// literal set) answers instead. 20,000 words (about 0.2 M) still
	// run on RE2 without a message.
	re2InstLimit = 250000

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

	// minLitSet is the smallest alternation of plain literals (-f with
	// many words) searched with the multi-literal automaton
	// (internal/litset) instead of a regex engine.
	minLitSet = 64

	// minMultiScan is the shortest buffer a single literal is looked for
	// with the vectorised scan; shorter ones keep the byte scanner.
	minMultiScan = 256
)

// The lazy DFA's bounds (dfa.go).
const (
	// dfaCacheLimit is the most memory one goroutine's DFA states take
	// (transition rows and position sets); a full cache starts over.
	dfaCacheLimit = 2 << 20
	// dfaFreeCaches is how many idle caches a matcher keeps.
	dfaFreeCaches = 16
	// dfaMinProgress: a cache that fills up before reading this many
	// bytes per state it holds counts as thrashing...
	dfaMinProgress = 10
	// dfaMaxResets: ...and after this many such resets the DFA gives up
	// (RE2 and the VM answer).
	dfaMaxResets = 8
)

// The windows in which a literal's scan bytes are looked for (litScan.find):
// the first, and the largest it doubles to while no scan byte hits.
const (
	litScanFirstWindow = 64
	litScanMaxWindow   = 1 << 20
)
