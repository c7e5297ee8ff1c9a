package walker

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestParallelHandsOutSubdirectoriesFirst: a parallel walk gives a
// directory's subdirectories to the other goroutines before it yields the
// directory's own files, so a goroutine busy with a folder of costly files
// (a structural search parses each) does not hold back the rest of the
// tree. Here the visit of the root's file waits until the file of its
// subdirectory has been visited, which only another goroutine can do.
func TestParallelHandsOutSubdirectoriesFirst(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"top.txt", filepath.Join("sub", "inner.txt")} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := DefaultOptions()
	opts.Threads = 2
	innerSeen := make(chan struct{})
	ok := true
	err := Walk([]string{dir}, opts, func(e Entry) bool {
		switch filepath.Base(e.Path) {
		case "inner.txt":
			close(innerSeen)
		case "top.txt":
			select {
			case <-innerSeen:
			case <-time.After(30 * time.Second): // a deadlock guard, not a speed bound
				ok = false
			}
		}
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatal("the subdirectory was not walked while the root's file was being visited")
	}
}

// TestParallelSharesLargeDirectories: a directory of many files is shared
// out among the goroutines: while one file's visit waits, another
// goroutine visits other files of the same directory.
func TestParallelSharesLargeDirectories(t *testing.T) {
	dir := t.TempDir()
	n := 4 * fileShare
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", i)), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := DefaultOptions()
	opts.Threads = 2
	var mu sync.Mutex
	first := ""
	othersSeen := make(chan struct{})
	visited := 0
	ok := true
	err := Walk([]string{dir}, opts, func(e Entry) bool {
		mu.Lock()
		if first == "" {
			first = e.Path
			mu.Unlock()
			select {
			case <-othersSeen:
			case <-time.After(30 * time.Second): // a deadlock guard, not a speed bound
				ok = false
			}
			return true
		}
		visited++
		if visited == fileShare {
			close(othersSeen)
		}
		mu.Unlock()
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatalf("no other goroutine visited %d files of the directory while the first was being visited", fileShare)
	}
}
