package testref

import (
	"os/exec"
	"strings"
	"testing"
)

// GoRoot returns the Go installation that the go command on PATH uses (a
// corpus for tests that search real source); the test is skipped when there
// is none.
func GoRoot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	root := strings.TrimSpace(string(out))
	if err != nil || root == "" {
		t.Skip("no go command to locate GOROOT")
	}
	return root
}
