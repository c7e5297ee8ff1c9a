package rankindex

import "time"

// Bounds of building an index from files.
const (
	// maxWorkers is the most files chunked at once.
	maxWorkers = 8
	// buildWindow is the most documents read ahead of the one being
	// indexed (read, waiting or being read), so a build holds at most
	// these beside its index.
	buildWindow = 256
	// buildLockWait is how long a build without a cache waits for
	// another process building the same index (then builds it too).
	buildLockWait = 60 * time.Second
	// memoEntries is how many indexes a process keeps in memory.
	memoEntries = 2
	// blobNamePrefix names the cache files in the state folder.
	blobNamePrefix = "rank-"
)
