// Package startpages gives back, once package initialisation is over, the
// pages of the executable's read-only segments that start-up touched.
//
// Every package's init function, and the type data and strings it reads,
// lies somewhere in the executable; the kernel maps the page cache around
// each first touch (fault-around, 64 KiB by default), so initialising
// evgrep's ~300 packages left about 11 MB of the executable resident before
// main ran, most of it code and data no search uses again (net/http, the
// MCP SDK, the grammars' registries, ...). Drop unmaps those pages from the
// process with madvise(MADV_DONTNEED): they stay in the page cache, and the
// ones the run needs again come back on the next touch as minor faults. The
// process's peak resident size is then the larger of start-up's and the
// search's instead of their sum (bench/README.md, "Peak RSS").
//
// Start-up alone climbed to 13 MB before main (rg's whole run peaks at
// 7 MB), so Drop also runs during package initialisation, from the init
// functions of the packages under stages/ (stages/doc.go): each is
// initialised as soon as the packages it imports are, which places it
// part-way through start-up, and start-up's peak is then the largest climb
// between two drops instead of the whole climb (a tiny-tree search's peak
// 14.9 -> 10.7 MB; stages/doc.go). Drop leaves the first hotCodeBytes of
// the code mapped: the runtime and the standard packages that every run
// touches again at once.
//
// Only segments that are not writable are dropped (code, read-only data,
// the function table): their pages are never private copies, so what a
// later touch maps is byte for byte what was dropped. Under a debugger
// (TracerPid not 0) nothing is dropped, so software breakpoints written
// into the code stay.
package startpages
