// Package vscan holds the vectorised byte scans of the matcher's
// prefilter: Teddy (a set of literals, by nibble masks) and Pair (one
// literal, by two of its byte positions). On amd64 with AVX2 they run in
// assembly (*_amd64.s) over 32 positions at a time; elsewhere Available
// reports false, the scans still work one position at a time, and callers
// keep their bytes.IndexByte scanners.
package vscan

// Available reports whether the vectorised scans run on this machine.
func Available() bool { return haveSIMD }
