package agent

import (
	"os"
	"testing"
)

// BenchmarkForbiddenPrefixes times building one policy for this process's
// HOME (as root: every account's home of /etc/passwd), which an agent
// call pays once at its first file.
func BenchmarkForbiddenPrefixes(b *testing.B) {
	home := os.Getenv("HOME")
	for b.Loop() {
		forbiddenPrefixes(home)
	}
}
