package snapshot

import (
	"time"

	"github.com/evgrep/evgrep/revisions"
)

// Bounds of the agent contract (DESIGN.md, "Agent contract"), one constant
// each. The snapshot enforces the retention, page and store bounds; the
// others are here so that the agent policy reads every bound from one place.
const (
	// MaxRetainedLines is how many match lines one search retains; more
	// make the snapshot Partial (totals stay exact).
	MaxRetainedLines = 50000

	// MaxResponseBytes is the budget of one agent response.
	MaxResponseBytes = 16 << 10

	// MaxSummaryFiles is how many files one summary page lists.
	MaxSummaryFiles = 30

	// MaxRangesShown is how many occurrence ranges one shown line lists;
	// the rest are counted.
	MaxRangesShown = 20

	// MaxExcerptChars is the length of the excerpt of a long line, around
	// its first occurrence.
	MaxExcerptChars = 500

	// MaxInspectBytes is how much source inspect reads from one file; it
	// is also the size up to which revisions.Check re-hashes a file.
	MaxInspectBytes = revisions.RehashLimit

	// MaxSnapshots is how many snapshots a Store keeps in memory (LRU):
	// one MCP session's, or one process's copies of its state folder's.
	MaxSnapshots = 20

	// MaxDiskSnapshots and MaxDiskBytes bound the snapshots of a state
	// folder (LRU, by count and by the bytes of their files). The folder
	// is shared by every --agent process of the user, so several agents
	// searching at once keep each other's cursors: many more slots than
	// one session's, bounded by bytes.
	MaxDiskSnapshots = 512
	MaxDiskBytes     = 256 << 20

	// IdleExpiry is how long a snapshot is kept without being used.
	IdleExpiry = 10 * time.Minute

	// MaxPageLines is the largest limit of one matches page (the request's
	// limit field is 1–100).
	MaxPageLines = 100

	// MaxContextLines is the most lines of context a page shows around
	// each match line (the request's context field is 0–20).
	MaxContextLines = 20

	// MaxAuxSnapshots is how many snapshots without match lines (the
	// continuations of inspected source, empty searches) a Store keeps,
	// beside and apart from the MaxSnapshots searches: they are evicted
	// among themselves, so they never push out a search's cursors.
	MaxAuxSnapshots = 20

	// MaxItems is how many items one analysis keeps (see Item); more make
	// its snapshot Partial.
	MaxItems = 50000

	// MaxItemsBytes bounds the strings and records one analysis keeps;
	// beyond it the snapshot is Partial, as beyond MaxItems.
	MaxItemsBytes = 32 << 20

	// MaxItemText is the longest excerpt one item keeps (bytes, cut at a
	// character boundary).
	MaxItemText = 4 << 10

	// MaxItemKeyBytes is the longest Group or Label one item keeps.
	MaxItemKeyBytes = 1 << 10
)

// Bounds internal to the snapshot, chosen so that a retained snapshot (and
// its file in the state folder) stays small whatever the input.
const (
	// MaxRetainedBytes bounds the text and ranges retained by one search;
	// beyond it the snapshot is Partial, as beyond MaxRetainedLines.
	MaxRetainedBytes = 64 << 20

	// MaxLineBytes is the longest line retained whole. A longer line is
	// retained as a window of MaxLineBytes around its first occurrence,
	// which holds any MaxExcerptChars excerpt around it (4 bytes a
	// character at most, on either side).
	MaxLineBytes = 8 << 10

	// MaxRangesRetained is how many occurrence ranges of one line are
	// retained; Line.Occurrences keeps the exact count.
	MaxRangesRetained = 64

	// rangeCost is what one retained range counts against
	// MaxRetainedBytes (four ints).
	rangeCost = 32

	// evictQueue is how many of each class's oldest snapshots the
	// eviction mark queues (evictmark.go): the writes at the class's bound
	// that evict without a scan, one each, before the next scan.
	evictQueue = 32

	// MaxTombstones is how many evicted snapshots a Store remembers, so
	// that their cursors fail with E_CURSOR_EXPIRED rather than
	// E_CURSOR_NOT_FOUND.
	MaxTombstones = 200

	// TombstoneTTL is how long an evicted snapshot is remembered.
	TombstoneTTL = 24 * time.Hour

	// maxDecodedBytes is the memory one snapshot file may take to decode:
	// its decompressed content (allocated once, at the size its zstd frame
	// declares) plus what parsing builds from it (charged before each
	// allocation, see decodeCost). A file that would take more is corrupt;
	// a snapshot that would take more is not stored (Put fails with
	// CodeUnavailable and the search answers without a cursor).
	maxDecodedBytes = 128 << 20

	// maxWindowBytes is the zstd window the encoder uses and the largest a
	// snapshot file may declare; the decoder's history takes about this
	// much beside the decoded content.
	maxWindowBytes = 4 << 20

	// maxRawFrameBytes is the largest snapshot content written without
	// compression (rawframe.go): at MaxDiskSnapshots of them the state
	// folder holds 128 MiB, half of MaxDiskBytes.
	maxRawFrameBytes = 256 << 10

	// maxSnapshotFileBytes bounds a snapshot file on disk: a compressed
	// file is at most its content plus a few bytes per 128 KiB block.
	maxSnapshotFileBytes = maxDecodedBytes + maxDecodedBytes>>12 + 1<<10

	// maxCursorFileBytes bounds a cursor record on disk (JSON; its
	// selection lists at most the paths of one request).
	maxCursorFileBytes = 1 << 20

	// maxLockWait is how long an operation waits for the state folder's
	// lock (held by another process) before it gives up with
	// CodeUnavailable; the lock is only ever held for a few file
	// operations.
	maxLockWait = 2 * time.Second
)

// The bounds of a snapshot's typed metadata (Meta.Lists, Meta.Numbers) as
// decoded: how many named lists of each, and the longest name.
const (
	maxMetaKeys     = 64
	maxMetaKeyBytes = 64
)
