package e2e

import (
	"debug/elf"
	"testing"
)

// TestNoHeapProfile checks that nothing in the built binary reaches the
// runtime's heap profile (internal/app/memprofile_off.go): the linker then
// turns allocation sampling off before the first allocation. A reference
// to runtime.MemProfile or pprof's heap profile brings back a stack walk
// every 512 KiB allocated, and the function table's pages it touches.
func TestNoHeapProfile(t *testing.T) {
	f, err := elf.Open(binary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatalf("the built binary's symbols: %v", err)
	}
	found := false
	for _, s := range syms {
		switch s.Name {
		case "runtime.memProfileInternal":
			t.Errorf("the binary links %s: allocation sampling stays on", s.Name)
		case "runtime.disableMemoryProfiling":
			found = true
		}
	}
	if !found {
		t.Error("no runtime.disableMemoryProfiling in the binary's symbols: cannot tell")
	}
}
