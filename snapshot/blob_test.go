package snapshot

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Blobs are written atomically and read back with the discipline of
// snapshot files: plain names only, no link followed, bounded size.
func TestBlobs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s := NewStore(dir)
	if err := s.WriteBlob("rank-abc", []byte("payload")); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadBlob("rank-abc", 100)
	if err != nil || !bytes.Equal(got, []byte("payload")) {
		t.Fatalf("read back %q, %v", got, err)
	}
	if _, err := s.ReadBlob("rank-abc", 3); err == nil {
		t.Error("a blob over the limit was read")
	}
	for _, bad := range []string{"", "../x", "a/b", ".hidden", string(make([]byte, 65))} {
		if err := s.WriteBlob(bad, nil); err == nil {
			t.Errorf("name %q accepted for writing", bad)
		}
		if _, err := s.ReadBlob(bad, 10); err == nil {
			t.Errorf("name %q accepted for reading", bad)
		}
	}
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("secret"), 0o600)
	if err := os.Symlink(secret, filepath.Join(dir, blobPrefix+"link")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadBlob("link", 100); err == nil {
		t.Error("a blob that is a symbolic link was followed")
	}
	if _, err := NewMemoryStore().ReadBlob("rank-abc", 10); err == nil {
		t.Error("a memory store has no blobs")
	}
}

// OpenBlob opens what ReadBlob reads, checked alike: the open file stays
// the version opened when the blob is written again.
func TestOpenBlob(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s := NewStore(dir)
	if err := s.WriteBlob("rank-abc", []byte("payload")); err != nil {
		t.Fatal(err)
	}
	f, size, err := s.OpenBlob("rank-abc", 100)
	if err != nil || size != 7 {
		t.Fatalf("open: %d, %v", size, err)
	}
	defer f.Close()
	if err := s.WriteBlob("rank-abc", []byte("another payload")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 16)
	n, _ := f.ReadAt(got, 0)
	if string(got[:n]) != "payload" {
		t.Errorf("the open blob reads %q", got[:n])
	}
	if _, _, err := s.OpenBlob("rank-abc", 3); err == nil {
		t.Error("a blob over the limit was opened")
	}
	if _, _, err := s.OpenBlob("../x", 10); err == nil {
		t.Error("a bad name was opened")
	}
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("secret"), 0o600)
	os.Symlink(secret, filepath.Join(dir, blobPrefix+"link"))
	if _, _, err := s.OpenBlob("link", 100); err == nil {
		t.Error("a blob that is a symbolic link was followed")
	}
	if _, _, err := NewMemoryStore().OpenBlob("rank-abc", 10); err == nil {
		t.Error("a memory store has no blobs")
	}
}

// WriteBlobFrom writes the pieces its writer gives as one blob, and a
// writer's error leaves the blob as it was (no temporary file behind).
func TestWriteBlobFrom(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	s := NewStore(dir)
	if err := s.WriteBlobFrom("rank-abc", func(w io.Writer) error {
		for _, p := range []string{"pay", "", "load"} {
			if _, err := io.WriteString(w, p); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.ReadBlob("rank-abc", 100); err != nil || string(got) != "payload" {
		t.Fatalf("read back %q, %v", got, err)
	}
	bad := errors.New("writer failed")
	if err := s.WriteBlobFrom("rank-abc", func(w io.Writer) error {
		io.WriteString(w, "half")
		return bad
	}); !errors.Is(err, bad) {
		t.Fatalf("error %v, want %v", err, bad)
	}
	if got, err := s.ReadBlob("rank-abc", 100); err != nil || string(got) != "payload" {
		t.Fatalf("after a failed write, read back %q, %v", got, err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
