package revisions

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// track reads path through a Tracker, calling during (if not nil) after the
// first half has been read, and returns the revision and the bytes read.
func track(t *testing.T, path string, during func()) (Revision, []byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := NewTracker(f)
	if err != nil {
		t.Fatal(err)
	}
	r := tr.Reader(f)
	var got bytes.Buffer
	half := tr.Identity().Size / 2
	if _, err := io.CopyN(&got, r, half); err != nil {
		t.Fatal(err)
	}
	if during != nil {
		during()
	}
	if _, err := io.Copy(&got, r); err != nil {
		t.Fatal(err)
	}
	if tr.BytesRead() != int64(got.Len()) {
		t.Fatalf("BytesRead = %d, read %d", tr.BytesRead(), got.Len())
	}
	return tr.Finish(), got.Bytes()
}

func TestTracker(t *testing.T) {
	content := strings.Repeat("line of text\n", 1000)
	tests := []struct {
		name     string
		during   func(t *testing.T, path string)
		verified bool
	}{
		{"unchanged", nil, true},
		{"grows while read", func(t *testing.T, path string) {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString("appended\n"); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"shrinks while read", func(t *testing.T, path string) {
			if err := os.Truncate(path, int64(len(content)-100)); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"replaced while read", func(t *testing.T, path string) {
			tmp := path + ".new"
			writeFile(t, tmp, content)
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"removed while read", func(t *testing.T, path string) {
			if err := os.Remove(path); err != nil {
				t.Fatal(err)
			}
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "f.txt")
			writeFile(t, path, content)
			var during func()
			if tc.during != nil {
				during = func() { tc.during(t, path) }
			}
			rev, got := track(t, path, during)
			if rev.Verified != tc.verified {
				t.Errorf("Verified = %v, want %v", rev.Verified, tc.verified)
			}
			if rev.Hash != Hash(got) {
				t.Errorf("Hash = %x, want hash of the bytes read %x", rev.Hash, Hash(got))
			}
			if rev.Size != int64(len(content)) {
				t.Errorf("Size = %d, want the size at open %d", rev.Size, len(content))
			}
		})
	}
}

func TestTrackerPartialReadNotVerified(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	writeFile(t, path, "0123456789")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := NewTracker(f)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4)
	if _, err := io.ReadFull(tr.Reader(f), buf); err != nil {
		t.Fatal(err)
	}
	if rev := tr.Finish(); rev.Verified || rev.Hash != Hash([]byte("0123")) {
		t.Errorf("partial read: %+v", rev)
	}
}

func TestTrackerWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	writeFile(t, path, "hello\nworld\n")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := NewTracker(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	tr.Write(data[:3])
	tr.Write(data[3:])
	rev := tr.Finish()
	if !rev.Verified || rev.Hash != Hash(data) {
		t.Errorf("Write: %+v, want verified hash %x", rev, Hash(data))
	}
	if st, err := Check(path, rev); st != Same || err != nil {
		t.Errorf("Check after Write = %v, %v", st, err)
	}
}

type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, syscall.EIO
	}
	n := min(len(p), r.n)
	for i := range p[:n] {
		p[i] = 'x'
	}
	r.n -= n
	return n, nil
}

func TestTrackerReadErrorNotVerified(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.txt")
	writeFile(t, path, "xxxxxxxx")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := NewTracker(f)
	if err != nil {
		t.Fatal(err)
	}
	// Eight bytes arrive, as many as the size, but the read failed.
	if _, err := io.ReadAll(tr.Reader(&failingReader{n: 8})); err == nil {
		t.Fatal("expected the read error")
	}
	if rev := tr.Finish(); rev.Verified {
		t.Errorf("a read that failed is verified: %+v", rev)
	}
}

func TestStatIdentity(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	writeFile(t, a, "same")
	writeFile(t, b, "same")
	ia, err := StatIdentity(a)
	if err != nil {
		t.Fatal(err)
	}
	ib, err := StatIdentity(b)
	if err != nil {
		t.Fatal(err)
	}
	if ia == ib {
		t.Errorf("two files share an identity: %+v", ia)
	}
	if ia.Size != 4 || ia.Ino == 0 || ia.Mtime == 0 {
		t.Errorf("identity not filled: %+v", ia)
	}
	f, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if fa, err := IdentityOf(f); err != nil || fa != ia {
		t.Errorf("IdentityOf = %+v, %v; want %+v", fa, err, ia)
	}
	fi, err := os.Stat(a)
	if err != nil {
		t.Fatal(err)
	}
	if FileInfoIdentity(fi) != ia {
		t.Errorf("FileInfoIdentity differs from StatIdentity")
	}
	if _, err := StatIdentity(filepath.Join(dir, "none")); err == nil {
		t.Error("StatIdentity of a missing file succeeded")
	}
}
