package pipeline

// Every bound the pipeline uses, in one place.
const (
	// maxMmapPaths is the most paths for which rg memory-maps files it
	// was not told to map (all of them must be regular files).
	maxMmapPaths = 10

	// maxReadWhole is the largest file -U reads into a pooled buffer
	// rather than maps (most files of a tree are far smaller).
	maxReadWhole = 1 << 20
	// maxKeptWhole is the largest such buffer kept for the next file.
	maxKeptWhole = 1 << 20
)
