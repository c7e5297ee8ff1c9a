package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestReadWhole: -U's small files come back whole from the pooled buffer
// (also after a bigger file used it); empty, oversized and irregular
// files are left to the caller (nil data, no error); a missing file is
// an error.
func TestReadWhole(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := bytes.Repeat([]byte("x\n"), 300000)
	small := []byte("one\ntwo\n")
	for _, c := range []struct {
		path string
		want []byte
	}{
		{write("big", big), big},
		{write("small", small), small},
		{write("huge", bytes.Repeat([]byte("y"), maxReadWhole+1)), nil},
		{write("empty", nil), nil},
		{dir, nil},
	} {
		data, release, err := readWhole(c.path, c.path != dir)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if !bytes.Equal(data, c.want) || (data == nil) != (c.want == nil) {
			t.Fatalf("%s: %d bytes, want %d", c.path, len(data), len(c.want))
		}
		if release != nil {
			release()
		}
	}
	if _, _, err := readWhole(filepath.Join(dir, "missing"), true); err == nil {
		t.Fatal("a missing file: no error")
	}
}
