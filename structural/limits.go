package structural

// Bounds of the structural engine, one place for all of them.
const (
	// MaxPattern is the longest pattern (or rewrite template), in bytes.
	MaxPattern = 64 << 10
	// MaxRuleFile is the largest rule file, in bytes.
	MaxRuleFile = 1 << 20
	// MaxRules is the most rules one rule file may hold.
	MaxRules = 200
	// MaxRuleDepth bounds the nesting of a rule's sub-rules.
	MaxRuleDepth = 64
	// MaxUtilDepth bounds the utility rules (matches) being matched at
	// once, one inside another; a file that needs more stops like one
	// past MaxSteps.
	MaxUtilDepth = 1000
	// MaxSteps bounds the node comparisons spent on one file; a file that
	// needs more ends with ErrTooComplex (a pattern with many ellipses over
	// long lists can otherwise take polynomial time of a high degree).
	MaxSteps = 50_000_000
	// MaxMatchesPerFile bounds the matches kept for one file.
	MaxMatchesPerFile = 100_000
)

// IndentLookBack is how far back from an offset a rewrite looks for the
// start of its line to find its indentation (ast-grep's 512 bytes; a
// line longer than that counts as not indented).
const IndentLookBack = 512
