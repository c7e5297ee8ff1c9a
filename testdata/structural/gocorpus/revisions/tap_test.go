package revisions

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestTap: the tap finishes the revision at the end of the read (Reader)
// or once the mapped bytes are all written (Write), Verified for a file
// read whole and unchanged, and keeps the bytes of a file within the
// capture bound only when they are the whole file.
func TestTap(t *testing.T) {
	dir := t.TempDir()
	data := []byte("one\ntwo\nthree\n")
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(capture int64) (*os.File, *Tap) {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		tap, err := NewTap(f, capture, nil)
		if err != nil {
			t.Fatal(err)
		}
		return f, tap
	}
	// Through Reader, in small reads.
	f, tap := open(1 << 10)
	if _, err := io.CopyBuffer(io.Discard, tap.Reader(f), make([]byte, 3)); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if rev := tap.Finish(); !rev.Verified || rev.Hash != Hash(data) || !tap.Whole() || !bytes.Equal(tap.Bytes(), data) {
		t.Fatalf("read whole: %+v whole=%v %q", rev, tap.Whole(), tap.Bytes())
	}
	// Through Write, finished while the file is open.
	f, tap = open(1 << 10)
	tap.Write(data)
	rev := tap.Finish()
	f.Close()
	if !rev.Verified || !tap.Whole() {
		t.Fatalf("written whole: %+v", rev)
	}
	// A file over the capture bound is tracked, not kept.
	f, tap = open(4)
	io.Copy(io.Discard, tap.Reader(f))
	f.Close()
	if rev := tap.Finish(); !rev.Verified || tap.Whole() || len(tap.Bytes()) != 0 {
		t.Fatalf("over the bound: %+v whole=%v %q", rev, tap.Whole(), tap.Bytes())
	}
	// Read in part: not verified, not whole.
	f, tap = open(1 << 10)
	tap.Reader(f).Read(make([]byte, 4))
	rev = tap.Finish()
	f.Close()
	if rev.Verified || tap.Whole() {
		t.Fatalf("read in part: %+v whole=%v", rev, tap.Whole())
	}
	// Without capture nothing is kept.
	f, tap = open(0)
	io.Copy(io.Discard, tap.Reader(f))
	f.Close()
	if tap.Whole() || tap.Bytes() != nil || !tap.Finish().Verified {
		t.Fatal("no capture")
	}
	// An empty file is kept whole.
	e := filepath.Join(dir, "empty")
	os.WriteFile(e, nil, 0o644)
	ef, _ := os.Open(e)
	et, _ := NewTap(ef, 10, nil)
	io.Copy(io.Discard, et.Reader(ef))
	ef.Close()
	if !et.Whole() || !et.Finish().Verified {
		t.Fatal("empty file")
	}
}
