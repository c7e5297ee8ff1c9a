package rank

// Params are the ranker's tunable constants. Default holds the values
// tuned on the dev split of bench/rank; each factor is tested in
// rerank_test.go for what it changes.
type Params struct {
	// K1 and B are BM25's term-frequency saturation and length
	// normalisation.
	K1, B float64
	// BSymbol is B for a symbol-like query: a one-line declaration
	// (a C prototype, an export list) would otherwise outrank the
	// definition that holds the name with its body.
	BSymbol float64
	// PartWeight weighs the pieces of a compound query word ("route" and
	// "context" of RouteContext) against the compound itself.
	PartWeight float64
	// DefineSymbol and DefineNatural multiply the score of a chunk that
	// defines a queried identifier by 1+DefineSymbol for a symbol-like
	// query and by 1+DefineNatural for a natural-language one.
	DefineSymbol, DefineNatural float64
	// PathMatch multiplies a chunk's score by 1+PathMatch·f, f being the
	// share of the query's words that its file's path holds (a folder or
	// the base name: "once" in sync/once.go).
	PathMatch float64
	// FileEvidence adds to a chunk this share of the scores of the other
	// matching chunks of its file, divided by the square root of their
	// number (several matching chunks are evidence for the file).
	FileEvidence float64
	// FileEvidenceCap bounds that addition at this multiple of the
	// chunk's own score.
	FileEvidenceCap float64
	// Coverage multiplies a chunk's score by 1+Coverage·(f²), f being the
	// share of the query's words the chunk (or its path) holds, for
	// natural-language queries of two words or more.
	Coverage float64
	// Path priors multiply the scores of chunks in tests, test data,
	// vendored and generated files, examples and documentation. A query
	// that mentions the category ("test", "example", "doc") is not
	// penalised (the prior becomes Mentioned).
	Test, TestData, Vendor, Generated, Example float64
	// DocSymbol and DocNatural weigh documentation for symbol-like and
	// natural-language queries.
	DocSymbol, DocNatural float64
	// Header multiplies the chunks of a C project's API headers (in
	// folders without C sources) for a natural-language query
	// (headerPrior; 1 or 0: no change).
	Header float64
	// Compound weighs the index's terms that join two words of a
	// natural-language query, as written or contracted ("strcmp" for
	// compare strings; compounds).
	Compound float64
	// Mentioned is the prior of a category the query mentions.
	Mentioned float64
	// NameEvidence multiplies the best chunk of each of the best files by
	// 1+NameEvidence·f², f being the share of a natural-language query's
	// words that the names the file declares hold (nameEvidence).
	NameEvidence float64
	// Abbrev weighs the index's terms that contract a word of a
	// natural-language query ("cmp" for comparison, "buf" for buffer)
	// against the word (abbreviations).
	Abbrev float64
	// FileDecay multiplies the score of the n-th chunk of one file in the
	// ranking by FileDecay^(n-1): diminishing returns per file.
	FileDecay float64
}

// Default is the tuned parameter set.
var Default = Params{
	K1: 1.2, B: 0.9, BSymbol: 0.5,
	PartWeight:   0.5,
	DefineSymbol: 1.5, DefineNatural: 0.3,
	PathMatch:    0.5,
	FileEvidence: 0.15, FileEvidenceCap: 1.0,
	Coverage: 1,
	Test:     0.6, TestData: 0.4, Vendor: 0.4, Generated: 0.5, Example: 0.7,
	DocSymbol: 0.5, DocNatural: 0.6,
	Mentioned:    1.1,
	Header:       0.5,
	FileDecay:    0.3,
	NameEvidence: 0.4,
	Abbrev:       0.3,
	Compound:     0.3,
}

// lengthNorm is BM25's length normalisation for query q.
func (p *Params) lengthNorm(q *Query) float64 {
	if q.Symbol {
		return p.BSymbol
	}
	return p.B
}
