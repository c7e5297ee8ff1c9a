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

// TestStatRegular: statRegular gives what identityOf of os.Stat gives,
// follows a symbolic link, says a folder is not regular, and fails where
// os.Stat fails.
func TestStatRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte("some bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{file, link, dir} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		id, regular, err := statRegular(p)
		if err != nil || id != identityOf(fi) || regular != fi.Mode().IsRegular() {
			t.Errorf("%s: %+v %v %v, os.Stat says %+v %v", p, id, regular, err, identityOf(fi), fi.Mode().IsRegular())
		}
	}
	if _, _, err := statRegular(filepath.Join(dir, "missing")); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}
