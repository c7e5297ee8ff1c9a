package credpolicy

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestListDir: at most n names, more set past them; a link to a folder
// and a file are refused.
func TestListDir(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b", "c"} {
		os.WriteFile(filepath.Join(dir, n), nil, 0o644)
	}
	names, more, err := ListDir(dir, 5)
	sort.Strings(names)
	if err != nil || more || len(names) != 3 || names[0] != "a" {
		t.Fatalf("all: %q %v %v", names, more, err)
	}
	if names, more, err := ListDir(dir, 2); err != nil || !more || len(names) != 2 {
		t.Fatalf("bounded: %q %v %v", names, more, err)
	}
	link := filepath.Join(t.TempDir(), "l")
	os.Symlink(dir, link)
	for _, p := range []string{link, filepath.Join(dir, "a")} {
		if _, _, err := ListDir(p, 5); err == nil {
			t.Errorf("%s listed", p)
		}
	}
}
