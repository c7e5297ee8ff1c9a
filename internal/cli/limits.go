package cli

// Bounds of the command line's defaults, in one place.
const (
	// maxDefaultThreads caps the default -j, as rg 13 caps its default
	// thread count at 12.
	maxDefaultThreads = 12
)
