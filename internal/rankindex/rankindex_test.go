package rankindex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/rank"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
)

func writeTree(t *testing.T, dir string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		p := filepath.Join(dir, fmt.Sprintf("pkg%d", i%3), fmt.Sprintf("f%02d.txt", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		text := fmt.Sprintf("file %d talks about topic%d\nand more words\n", i, i)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func load(t *testing.T, root string, store *snapshot.Store) (*rank.Index, Stats) {
	t.Helper()
	wo := walker.DefaultOptions()
	ix, st, err := Load(context.Background(), Options{Root: root, Walk: wo, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	if st.CacheErr != nil {
		t.Fatalf("cache: %v", st.CacheErr)
	}
	return ix, st
}

// The cache is keyed by file revisions: a warm load reuses every file, a
// changed file is chunked again and nothing else, a removed file leaves.
func TestCacheReusesUnchangedFiles(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	writeTree(t, root, 10)
	memoReset()
	ix, st := load(t, root, snapshot.NewStore(state))
	if st.Chunked != 10 || st.Reused != 0 || !st.Saved || ix.Files() != 10 {
		t.Fatalf("cold: %+v, %d files", st, ix.Files())
	}
	memoReset() // as a new process
	_, st = load(t, root, snapshot.NewStore(state))
	if st.Chunked != 0 || st.Reused != 10 || !st.Loaded || st.Saved {
		t.Fatalf("warm: %+v", st)
	}
	changed := filepath.Join(root, "pkg1", "f04.txt")
	if err := os.WriteFile(changed, []byte("now about zebras\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(root, "pkg0", "f00.txt"))
	memoReset()
	ix, st = load(t, root, snapshot.NewStore(state))
	if st.Chunked != 1 || st.Reused != 8 || ix.Files() != 9 {
		t.Fatalf("after a change: %+v, %d files", st, ix.Files())
	}
	hits := ix.Search("zebras", &rank.Default, 5)
	if len(hits) != 1 || hits[0].Path != "pkg1/f04.txt" {
		t.Fatalf("the changed file is not searched as changed: %v", hits)
	}
	if _, ok := ix.Lookup("pkg0/f00.txt"); ok {
		t.Error("a removed file is still indexed")
	}
	// The in-process memo serves a store without a state folder.
	_, st = load(t, root, snapshot.NewMemoryStore())
	if st.Chunked != 0 || st.Reused != 9 {
		t.Errorf("memo: %+v", st)
	}
}

// Source shows a chunk only while its file is the revision that was
// ranked.
func TestSourceVerified(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, 3)
	memoReset()
	ix, _ := load(t, root, nil)
	hits := ix.Search("topic1", &rank.Default, 1)
	if len(hits) != 1 {
		t.Fatalf("hits %v", hits)
	}
	src, err := Source(root, hits[0], input.Options{})
	if err != nil || !strings.Contains(string(src), "topic1") {
		t.Fatalf("source %q, %v", src, err)
	}
	if err := os.WriteFile(filepath.Join(root, hits[0].Path), []byte("file 1 talks about topic1!\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Source(root, hits[0], input.Options{}); !errors.Is(err, ErrChanged) {
		t.Errorf("changed file: %v", err)
	}
}

// Skip leaves files out; a corrupt cache is reported and rebuilt.
func TestSkipAndCorruptCache(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	writeTree(t, root, 6)
	memoReset()
	wo := walker.DefaultOptions()
	store := snapshot.NewStore(state)
	ix, _, err := Load(context.Background(), Options{Root: root, Walk: wo, Store: store, Skip: func(p string) bool { return strings.Contains(p, "pkg2") }})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < ix.Files(); i++ {
		if strings.Contains(ix.File(i).Path, "pkg2") {
			t.Errorf("skipped file indexed: %s", ix.File(i).Path)
		}
	}
	key := cacheKey(root, []string{root}, wo, input.Options{}, "")
	if err := store.WriteBlob(blobNamePrefix+key[:32], []byte("garbage")); err != nil {
		t.Fatal(err)
	}
	memoReset()
	ix, st, err := Load(context.Background(), Options{Root: root, Walk: wo, Store: store})
	if err != nil || st.CacheErr == nil || st.Chunked != 6 || !st.Saved || ix.Files() != 6 {
		t.Errorf("corrupt cache: %+v %v", st, err)
	}
}

// display shows walked paths relative to the root, from the working
// folder read once.
func TestDisplay(t *testing.T) {
	for _, c := range []struct{ root, cwd, p, want string }{
		{"/r", "/r", "a/b.go", "a/b.go"},
		{"/r", "/r/sub", "x.go", "sub/x.go"},
		{"/r", "/r", "../r/y.go", "y.go"},
		{"/r", "/r", "/other/z.go", "/other/z.go"},
		{"/r", "/elsewhere", "w.go", "w.go"},
		{"/r", "", "v.go", "v.go"},
		{"/r", "/r", "/r/a/b.go", "a/b.go"},
		{"/r", "/x", "/r/c.go", "c.go"},
		{"/r", "/r", "a//b.go", "a/b.go"},
		{"/r", "/r", "./d.go", "d.go"},
		{"/r", "/r", "./a/d.go", "a/d.go"},
		{"/r", "/r", "./a//d.go", "a/d.go"},
		{"/r", "/r", "./../r/y.go", "y.go"},
		{"/r", "/r/sub", "./x.go", "sub/x.go"},
		{"/r", "/r", "./.", "."},
		{"/", "/", "/e.go", "e.go"},
		{"/r", "/r", "a/./b.go", "a/b.go"},
		{"/r", "/r", "a/../b.go", "b.go"},
		{"/r", "/r", "./a/./b.go", "a/b.go"},
		{"/r", "/r", "/r/./a.go", "a.go"},
		{"/r", "/r", "/r/a/", "a"},
		{"/r", "/r", "..x/y.go", "..x/y.go"},
		{"/r", "/r", "./..x/.y", "..x/.y"},
		{"/r", "/r", "/", "/"},
		{"/r", "/r", "", "."},
		{"/r", "/r", "..", ".."},
	} {
		if got := display(c.root, c.cwd, c.p); got != c.want {
			t.Errorf("display(%q, %q, %q) = %q, want %q", c.root, c.cwd, c.p, got, c.want)
		}
	}
}

// One folder's cache serves every working folder (issue 22: a GOROOT
// indexed from GOROOT/src was built again, for half a minute, when the
// same tree was named from another folder): the second load is warm,
// shows the paths as walked and ranks as the first.
func TestCacheSharedAcrossWorkingFolders(t *testing.T) {
	tree, elsewhere, state := t.TempDir(), t.TempDir(), t.TempDir()
	writeTree(t, tree, 8)
	memoReset()
	inside, st := load(t, tree, snapshot.NewStore(state))
	if !st.Saved || st.Chunked != 8 {
		t.Fatalf("cold: %+v", st)
	}
	memoReset() // a new process, in another folder
	wo := walker.DefaultOptions()
	ix, st, err := Load(context.Background(), Options{Root: elsewhere, Roots: []string{tree}, Walk: wo, Store: snapshot.NewStore(state)})
	if err != nil || st.CacheErr != nil {
		t.Fatal(err, st.CacheErr)
	}
	if !st.Loaded || st.Chunked != 0 || st.Reused != 8 || st.Saved {
		t.Fatalf("from another folder the cache was not reused: %+v", st)
	}
	a, b := inside.Search("topic3 words", &rank.Default, 5), ix.Search("topic3 words", &rank.Default, 5)
	if len(a) == 0 || len(a) != len(b) {
		t.Fatalf("hits %v vs %v", a, b)
	}
	for i := range a {
		if b[i].Path != filepath.ToSlash(filepath.Join(tree, a[i].Path)) || b[i].Score != a[i].Score {
			t.Errorf("#%d: %+v vs %+v", i, a[i], b[i])
		}
	}
	if _, err := Source(elsewhere, b[0], input.Options{}); err != nil {
		t.Errorf("source of a hit shown from another folder: %v", err)
	}
}

// A cache is mapped and used in place, or read whole where it cannot be
// mapped: both rank alike, as the index built from the files.
func TestCacheMappedOrRead(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	writeTree(t, root, 12)
	memoReset()
	built, _ := load(t, root, snapshot.NewStore(state))
	want := built.Search("topic7 more words", &rank.Default, 5)
	defer func() { mapCache = true }()
	for _, m := range []bool{true, false} {
		mapCache = m
		memoReset()
		ix, st := load(t, root, snapshot.NewStore(state))
		if !st.Loaded || st.Chunked != 0 {
			t.Fatalf("mapped %v: %+v", m, st)
		}
		got := ix.Search("topic7 more words", &rank.Default, 5)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("mapped %v: %v, want %v", m, got, want)
		}
	}
}

// A build without a cache waits for another that holds the build lock
// and reads the cache it writes, instead of building the index again.
func TestColdBuildWaitsForAnother(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	writeTree(t, root, 6)
	memoReset()
	store := snapshot.NewStore(state)
	load(t, root, store)
	name := blobNamePrefix + cacheKey(root, []string{root}, walker.DefaultOptions(), input.Options{}, "")[:32]
	data, err := store.ReadBlob(name, rank.MaxCacheBytes)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(state, "b-"+name))
	unlock, err := store.LockBlob(context.Background(), name, time.Second) // the other build
	if err != nil {
		t.Fatal(err)
	}
	memoReset()
	done := make(chan Stats)
	go func() {
		_, st, _ := Load(context.Background(), Options{Root: root, Walk: walker.DefaultOptions(), Store: snapshot.NewStore(state)})
		done <- st
	}()
	time.Sleep(200 * time.Millisecond)
	if err := store.WriteBlob(name, data); err != nil {
		t.Fatal(err)
	}
	unlock()
	if st := <-done; !st.Loaded || st.Chunked != 0 || st.Saved {
		t.Errorf("the waiting build: %+v", st)
	}
}

// The identities checked on a warm load are the walk's own stats
// (walker.Options.StatFiles): a rewrite of the same size that moves only
// the modification time, an added file and a file replaced by a symbolic
// link are each noticed by the next load.
func TestWarmLoadNoticesChangesFromWalkStats(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	writeTree(t, root, 6)
	memoReset()
	load(t, root, snapshot.NewStore(state))
	same := filepath.Join(root, "pkg1", "f01.txt")
	old, err := os.ReadFile(same)
	if err != nil {
		t.Fatal(err)
	}
	alike := []byte(strings.Replace(string(old), "topic1", "zebras", 1))
	if err := os.WriteFile(same, alike, 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(same, later, later); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "pkg2", "new.txt"), []byte("a new file about yaks\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "pkg0", "f03.txt")
	os.Remove(link)
	if err := os.Symlink(filepath.Join(root, "pkg2", "f02.txt"), link); err != nil {
		t.Fatal(err)
	}
	memoReset()
	ix, st := load(t, root, snapshot.NewStore(state))
	// 6 files, one now a link (not walked), one added: 6 walked; the
	// rewritten and the added one are chunked again.
	if st.Files != 6 || st.Chunked != 2 || st.Reused != 4 {
		t.Fatalf("after the changes: %+v", st)
	}
	if hits := ix.Search("zebras", &rank.Default, 5); len(hits) != 1 || hits[0].Path != "pkg1/f01.txt" {
		t.Errorf("the rewritten file: %v", hits)
	}
	if hits := ix.Search("yaks", &rank.Default, 5); len(hits) != 1 || hits[0].Path != "pkg2/new.txt" {
		t.Errorf("the added file: %v", hits)
	}
	if _, ok := ix.Lookup("pkg0/f03.txt"); ok {
		t.Error("a file replaced by a link is still indexed")
	}
}

// unchanged, the warm load's check without a sort, holds only when the
// walk gave each indexed file once, unchanged.
func TestUnchanged(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	writeTree(t, root, 4)
	memoReset()
	ix, _ := load(t, root, snapshot.NewStore(state))
	var walked []walkedFile
	for i := ix.Files() - 1; i >= 0; i-- { // not in path order
		p := filepath.Join(root, filepath.FromSlash(ix.File(i).Path))
		walked = append(walked, walkedFile{path: p})
	}
	if !unchanged(ix, walked, root, root) {
		t.Fatal("the indexed files, unchanged, read as changed")
	}
	dup := append(append([]walkedFile(nil), walked[:3]...), walked[0])
	if unchanged(ix, dup, root, root) {
		t.Error("a file walked twice and one not walked read as unchanged")
	}
	if err := os.WriteFile(walked[1].path, []byte("other words\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if unchanged(ix, walked, root, root) {
		t.Error("a changed file read as unchanged")
	}
}

// Early is handed the cached index while the walk goes on: Load returns
// that same index when nothing changed, and another one when a file did.
func TestEarlyIndex(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	writeTree(t, root, 5)
	memoReset()
	load(t, root, snapshot.NewStore(state))
	loadEarly := func() (*rank.Index, *rank.Index) {
		t.Helper()
		memoReset()
		var got atomic.Pointer[rank.Index]
		ix, st, err := Load(context.Background(), Options{Root: root, Walk: walker.DefaultOptions(), Store: snapshot.NewStore(state),
			Early: func(ix *rank.Index) { got.Store(ix) }})
		if err != nil || st.CacheErr != nil {
			t.Fatal(err, st.CacheErr)
		}
		return ix, got.Load()
	}
	if ix, early := loadEarly(); early == nil || ix != early {
		t.Fatalf("unchanged: Load returned %p, Early was given %p", ix, early)
	}
	if err := os.WriteFile(filepath.Join(root, "pkg1", "f01.txt"), []byte("now about zebras\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, early := loadEarly()
	if early == nil || ix == early {
		t.Fatalf("changed: Load returned %p, Early was given %p", ix, early)
	}
	if hits := ix.Search("zebras", &rank.Default, 5); len(hits) != 1 {
		t.Errorf("the changed file: %v", hits)
	}
}
