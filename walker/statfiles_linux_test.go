package walker

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
)

// On Linux, with StatFiles each regular file's entry carries its lstat result, the
// same as a stat of the whole path gives; without it, none.
func TestStatFiles(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"a.txt", "sub/b.txt", "sub/deeper/c.txt"} {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, stat := range []bool{true, false} {
		for _, threads := range []int{1, 2} {
			o := DefaultOptions()
			o.StatFiles = stat
			o.Threads = threads
			var mu sync.Mutex
			seen := 0
			err := Walk([]string{dir}, o, func(e Entry) bool {
				mu.Lock()
				defer mu.Unlock()
				seen++
				if !stat {
					if e.Stat != nil {
						t.Errorf("%s: a stat without StatFiles", e.Path)
					}
					return true
				}
				var st syscall.Stat_t
				if err := syscall.Lstat(e.Path, &st); err != nil {
					t.Fatal(err)
				}
				want := FileStat{Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Mtime: st.Mtim.Nano(), Ctime: st.Ctim.Nano(), Regular: true}
				if e.Stat == nil || *e.Stat != want {
					t.Errorf("%s (threads %d): stat %+v, want %+v", e.Path, threads, e.Stat, want)
				}
				return true
			})
			if err != nil || seen != 3 {
				t.Fatalf("walk: %v, %d files", err, seen)
			}
		}
	}
}
