package credpolicy

import (
	"os"
	"testing"
)

// BenchmarkCompute times computing one set for this process's HOME (as
// root: every account's home of /etc/passwd), which an agent call needs
// before its first file.
func BenchmarkCompute(b *testing.B) {
	home := os.Getenv("HOME")
	for b.Loop() {
		Compute(home)
	}
}
