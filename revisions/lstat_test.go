package revisions

import (
	"os"
	"path/filepath"
	"testing"
)

// LstatRegular gives what FileInfoIdentity of os.Lstat gives, does not
// follow a symbolic link, and fails where os.Lstat fails.
func TestLstatRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("some bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l")
	haveLink := os.Symlink(file, link) == nil
	for _, c := range []struct {
		path    string
		regular bool
	}{{file, true}, {dir, false}, {link, false}} {
		if c.path == link && !haveLink {
			continue
		}
		fi, err := os.Lstat(c.path)
		if err != nil {
			t.Fatal(err)
		}
		id, regular, err := LstatRegular(c.path)
		if err != nil || regular != c.regular || id != FileInfoIdentity(fi) {
			t.Errorf("%s: %+v %v %v, want %+v %v", c.path, id, regular, err, FileInfoIdentity(fi), c.regular)
		}
	}
	if _, _, err := LstatRegular(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}
