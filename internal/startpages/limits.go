package startpages

// maxHeaderBytes is how much of the executable Drop reads to find its
// segments: the ELF header and the program headers follow it at once in
// every linker's output (Go's and GNU ld's put a dozen entries there).
const maxHeaderBytes = 4 << 10

// hotCodeBytes is the start of the code segment that Drop leaves mapped.
// Go's linker puts the runtime there, then the standard packages every
// run uses (reflect, time, os, sync, ...): the first MiB was wholly
// resident at main, at the end of a tiny-tree search and at the end of an
// agent call, so dropping it only made each drop cost its faults again
// (about 75 per drop).
const hotCodeBytes = 1 << 20

// statusHeadBytes is how much of /proc/self/status Drop reads to find
// TracerPid, the eighth line (a status without it within these bytes
// counts as traced: nothing is dropped).
const statusHeadBytes = 1 << 10
