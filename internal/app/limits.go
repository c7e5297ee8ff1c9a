package app

// The process's tuning, in one place.
const (
	// gcPercent is the GC target used unless GOGC is set.
	gcPercent = 50
	// stdoutBufferSize is the buffer in front of standard output.
	stdoutBufferSize = 64 << 10
)
