package revisions

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// record reads path completely through a Tracker and returns its revision.
func record(t *testing.T, path string) Revision {
	t.Helper()
	rev, _ := track(t, path, nil)
	if !rev.Verified {
		t.Fatalf("recording %s: not verified", path)
	}
	return rev
}

func TestCheck(t *testing.T) {
	const content = "package main\n\nfunc main() {}\n"
	tests := []struct {
		name   string
		change func(t *testing.T, path string, rev *Revision)
		want   Status
	}{
		{"unchanged", nil, Same},
		{"edited same size, mtime restored", func(t *testing.T, path string, rev *Revision) {
			writeFile(t, path, strings.Replace(content, "main() {}", "mian() {}", 1))
			mt := time.Unix(0, rev.Mtime)
			if err := os.Chtimes(path, mt, mt); err != nil {
				t.Fatal(err)
			}
		}, Changed},
		{"edited other size", func(t *testing.T, path string, rev *Revision) {
			writeFile(t, path, content+"// more\n")
		}, Changed},
		{"replaced by identical content", func(t *testing.T, path string, rev *Revision) {
			writeFile(t, path+".tmp", content)
			if err := os.Rename(path+".tmp", path); err != nil {
				t.Fatal(err)
			}
		}, Changed},
		{"deleted", func(t *testing.T, path string, rev *Revision) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, Missing},
		{"replaced by a directory", func(t *testing.T, path string, rev *Revision) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, Changed},
		{"replaced by a FIFO", func(t *testing.T, path string, rev *Revision) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Skip("mkfifo:", err)
			}
		}, Changed},
		{"same identity, other hash", func(t *testing.T, path string, rev *Revision) {
			rev.Hash++
		}, Changed},
		{"unverified revision of the whole content", func(t *testing.T, path string, rev *Revision) {
			rev.Verified = false
		}, Same},
		{"unverified revision of a prefix", func(t *testing.T, path string, rev *Revision) {
			rev.Verified = false
			rev.Hash = Hash([]byte(content[:10]))
		}, Changed},
		{"zero revision", func(t *testing.T, path string, rev *Revision) {
			*rev = Revision{}
		}, Changed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "main.go")
			writeFile(t, path, content)
			rev := record(t, path)
			if tc.change != nil {
				tc.change(t, path, &rev)
			}
			st, err := Check(path, rev)
			if err != nil || st != tc.want {
				t.Errorf("Check = %v, %v; want %v", st, err, tc.want)
			}
			data, st2, err := ReadVerified(path, rev, 0)
			if err != nil || st2 != tc.want {
				t.Errorf("ReadVerified status = %v, %v; want %v", st2, err, tc.want)
			}
			if st2 == Same && string(data) != content {
				t.Errorf("ReadVerified data = %q", data)
			}
			if st2 != Same && data != nil {
				t.Errorf("ReadVerified returned data for status %v", st2)
			}
		})
	}
}

func TestCheckMissingParent(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(sub, "f")
	writeFile(t, path, "x\n")
	rev := record(t, path)
	if err := os.RemoveAll(sub); err != nil {
		t.Fatal(err)
	}
	writeFile(t, sub, "now a file\n")
	if st, err := Check(path, rev); st != Missing || err != nil {
		t.Errorf("Check under a file = %v, %v; want missing", st, err)
	}
}

func TestCheckBeyondLimit(t *testing.T) {
	content := bytes.Repeat([]byte("0123456789abcdef"), 64) // 1 KiB
	tests := []struct {
		name     string
		verified bool
		hash     uint64
		want     Status
	}{
		// Beyond the limit identity decides, so even a wrong hash passes.
		{"verified, identity decides", true, 1, Same},
		{"unverified cannot be vouched for", false, Hash(content), Changed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "big")
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			id, err := StatIdentity(path)
			if err != nil {
				t.Fatal(err)
			}
			rev := Revision{Identity: id, Hash: tc.hash, Verified: tc.verified}
			data, st, err := ReadVerified(path, rev, 100)
			if err != nil || st != tc.want {
				t.Fatalf("ReadVerified = %v, %v; want %v", st, err, tc.want)
			}
			if st == Same && !bytes.Equal(data, content[:100]) {
				t.Errorf("data = %q, want the first 100 bytes", data)
			}
		})
	}
}

func TestCheckPermissionDenied(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	path := filepath.Join(t.TempDir(), "secret")
	writeFile(t, path, "x\n")
	rev := record(t, path)
	if err := os.Chmod(path, 0); err != nil {
		t.Fatal(err)
	}
	// chmod changes ctime, so compare against the new identity.
	id, err := StatIdentity(path)
	if err != nil {
		t.Fatal(err)
	}
	rev.Identity = id
	if st, err := Check(path, rev); st != Unknown || err == nil {
		t.Errorf("Check = %v, %v; want unknown with an error", st, err)
	}
}

func TestStatusString(t *testing.T) {
	for st, want := range map[Status]string{Unknown: "unknown", Same: "same", Changed: "changed", Missing: "missing", Status(42): "unknown"} {
		if st.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(st), st.String(), want)
		}
	}
}

// TestCheckErrors: a path that cannot be examined gives Unknown and the
// error (as root too, unlike permission denied).
func TestCheckErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	writeFile(t, path, "x\n")
	rev := record(t, path)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	// The file is replaced by a symlink loop.
	if err := os.Symlink("f", path); err != nil {
		t.Fatal(err)
	}
	if st, err := Check(path, rev); st != Unknown || err == nil {
		t.Errorf("symlink loop: %v, %v; want unknown with an error", st, err)
	}
	long := filepath.Join(dir, strings.Repeat("n", 300))
	if st, err := Check(long, rev); st != Unknown || err == nil {
		t.Errorf("name too long: %v, %v; want unknown with an error", st, err)
	}
	for _, tc := range []struct {
		err  error
		want Status
	}{
		{os.ErrNotExist, Missing},
		{syscall.ENOTDIR, Missing},
		{os.ErrPermission, Unknown},
		{syscall.EIO, Unknown},
	} {
		if _, st, err := missingOr(tc.err); st != tc.want || (st == Unknown) != (err != nil) {
			t.Errorf("missingOr(%v) = %v, %v; want %v", tc.err, st, err, tc.want)
		}
	}
}
