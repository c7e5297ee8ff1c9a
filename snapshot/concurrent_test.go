package snapshot

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// helperEnv, when set to "dir,index", makes TestProcessHelper act as one of
// the processes of TestConcurrentProcesses.
const helperEnv = "EVGREP_SNAPSHOT_HELPER"

// snapshotsPerWorker is how many searches each concurrent worker stores;
// eight workers stay within MaxSnapshots, so nothing may be evicted.
const snapshotsPerWorker = 2

// issued is one cursor a worker made: its token, the search it pages and
// the offset it stands for.
type issued struct {
	token, tag string
	offset     int
}

// worker stores snapshotsPerWorker searches in the state folder dir through
// its own Store, pages each with cursors, and resolves every cursor through
// yet another Store (as the next process would) while the other workers
// write, read and evict.
func worker(t testing.TB, dir string, index int) ([]issued, error) {
	var out []issued
	for k := 0; k < snapshotsPerWorker; k++ {
		tag := fmt.Sprintf("w%d-%d", index, k)
		snap := mustSnapshot(t, tag, 20)
		st := NewStore(dir)
		for off := 0; ; {
			tok, err := st.NewCursor(snap, KindMatches, off, PathSelection{})
			if err != nil {
				return nil, err
			}
			got, c, err := NewStore(dir).Resolve(tok, snap.Meta.Root, KindMatches, snap.Meta.Fingerprint())
			if err != nil {
				return nil, fmt.Errorf("%s at %d: %w", tag, off, err)
			}
			if got.ID != snap.ID || c.Offset != off {
				return nil, fmt.Errorf("%s at %d: resolved %s at %d", tag, off, got.ID, c.Offset)
			}
			out = append(out, issued{tok, tag, off})
			_, next, done := got.MatchesPage(c.Selection, c.Offset, 5, MaxResponseBytes, nil)
			if done {
				break
			}
			off = next
		}
	}
	return out, nil
}

// checkFolder resolves every issued cursor through a fresh Store and checks
// that the folder holds exactly the workers' snapshots, intact.
func checkFolder(t *testing.T, dir string, all []issued, workers int) {
	t.Helper()
	st := NewStore(dir)
	for _, is := range all {
		want := mustSnapshot(t, is.tag, 20)
		got, c, err := st.Resolve(is.token, want.Meta.Root, KindMatches, want.Meta.Fingerprint())
		if err != nil {
			t.Fatalf("%s at %d: %v", is.tag, is.offset, err)
		}
		if c.Offset != is.offset {
			t.Fatalf("%s: offset %d, want %d", is.tag, c.Offset, is.offset)
		}
		want.ID = got.ID
		sameSnapshot(t, got, want)
	}
	live, tombs := countDirs(t, dir)
	if live != workers*snapshotsPerWorker || tombs != 0 {
		t.Errorf("%d live snapshots and %d tombstones, want %d and 0", live, tombs, workers*snapshotsPerWorker)
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), tmpPrefix) {
			t.Errorf("temporary file left: %s", p)
		}
		if err == nil && d.Name() == snapFileName {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Error(err)
			} else if _, err := decodeSnapshot(data); err != nil {
				t.Errorf("%s: %v", p, err)
			}
		}
		return nil
	})
}

func TestConcurrentGoroutines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	const workers = 8
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		all  []issued
		errs []error
	)
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := worker(t, dir, i)
			mu.Lock()
			defer mu.Unlock()
			all = append(all, out...)
			if err != nil {
				errs = append(errs, err)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(errs) > 0 {
		t.FailNow()
	}
	checkFolder(t, dir, all, workers)
}

// TestProcessHelper is one process of TestConcurrentProcesses.
func TestProcessHelper(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("helper for TestConcurrentProcesses")
	}
	dir, idx, _ := strings.Cut(spec, ",")
	index, err := strconv.Atoi(idx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := worker(t, dir, index)
	if err != nil {
		t.Fatal(err)
	}
	for _, is := range out {
		fmt.Printf("ISSUED %s %s %d\n", is.token, is.tag, is.offset)
	}
}

// TestConcurrentProcesses runs eight copies of the test binary at once on
// one state folder: every cursor any of them made resolves afterwards, and
// no file is lost or corrupt.
func TestConcurrentProcesses(t *testing.T) {
	if os.Getenv(helperEnv) != "" {
		t.Skip("inside a helper")
	}
	dir := filepath.Join(t.TempDir(), "state")
	const procs = 8
	cmds := make([]*exec.Cmd, procs)
	outs := make([]*bytes.Buffer, procs)
	for i := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestProcessHelper$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s,%d", helperEnv, dir, i))
		outs[i] = &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = outs[i], outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = cmd
	}
	var all []issued
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, outs[i])
		}
		n := 0
		sc := bufio.NewScanner(outs[i])
		for sc.Scan() {
			var is issued
			if _, err := fmt.Sscanf(sc.Text(), "ISSUED %s %s %d", &is.token, &is.tag, &is.offset); err == nil {
				all = append(all, is)
				n++
			}
		}
		if n == 0 {
			t.Fatalf("process %d issued no cursor:\n%s", i, outs[i])
		}
	}
	checkFolder(t, dir, all, procs)
}

// TestSharedStore uses one Store from eight goroutines (an MCP server's
// session store, or one process's persistent store).
func TestSharedStore(t *testing.T) {
	for _, dir := range []string{"", t.TempDir()} {
		st := NewStore(dir)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				snap := mustSnapshot(t, fmt.Sprintf("sh%d", i), 10)
				for off := 0; off <= len(snap.lines); off += 4 {
					tok, err := st.NewCursor(snap, KindMatches, off, PathSelection{})
					if err != nil {
						errs <- err
						return
					}
					got, c, err := st.Resolve(tok, snap.Meta.Root, KindMatches, snap.Meta.Fingerprint())
					if err != nil {
						errs <- err
						return
					}
					if got.ID != snap.ID || c.Offset != off {
						errs <- fmt.Errorf("resolved %s at %d, want %s at %d", got.ID, c.Offset, snap.ID, off)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("dir %q: %v", dir, err)
		}
	}
}
