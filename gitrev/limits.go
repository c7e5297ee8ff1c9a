package gitrev

// Every bound of the package, in one place. Limits carries the ones a
// caller (a test) may lower; DefaultLimits holds their values.
const (
	// defaultMaxBlobSize is the largest blob read from a revision (a file
	// of a searched tree, an ignore file, or the old side of a diff). A
	// larger one is an error for that path, never a partial read.
	defaultMaxBlobSize = 64 << 20
	// defaultMaxFiles is the most tree entries one Tree lists (files and
	// folders of the searched commit); past it every call fails and a
	// walk ends (walker.ErrStopTree). A Tree holds about 60 bytes an
	// entry: a tree bomb of 10^13 paths ends here in 35 s and 340 MB.
	defaultMaxFiles = 2_000_000
	// defaultMaxDiffEdits bounds the line diff of one file: past this many
	// inserted plus deleted lines (after the common head and tail are
	// set aside) every line between the first and the last difference
	// counts as changed. Memory is (edits+1)² int32s: 16 MiB at 2,048.
	defaultMaxDiffEdits = 2048
	// defaultMaxDiffLines is the most lines of one side that are diffed;
	// past it the whole working file counts as changed.
	defaultMaxDiffLines = 4_000_000
	// defaultMaxInflated bounds the work of one Repo (one search): the
	// bytes inflated from loose objects and packs plus the bytes made by
	// applying deltas, over every object read. Past it every read fails
	// (ErrBudget) and a walk ends. A checkout of a few GiB reads about
	// its own size; a repository of 50 KiB whose trees name one 1 MiB
	// blob 10^13 times stops here, after about 25 s.
	defaultMaxInflated = 8 << 30

	// maxRevisionLength is the longest commit-ish accepted.
	maxRevisionLength = 256
	// maxAncestrySteps bounds the ~N and ^N steps of one commit-ish.
	maxAncestrySteps = 100_000
	// maxPeel is how many annotated tags (a tag of a tag ...) are followed.
	maxPeel = 16
	// maxTreeDepth is the deepest folder nesting of a tree that is read.
	maxTreeDepth = 512
	// linearLookup is the most entries of a folder looked up by a scan;
	// larger folders get an index of their names.
	linearLookup = 16
	// maxObjectHeader is the largest commit, tag or tree object read.
	maxObjectHeader = 64 << 20
	// maxConfigSize is the largest .git/config (or config.worktree) read
	// for the partial-clone check.
	maxConfigSize = 4 << 20
	// maxGitFileSize is the largest .git file ("gitdir: X") or commondir
	// file read.
	maxGitFileSize = 64 << 10
	// objectCacheSize is the memory go-git's object cache may hold (refs
	// and the shallow file are read through go-git; objects are not).
	objectCacheSize = 1 << 20

	// maxDeltaDepth is the longest delta chain followed: git writes at
	// most 4095 (pack.depth). Each link is read iteratively, and a chain
	// that comes back to an entry it passed is an error (ErrCorrupt).
	// Every object of a chain (its base, each result) is bounded by the
	// limit of the object read.
	maxDeltaDepth = 4095
	// linkCost is what each entry of a delta chain, and each object read,
	// costs the inflate budget besides its bytes (a header read and a
	// zlib stream started), so that chains of tiny deltas are bounded in
	// time as large objects are.
	linkCost = 512
	// maxEntryHeader is the longest pack entry header read: type and
	// size (at most 10 bytes), then a base offset (10) or name (20).
	maxEntryHeader = 32
	// maxLooseHeader is the longest loose object header ("blob 12").
	maxLooseHeader = 32
	// maxPackIndexSize is the largest pack index (.idx) read, held in
	// memory: about 37 million objects.
	maxPackIndexSize = 1 << 30
	// maxPackObjects is the most objects one pack index may list.
	maxPackObjects = 1 << 26
	// maxPacks is the most packs read of one repository.
	maxPacks = 10_000
	// maxAlternates is the most alternate object folders followed
	// (objects/info/alternates), and maxAlternateDepth how deeply they
	// may name further alternates (git's own depth).
	maxAlternates     = 64
	maxAlternateDepth = 5
)

// Limits are the bounds of one Repo.
type Limits struct {
	// MaxBlobSize is the largest blob read, in bytes.
	MaxBlobSize int64
	// MaxFiles is the most tree entries a Tree lists.
	MaxFiles int
	// MaxDiffEdits bounds the line diff of one file (see Changes).
	MaxDiffEdits int
	// MaxDiffLines is the most lines of one side that are diffed.
	MaxDiffLines int
	// MaxInflated is the most bytes inflated and made from deltas in all
	// through the Repo.
	MaxInflated int64
}

// DefaultLimits returns the bounds Open uses.
func DefaultLimits() Limits {
	return Limits{
		MaxBlobSize:  defaultMaxBlobSize,
		MaxFiles:     defaultMaxFiles,
		MaxDiffEdits: defaultMaxDiffEdits,
		MaxDiffLines: defaultMaxDiffLines,
		MaxInflated:  defaultMaxInflated,
	}
}
