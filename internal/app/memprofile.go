//go:build evgprof

package app

import (
	"os"
	"runtime"
	"runtime/pprof"
)

// memProfile starts the heap profile EVGREP_MEMPROFILE=FILE asks for: every
// allocation sampled every 64 KiB, written to FILE by the function it
// returns. Only a binary built with the evgprof tag has it (`go build -tags
// evgprof ./cmd/evgrep`): in any other, nothing reaches the runtime's heap
// profile, so the linker turns allocation sampling off from the first
// allocation (memprofile_off.go).
func memProfile() func() {
	path := os.Getenv("EVGREP_MEMPROFILE")
	if path == "" {
		runtime.MemProfileRate = 0
		return func() {}
	}
	runtime.MemProfileRate = 64 << 10
	return func() {
		if f, err := os.Create(path); err == nil {
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
	}
}
