package revisions

// RehashLimit is the largest file (in bytes) whose content Check re-hashes;
// for larger files the identity alone decides. It equals the source read for
// inspect (5 MiB), so a file that can be shown can also be verified.
const RehashLimit = 5 << 20
