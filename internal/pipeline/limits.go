package pipeline

// Every bound the pipeline uses, in one place.
const (
	// maxMmapPaths is the most paths for which rg memory-maps files it
	// was not told to map (all of them must be regular files).
	maxMmapPaths = 10
)
