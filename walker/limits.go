package walker

// Limits and sizes of the walker, kept in one place.
const (
	// maxDefaultThreads caps the default number of walking goroutines,
	// as ripgrep caps its default thread count at 12.
	maxDefaultThreads = 12
	// direntBufSize is the size of each goroutine's getdents buffer,
	// the size the C library's readdir uses.
	direntBufSize = 32 << 10
	// pathBufSize is the initial capacity of each goroutine's scratch
	// buffer for building paths.
	pathBufSize = 512
	// maxGitConfigSize is how much of a git config file is read when
	// looking for core.excludesFile.
	maxGitConfigSize = 16 << 20
	// fileShare is how many of a large directory's files a parallel walk
	// hands to another goroutine at once (a directory of more than twice
	// this many is split).
	fileShare = 32
)
