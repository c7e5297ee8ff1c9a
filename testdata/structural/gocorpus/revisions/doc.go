// Package revisions records which revision of a file a search saw and tells
// later whether the file on disk is still that revision.
//
// A revision is the file's identity (device, inode, size, modification and
// status-change times) taken when the file was opened, plus an xxhash of
// exactly the bytes the search read. The pipeline wraps the reader it already
// uses with a Tracker, so the hash costs no second read; Finish re-stats the
// open file and marks the revision Verified only when nothing changed while
// it was read and every byte of the file went through the hash.
//
// Before source is shown from disk (context lines, inspect), Check or
// ReadVerified compare the file with the recorded revision: identity first,
// then the content hash for files up to RehashLimit bytes.
//
// The package decides nothing about policy: callers choose what to do with a
// Changed or Missing file.
package revisions
