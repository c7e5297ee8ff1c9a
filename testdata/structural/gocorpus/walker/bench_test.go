package walker

import (
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
)

// BenchmarkWalkGOROOT walks the Go installation (about 15,000 files), as
// `rg --files $(go env GOROOT)` does, in parallel and single-threaded.
func BenchmarkWalkGOROOT(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skip("no go command:", err)
	}
	root := strings.TrimSpace(string(out))
	for _, threads := range []int{0, 1} {
		name := "parallel"
		if threads == 1 {
			name = "single"
		}
		b.Run(name, func(b *testing.B) {
			opts := DefaultOptions()
			opts.Threads = threads
			var n atomic.Int64
			for b.Loop() {
				n.Store(0)
				if err := Walk([]string{root}, opts, func(Entry) bool { n.Add(1); return true }); err != nil {
					b.Fatal(err)
				}
			}
			if n.Load() == 0 {
				b.Fatalf("no files under %s", root)
			}
			b.ReportMetric(float64(n.Load()), "files")
		})
	}
}
