package pipeline

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestStatInfoAsOS: a statInfo answers as os.Lstat's FileInfo does, for a
// file, a folder, a FIFO, a symlink and the mode bits.
func TestStatInfoAsOS(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	os.WriteFile(file, []byte("hello\n"), 0o640)
	os.Chmod(file, 0o640|os.ModeSetuid|os.ModeSetgid)
	sticky := filepath.Join(dir, "sticky")
	os.Mkdir(sticky, 0o755)
	os.Chmod(sticky, 0o755|os.ModeSticky)
	link := filepath.Join(dir, "l")
	os.Symlink(file, link)
	paths := []string{file, dir, sticky, link}
	if err := syscall.Mkfifo(filepath.Join(dir, "p"), 0o600); err == nil {
		paths = append(paths, filepath.Join(dir, "p"))
	}
	for _, p := range paths {
		want, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := &syscall.Stat_t{}
		if err := syscall.Lstat(p, st); err != nil {
			t.Fatal(err)
		}
		got := &statInfo{name: filepath.Base(p), st: st}
		if got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() ||
			!got.ModTime().Equal(want.ModTime()) || got.IsDir() != want.IsDir() {
			t.Errorf("%s: %s %d %v %v %v, os says %s %d %v %v %v", p, got.Name(), got.Size(), got.Mode(), got.ModTime(), got.IsDir(),
				want.Name(), want.Size(), want.Mode(), want.ModTime(), want.IsDir())
		}
	}
}

// TestOpenCheckedFileDescriptor: a plain path opens as a bare descriptor
// that reads the file to io.EOF, stats as the file, and closes once; a
// path through a symlinked folder, which openat2 refuses, opens through
// os.File as OpenCheckedStat would.
func TestOpenCheckedFileDescriptor(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("line of text\n"), 5000)
	file := filepath.Join(dir, "f.txt")
	os.WriteFile(file, data, 0o644)
	f, fi, err := OpenCheckedFile(file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.(*fdFile); !ok {
		t.Fatalf("a plain path opened as %T", f)
	}
	if fi.Size() != int64(len(data)) || !fi.Mode().IsRegular() || f.Name() != file {
		t.Fatalf("stat %d %v, name %s", fi.Size(), fi.Mode(), f.Name())
	}
	got, err := io.ReadAll(f)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("read %d bytes, %v", len(got), err)
	}
	if n, err := f.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Fatalf("read past the end: %d, %v", n, err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("second close: %v", err)
	}
	linked := filepath.Join(t.TempDir(), "ln")
	os.Symlink(dir, linked)
	g, _, err := OpenCheckedFile(filepath.Join(linked, "f.txt"), nil)
	if err != nil {
		t.Fatalf("through a linked folder: %v", err)
	}
	if _, ok := g.(*os.File); !ok {
		t.Fatalf("a path through a symlink opened as %T", g)
	}
	g.Close()
}

// TestOpenRegular: a regular file (through a symlink too, as os.Open
// follows it) opens as a bare descriptor with its fstat and reads its
// bytes; a folder at the path falls back to os.Open; a missing file is
// os.Open's error.
func TestOpenRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	os.WriteFile(file, []byte("hello\n"), 0o644)
	link := filepath.Join(dir, "l")
	os.Symlink(file, link)
	for _, p := range []string{file, link} {
		f, fi, err := OpenRegular(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := f.(*fdFile); !ok || fi.Size() != 6 || !fi.Mode().IsRegular() {
			t.Errorf("%s: %T, size %d, mode %v", p, f, fi.Size(), fi.Mode())
		}
		b, err := io.ReadAll(f)
		f.Close()
		if err != nil || string(b) != "hello\n" {
			t.Errorf("%s: read %q, %v", p, b, err)
		}
	}
	f, fi, err := OpenRegular(dir)
	if err != nil || !fi.IsDir() {
		t.Fatalf("folder: %v %v", fi, err)
	}
	if _, ok := f.(*os.File); !ok {
		t.Errorf("folder: %T, want the os.File fallback", f)
	}
	f.Close()
	_, _, err = OpenRegular(filepath.Join(dir, "missing"))
	_, want := os.Open(filepath.Join(dir, "missing"))
	if err == nil || err.Error() != want.Error() || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v, os.Open says %v", err, want)
	}
}
