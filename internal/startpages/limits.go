package startpages

// maxHeaderBytes is how much of the executable Drop reads to find its
// segments: the ELF header and the program headers follow it at once in
// every linker's output (Go's and GNU ld's put a dozen entries there).
const maxHeaderBytes = 4 << 10
