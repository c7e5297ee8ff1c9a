package ignore

// Limits of the engine, kept in one place.
const (
	// automatonWords is the number of 64-bit words in one automaton state.
	automatonWords = 4
	// maxAutomatonPositions is the largest number of byte positions a glob
	// may compile to and still run on the bitset automaton; a larger glob
	// runs on Go's regexp instead (same results, slower, may allocate).
	maxAutomatonPositions = automatonWords * 64
	// maxDFAStates is the most states a glob's DFA may have; a glob whose
	// DFA would be larger runs on the bitset NFA.
	maxDFAStates = 256
	// regexNestLimit is the nesting depth of ripgrep's regular expression
	// parser (regex-syntax's default nest limit); a glob whose regular
	// expression nests deeper makes its set fail (see NestError).
	regexNestLimit = 250
)
