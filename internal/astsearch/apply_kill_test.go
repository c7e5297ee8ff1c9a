package astsearch

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evgrep/evgrep/revisions"
)

// TestApplyKilledMidWrite kills a process in the middle of an apply (half
// of the new content written to the temporary file) and finds the file
// whole: its old content, its mode kept, and no half-written file under
// its name.
func TestApplyKilledMidWrite(t *testing.T) {
	if os.Getenv("EVGREP_APPLY_CHILD") != "" {
		applyChild()
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "big.go")
	old := bytes.Repeat([]byte("package p // old line\n"), 50_000)
	if err := os.WriteFile(path, old, 0o640); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestApplyKilledMidWrite$")
	cmd.Env = append(os.Environ(), "EVGREP_APPLY_CHILD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "mid-write") {
				ready <- sc.Text()
				return
			}
		}
		ready <- ""
	}()
	select {
	case s := <-ready:
		if s == "" {
			t.Fatal("the child ended without reaching the middle of its write")
		}
	case <-time.After(2 * time.Minute): // detects a hang, not a speed
		t.Fatal("the child never reached the middle of its write")
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, old) {
		t.Fatalf("after the kill the file holds %d bytes, not its old %d", len(got), len(old))
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode())
	}
	// The temporary file is the only other file, and it is not the
	// target's name.
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != "big.go" && !strings.HasPrefix(e.Name(), ".big.go.evgrep-") {
			t.Errorf("unexpected file %s", e.Name())
		}
	}
}

// applyChild rewrites the file named by EVGREP_APPLY_CHILD and stops in
// the middle of writing the temporary file, waiting to be killed.
func applyChild() {
	path := os.Getenv("EVGREP_APPLY_CHILD")
	src, err := os.ReadFile(path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	f, _ := os.Open(path)
	tr, _ := revisions.NewTracker(f)
	tr.Write(src)
	rev := tr.Finish()
	f.Close()
	midWrite = func() {
		fmt.Println("mid-write")
		os.Stdout.Sync()
		time.Sleep(time.Hour)
	}
	WriteFile(path, rev, bytes.ReplaceAll(src, []byte("old"), []byte("new")), NewGuard([]string{filepath.Dir(path)}, nil))
	os.Exit(0)
}

// TestWriteFileRefusesChanged: an edit made between the read and the
// apply is refused and left as it is.
func TestWriteFileRefusesChanged(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.go")
	os.WriteFile(path, []byte("package a\n"), 0o600)
	f, _ := os.Open(path)
	tr, _ := revisions.NewTracker(f)
	tr.Write([]byte("package a\n"))
	rev := tr.Finish()
	f.Close()
	time.Sleep(10 * time.Millisecond)
	os.WriteFile(path, []byte("package b\n"), 0o600) // the edit
	if err := WriteFile(path, rev, []byte("package c\n"), NewGuard([]string{dir}, nil)); err != ErrChanged {
		t.Fatalf("got %v, want ErrChanged", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "package b\n" {
		t.Fatalf("file now %q", b)
	}
	// Unchanged: written, mode kept.
	f, _ = os.Open(path)
	tr, _ = revisions.NewTracker(f)
	tr.Write([]byte("package b\n"))
	rev = tr.Finish()
	f.Close()
	if err := WriteFile(path, rev, []byte("package c\n"), NewGuard([]string{dir}, nil)); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "package c\n" {
		t.Fatalf("file now %q", b)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}
