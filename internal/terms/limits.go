package terms

// Bounds of a multi-term request.
const (
	// MinTerms and MaxTerms bound the number of terms of one search.
	MinTerms = 2
	MaxTerms = 64
	// MaxTermBytes bounds one term's length in UTF-8 bytes.
	MaxTermBytes = 256
)
