//go:build !evgprof

package app

// memProfile does nothing without the evgprof build tag (memprofile.go).
// Nothing in such a binary reaches the runtime's heap profile, and the
// linker then sets the sampling rate to 0 before the first allocation:
// the default rate sampled an allocation every 512 KiB, each a stack walk
// through the function table, whose pages (and the profile's bucket
// table) then stayed resident. A tiny-tree search's peak RSS fell by
// about 0.5 MB (bench/README.md).
func memProfile() func() { return func() {} }
