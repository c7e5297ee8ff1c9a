// Package snapshot holds the retained result of one search and pages
// through it with cursors.
//
// The search pipeline feeds a Builder from its workers (AddFile with the
// revision read, AddLine with each match line and its occurrence ranges);
// Build returns an immutable Snapshot: match lines sorted by (path, line)
// with stable match numbers 1..N, files ranked by match count (desc, then
// path), exact totals, and Partial when more lines matched than the
// retention bounds allow.
//
// Pages are bounded by a line limit and a byte budget (MatchesPage) or a
// file count (SummaryPage). A Store keeps snapshots (LRU, idle expiry) and
// issues cursor tokens — 128 random bits — for the next page; Resolve turns
// a token back into its snapshot and position, or fails with a stable code
// (see Code). A Store with a state folder persists snapshots as zstd files
// so that a cursor from one process works in the next; several processes
// may share the folder.
//
// Every bound is a constant in limits.go. The package never searches and
// knows nothing of flags or printing.
package snapshot
