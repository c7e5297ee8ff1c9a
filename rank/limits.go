package rank

// Bounds of the ranker, one constant each.
const (
	// MaxChunkChars is the largest chunk, in bytes of source. A larger
	// declaration is split into its members, then into line windows.
	MaxChunkChars = 1500

	// WindowLines is the most lines of one line-window chunk (files
	// without a parser, and the gaps between declarations).
	WindowLines = 40

	// MaxFileBytes is the largest file that is chunked; a larger one is
	// indexed by its path only.
	MaxFileBytes = 1 << 20

	// MaxFiles is how many files one index holds; more are left out and
	// the index says it is partial.
	MaxFiles = 200_000

	// MaxChunksPerFile bounds the chunks of one file (a huge generated
	// table would otherwise flood the index).
	MaxChunksPerFile = 2000

	// MaxQueryBytes is the longest query.
	MaxQueryBytes = 4096

	// MaxQueryTerms is how many distinct terms of a query are scored.
	MaxQueryTerms = 64

	// maxCounterTerms bounds the dictionary of distinct tokens one term
	// counter keeps from file to file; beyond it the counter starts a new
	// one.
	maxCounterTerms = 1 << 20

	// docMakerTermsPerFile is how many distinct tokens a DocMaker's
	// dictionary is first sized for per file it is told of (GOROOT/src:
	// 480,000 in 11,500 files), up to maxCounterTerms.
	docMakerTermsPerFile = 40

	// builderChunksPerFile is how many chunks a file has, for sizing a
	// Builder's tables (GOROOT/src has 16.4: sized so they do not grow).
	builderChunksPerFile = 20

	// postPageBits sizes the pages of a Builder's postings (1 MiB), and
	// postBlockMin and postBlockMax its blocks (bytes, each with a
	// 4-byte link; at most 1<<16-1).
	postPageBits = 20
	postBlockMin = 16
	postBlockMax = 1024

	// radixSortTerms is how many terms an index has before Index sorts
	// them by a radix sort (radixBits a pass) rather than by comparisons.
	radixSortTerms = 1 << 12
	radixBits      = 11

	// parallelLayoutBytes is how many bytes of postings each part of an
	// index's layout copies at least (Builder.layout): fewer make one.
	parallelLayoutBytes = 1 << 20

	// hotRuns is the most entries of a run table's hot cache (a power of
	// two; 32 bytes each), and hotRunBytes the longest run it holds.
	hotRuns     = 1 << 14
	hotRunBytes = 23

	// dictShardBits: a Builder's shared dictionary is in 1<<dictShardBits
	// shards, each with its own lock.
	dictShardBits = 4

	// counterTokens is the size of a term counter's cache of token ids
	// (a power of two; 32 bytes each).
	counterTokens = 1 << 12

	// maxRunBytes is the longest run of word characters whose tokens a
	// term counter remembers (longer ones are rare and split each time).
	maxRunBytes = 64

	// MaxTokenBytes is the longest token; longer runs are cut.
	MaxTokenBytes = 64

	// MaxResults is the most hits one Search returns.
	MaxResults = 1000

	// RelatedTerms is how many of a chunk's terms (by weight) make the
	// query of Related.
	RelatedTerms = 32

	// MaxCacheBytes is the largest cache file written to or read back
	// from the state folder.
	MaxCacheBytes = 512 << 20
)

// Bounds of the contractions a query word is expanded with
// (abbreviations).
const (
	// minAbbrevWord is the shortest query word expanded.
	minAbbrevWord = 4
	// minAbbrev and maxAbbrev bound a contraction's length.
	minAbbrev, maxAbbrev = 3, 6
	// maxAbbrevs is how many contractions one word adds, the most
	// frequent first.
	maxAbbrevs = 3
	// abbrevPrefixShare is the longest prefix of a word, as a share of
	// its length, that is read as its contraction (str of string, not
	// pars of parser).
	abbrevPrefixShare = 0.62
	// minAbbrevLift is how many times more often than chance a
	// contraction must share chunks with its word's family.
	minAbbrevLift = 5
	// maxAbbrevWordDF: a word that this many chunks hold or more is not
	// expanded.
	maxAbbrevWordDF = 32
)

// Bounds of the compounds of a query's words (compounds).
const (
	// minCompound is the shortest compound term.
	minCompound = 5
	// minForm is the shortest contraction of a word in a compound
	// (two letters make English words: co+unt, ind+ex).
	minForm = 3
	// maxCompounds is how many compound terms one query adds.
	maxCompounds = 8
)
