package app

// The process's tuning, in one place.
const (
	// gcPercent is the GC target used unless GOGC is set.
	gcPercent = 50
	// stdoutBufferSize is the buffer in front of standard output.
	stdoutBufferSize = 64 << 10
	// termsJSONLine is the longest line text one --terms --json
	// occurrence object carries (a window of a longer line).
	termsJSONLine = 4 << 10
)
