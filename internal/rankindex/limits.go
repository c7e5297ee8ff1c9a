package rankindex

// Bounds of building an index from files.
const (
	// maxWorkers is the most files chunked at once.
	maxWorkers = 8
	// blobNamePrefix names the cache files in the state folder.
	blobNamePrefix = "rank-"
)
