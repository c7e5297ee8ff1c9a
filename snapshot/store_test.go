package snapshot

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// clock is a settable time source for a Store.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func storeWithClock(dir string, c *clock) *Store {
	s := NewStore(dir)
	s.now = c.now
	return s
}

// stores returns a memory store and a persistent one on a fresh folder,
// sharing one clock.
func stores(t *testing.T) (map[string]*Store, *clock) {
	c := &clock{t: time.Now()}
	return map[string]*Store{
		"memory": storeWithClock("", c),
		"disk":   storeWithClock(filepath.Join(t.TempDir(), "state"), c),
	}, c
}

func wantCode(t *testing.T, what string, err error, code Code) {
	t.Helper()
	if CodeOf(err) != code {
		t.Fatalf("%s: error %v, want %s", what, err, code)
	}
	var e *Error
	if !errors.As(err, &e) || !strings.HasPrefix(e.Error(), string(code)+": ") {
		t.Fatalf("%s: error text %q", what, err)
	}
}

// TestCursorWalk pages through a snapshot only by following cursors, as an
// agent does, each page resolved by a new Store on the same folder (a new
// process): every line is seen exactly once, in order.
func TestCursorWalk(t *testing.T) {
	for name := range map[string]bool{"memory": true, "disk": true} {
		for _, limit := range []int{1, 7, 100} {
			t.Run(fmt.Sprintf("%s/limit=%d", name, limit), func(t *testing.T) {
				dir := ""
				if name == "disk" {
					dir = t.TempDir()
				}
				open := func(s *Store) *Store {
					if dir == "" {
						return s
					}
					return NewStore(dir)
				}
				st := NewStore(dir)
				snap := mustSnapshot(t, "walk", 60)
				root, fp := snap.Meta.Root, snap.Meta.Fingerprint()
				for _, sel := range []PathSelection{{}, SelectPaths("walk/d1")} {
					want := expectedLines(snap, sel)
					tok, err := st.NewCursor(snap, KindMatches, 0, sel)
					if err != nil {
						t.Fatal(err)
					}
					var got []int
					for pages := 0; tok != ""; pages++ {
						if pages > len(want) {
							t.Fatal("no progress")
						}
						st = open(st)
						s2, c, err := st.Resolve(tok, root, KindMatches, fp)
						if err != nil {
							t.Fatal(err)
						}
						if !c.Selection.Equal(sel) || c.Kind != KindMatches || c.Token != tok {
							t.Fatalf("cursor %+v", c)
						}
						lines, next, done := s2.MatchesPage(c.Selection, c.Offset, limit, MaxResponseBytes, nil)
						for _, l := range lines {
							got = append(got, l.Match)
						}
						tok = ""
						if !done {
							if tok, err = st.NewCursor(s2, KindMatches, next, c.Selection); err != nil {
								t.Fatal(err)
							}
						}
					}
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("walked %v, want %v", got, want)
					}
				}
				// Summary pages likewise.
				tok, err := st.NewCursor(snap, KindSummary, 0, SelectPaths("ignored"))
				if err != nil {
					t.Fatal(err)
				}
				var files []string
				for tok != "" {
					st = open(st)
					s2, c, err := st.Resolve(tok, root, KindSummary, fp)
					if err != nil {
						t.Fatal(err)
					}
					if !c.Selection.All() {
						t.Fatalf("summary cursor with a selection %v", c.Selection)
					}
					page, next, done := s2.SummaryPage(c.Offset, limit)
					for _, f := range page {
						files = append(files, f.Path)
					}
					tok = ""
					if !done {
						if tok, err = st.NewCursor(s2, KindSummary, next, PathSelection{}); err != nil {
							t.Fatal(err)
						}
					}
				}
				var want []string
				for _, f := range snap.Files() {
					want = append(want, f.Path)
				}
				if fmt.Sprint(files) != fmt.Sprint(want) {
					t.Fatalf("summary walked %v, want %v", files, want)
				}
			})
		}
	}
}

func TestPersistenceRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	a := NewStore(dir)
	b := newBuilder(100, 1<<30)
	build(b, corpus("rt", 50), 9, testMeta("/root/rt"))
	// A long, clipped line, invalid UTF-8 and empty text survive too.
	b.AddLine("rt/a-long", 3, bytes.Repeat([]byte("xé\xff"), 5000), []Range{{Start: 7000, End: 7003, StartUTF16: 4000, EndUTF16: 4002}})
	b.AddLine("rt/a-empty", 1, nil, nil)
	snap := b.Build(testMeta("/root/rt"))
	if !snap.Totals.Partial {
		t.Fatal("want a partial snapshot")
	}
	if l, _ := snap.Line(2); !l.Clipped() {
		t.Fatal("want a clipped line")
	}
	if err := a.Put(snap); err != nil {
		t.Fatal(err)
	}
	tok, err := a.NewCursor(snap, KindMatches, 3, SelectPaths("rt/d0"))
	if err != nil {
		t.Fatal(err)
	}
	got, c, err := NewStore(dir).Resolve(tok, "/root/rt/", KindMatches, "")
	if err != nil {
		t.Fatal(err)
	}
	if got == snap {
		t.Fatal("resolved from memory, not from the folder")
	}
	sameSnapshot(t, got, snap)
	if c.Offset != 3 || !c.Selection.Equal(SelectPaths("rt/d0")) || c.Snapshot != snap.ID || c.Root != "/root/rt" || c.Fingerprint != snap.Meta.Fingerprint() {
		t.Fatalf("cursor %+v", c)
	}
	// Folder and files are private.
	for _, p := range []string{dir, filepath.Join(dir, snapDirPrefix+snap.ID)} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: mode %v, %v", p, fi.Mode(), err)
		}
	}
	for _, name := range []string{snapFileName, cursorPrefix + tok} {
		if fi, err := os.Stat(filepath.Join(dir, snapDirPrefix+snap.ID, name)); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, %v", name, fi.Mode(), err)
		}
	}
}

func TestStateDirTightened(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := NewStore(dir).Put(mustSnapshot(t, "m", 2)); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v, want 0700", fi.Mode().Perm())
	}
}

func TestDefaultStateDir(t *testing.T) {
	tmp := t.TempDir()
	perUser := filepath.Join(tmp, fmt.Sprintf("evgrep-%d", os.Geteuid()))
	tests := []struct {
		name, state, xdg, home, want string
	}{
		{"set", "/tmp/evgrep-state-x", "/tmp/cache-x", "/tmp/home-x", "/tmp/evgrep-state-x"},
		{"cache dir", "", "/tmp/cache-x", "/tmp/home-x", "/tmp/cache-x/evgrep"},
		{"home", "", "", "/tmp/home-x", "/tmp/home-x/.cache/evgrep"},
		// Without a usable HOME, a folder of this user, never one shared
		// by all (as /tmp/evgrep-state was).
		{"no home", "", "", "", perUser},
		{"relative home", "", "", "home-x", perUser},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(StateDirEnv, tc.state)
			t.Setenv("XDG_CACHE_HOME", tc.xdg)
			t.Setenv("HOME", tc.home)
			t.Setenv("TMPDIR", tmp)
			if d := DefaultStateDir(); d != tc.want {
				t.Errorf("%q, want %q", d, tc.want)
			}
		})
	}
	// The per-user folder is made private and checked like any other.
	t.Setenv(StateDirEnv, "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	t.Setenv("TMPDIR", tmp)
	if err := NewStore(DefaultStateDir()).Put(mustSnapshot(t, "pu", 2)); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(perUser); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("%s: %v, %v", perUser, fi.Mode(), err)
	}
	if err := os.Chmod(perUser, 0o777); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "world-writable per-user folder", NewStore(DefaultStateDir()).Put(mustSnapshot(t, "pu", 2)), CodeUnavailable)
}

// TestCursorErrors produces every error code through the public API.
func TestCursorErrors(t *testing.T) {
	for name := range map[string]bool{"memory": true, "disk": true} {
		t.Run(name, func(t *testing.T) {
			ss, clk := stores(t)
			st := ss[name]
			snap := mustSnapshot(t, "e", 10)
			root, fp := snap.Meta.Root, snap.Meta.Fingerprint()
			mtok, err := st.NewCursor(snap, KindMatches, 2, PathSelection{})
			if err != nil {
				t.Fatal(err)
			}
			stok, err := st.NewCursor(snap, KindSummary, 1, PathSelection{})
			if err != nil {
				t.Fatal(err)
			}
			for _, tok := range []string{"", "abc", strings.Repeat("g", 32), strings.ToUpper(mtok), mtok + "0", mtok[:31], " " + mtok[1:], "../../../etc/passwd", mtok[:16] + "/" + mtok[17:]} {
				_, _, err := st.Resolve(tok, root, KindMatches, fp)
				wantCode(t, fmt.Sprintf("token %q", tok), err, CodeMalformed)
			}
			_, _, err = st.Resolve(newToken(), root, KindMatches, fp)
			wantCode(t, "forged token", err, CodeNotFound)
			_, _, err = st.Resolve(stok, root, KindMatches, fp)
			wantCode(t, "summary cursor for matches", err, CodeWrongKind)
			_, _, err = st.Resolve(mtok, root, KindSummary, fp)
			wantCode(t, "matches cursor for a summary", err, CodeWrongKind)
			_, _, err = st.Resolve(mtok, "/elsewhere", KindMatches, fp)
			wantCode(t, "other root", err, CodeOptionsConflict)
			_, _, err = st.Resolve(mtok, root, KindMatches, Fingerprint(map[string]string{"pattern": "other"}))
			wantCode(t, "other options", err, CodeOptionsConflict)
			if _, c, err := st.Resolve(mtok, "", "", ""); err != nil || c.Offset != 2 {
				t.Fatalf("unchecked resolve: %+v, %v", c, err)
			}
			_, err = st.NewCursor(snap, KindMatches, len(snap.lines)+1, PathSelection{})
			wantCode(t, "NewCursor past the end", err, CodeOffsetInvalid)
			_, err = st.NewCursor(snap, KindSummary, -1, PathSelection{})
			wantCode(t, "NewCursor before the start", err, CodeOffsetInvalid)
			_, err = st.NewCursor(snap, KindMatches, 20, SelectPaths("e/d1/f001.go"))
			wantCode(t, "NewCursor past the selection", err, CodeOffsetInvalid)
			_, err = st.NewCursor(snap, Kind("bogus"), 0, PathSelection{})
			wantCode(t, "NewCursor of an unknown kind", err, CodeWrongKind)
			// A cursor at the very end is valid: an empty, done page.
			if tok, err := st.NewCursor(snap, KindMatches, len(snap.lines), PathSelection{}); err != nil {
				t.Fatal(err)
			} else if _, c, err := st.Resolve(tok, root, KindMatches, fp); err != nil || c.Offset != len(snap.lines) {
				t.Fatalf("end cursor: %+v, %v", c, err)
			}

			// Idle expiry: just within it the cursor works (and is
			// refreshed), beyond it the cursor has expired.
			clk.t = clk.t.Add(IdleExpiry)
			if _, _, err := st.Resolve(mtok, root, KindMatches, fp); err != nil {
				t.Fatalf("within the idle expiry: %v", err)
			}
			clk.t = clk.t.Add(IdleExpiry + time.Second)
			_, _, err = st.Resolve(mtok, root, KindMatches, fp)
			wantCode(t, "idle cursor", err, CodeExpired)
		})
	}
}

func TestOffsetInvalidOnResolve(t *testing.T) {
	// Memory: a cursor whose offset no longer fits (as a damaged record).
	st := NewMemoryStore()
	snap := mustSnapshot(t, "oi", 5)
	tok, err := st.NewCursor(snap, KindMatches, 1, PathSelection{})
	if err != nil {
		t.Fatal(err)
	}
	c := st.cursors[tok]
	c.Offset = len(snap.lines) + 5
	st.cursors[tok] = c
	_, _, err = st.Resolve(tok, "", KindMatches, "")
	wantCode(t, "memory", err, CodeOffsetInvalid)

	// Disk: an edited cursor record.
	dir := t.TempDir()
	tok, err = NewStore(dir).NewCursor(snap, KindSummary, 0, PathSelection{})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, snapDirPrefix+snap.ID, cursorPrefix+tok)
	rec, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range []string{"-1", "999"} {
		edited := strings.Replace(string(rec), `"offset":0`, `"offset":`+off, 1)
		if err := os.WriteFile(p, []byte(edited), 0o600); err != nil {
			t.Fatal(err)
		}
		_, _, err = NewStore(dir).Resolve(tok, "", KindSummary, "")
		wantCode(t, "disk offset "+off, err, CodeOffsetInvalid)
	}
}

func TestEviction(t *testing.T) {
	for name := range map[string]bool{"memory": true, "disk": true} {
		t.Run(name, func(t *testing.T) {
			ss, clk := stores(t)
			st := ss[name]
			reopen := func() *Store {
				if st.dir == "" {
					return st
				}
				return storeWithClock(st.dir, clk)
			}
			var toks []string
			var snaps []*Snapshot
			bound := slotsOf(st)
			for i := 0; i < bound+5; i++ {
				clk.t = clk.t.Add(time.Second)
				snap := mustSnapshot(t, fmt.Sprintf("ev%d", i), 3)
				tok, err := st.NewCursor(snap, KindSummary, 0, PathSelection{})
				if err != nil {
					t.Fatal(err)
				}
				toks, snaps = append(toks, tok), append(snaps, snap)
				if i == 10 {
					// Snapshot 0 is used again: it is more recent than
					// 1..10 and outlives 1..5.
					clk.t = clk.t.Add(time.Second)
					if _, _, err := reopen().Resolve(toks[0], "", KindSummary, ""); err != nil {
						t.Fatal(err)
					}
				}
			}
			for i, tok := range toks {
				_, _, err := reopen().Resolve(tok, snaps[i].Meta.Root, KindSummary, "")
				evicted := i >= 1 && i <= 5
				if evicted {
					wantCode(t, fmt.Sprintf("snapshot %d", i), err, CodeExpired)
				} else if err != nil {
					t.Fatalf("snapshot %d: %v", i, err)
				}
			}
			if st.dir != "" {
				live, tombs := countDirs(t, st.dir)
				if live != bound || tombs != 5 {
					t.Errorf("%d live, %d tombstones in the folder", live, tombs)
				}
			}
			// A snapshot written again is alive again.
			if _, err := st.NewCursor(snaps[1], KindSummary, 0, PathSelection{}); err != nil {
				t.Fatal(err)
			}
			if _, _, err := reopen().Resolve(toks[1], "", KindSummary, ""); err != nil {
				t.Fatalf("rewritten snapshot: %v", err)
			}
			// Tombstones are forgotten after their TTL: then not found.
			clk.t = clk.t.Add(TombstoneTTL + IdleExpiry + time.Minute)
			if err := st.Put(mustSnapshot(t, "late", 1)); err != nil {
				t.Fatal(err)
			}
			_, _, err := reopen().Resolve(toks[2], "", KindSummary, "")
			wantCode(t, "long forgotten", err, CodeNotFound)
		})
	}
}

func countDirs(t *testing.T, dir string) (live, tombs int) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), snapDirPrefix) {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), snapFileName)); err == nil {
			live++
		} else if _, err := os.Stat(filepath.Join(dir, e.Name(), expiredName)); err == nil {
			tombs++
		} else {
			t.Errorf("%s: neither live nor a tombstone", e.Name())
		}
	}
	return live, tombs
}

func TestDiskIdleExpiryAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	snap := mustSnapshot(t, "idle", 3)
	tok, err := NewStore(dir).NewCursor(snap, KindMatches, 0, PathSelection{})
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-IdleExpiry - time.Minute)
	if err := os.Chtimes(filepath.Join(dir, snapDirPrefix+snap.ID, snapFileName), old, old); err != nil {
		t.Fatal(err)
	}
	_, _, err = NewStore(dir).Resolve(tok, "", KindMatches, "")
	wantCode(t, "snapshot idle on disk", err, CodeExpired)
}

func TestCorruptFolder(t *testing.T) {
	snap0 := mustSnapshot(t, "cf", 4)
	valid, err := encodeSnapshot(func() *Snapshot { s := *snap0; s.ID = newToken(); return &s }())
	if err != nil {
		t.Fatal(err)
	}
	raw := decompress(t, valid)
	tests := []struct {
		name    string
		file    string // snapshot or cursor
		content func(id string, old []byte) []byte
	}{
		{"garbage", snapFileName, func(string, []byte) []byte { return []byte("not zstd at all") }},
		{"empty", snapFileName, func(string, []byte) []byte { return nil }},
		{"truncated", snapFileName, func(_ string, old []byte) []byte { return old[:len(old)/2] }},
		{"bit flip", snapFileName, func(_ string, old []byte) []byte {
			b := append([]byte(nil), old...)
			b[len(b)/2] ^= 0x40
			return b
		}},
		{"valid zstd, bad payload", snapFileName, func(string, []byte) []byte { return compress(t, []byte("EVGSNAP\x01junk")) }},
		{"another snapshot's file", snapFileName, func(string, []byte) []byte { return valid }},
		{"decodable but truncated payload", snapFileName, func(string, []byte) []byte { return compress(t, raw[:len(raw)-5]) }},
		{"cursor not JSON", cursorPrefix, func(string, []byte) []byte { return []byte("{{{") }},
		{"cursor of another kind", cursorPrefix, func(_ string, old []byte) []byte {
			return []byte(strings.Replace(string(old), `"kind":"matches"`, `"kind":"sideways"`, 1))
		}},
		{"cursor names another token", cursorPrefix, func(_ string, old []byte) []byte {
			var tok string
			fmt.Sscanf(string(old[strings.Index(string(old), `"token":"`)+9:]), "%32s", &tok)
			return []byte(strings.Replace(string(old), tok, newToken(), 1))
		}},
		{"cursor of another root", cursorPrefix, func(_ string, old []byte) []byte {
			return []byte(strings.Replace(string(old), `"root":"/root/cf"`, `"root":"/x"`, 1))
		}},
		{"cursor with a page limit out of bounds", cursorPrefix, func(_ string, old []byte) []byte {
			return []byte(strings.Replace(string(old), `"offset":0`, `"offset":0,"limit":1000`, 1))
		}},
		{"cursor with a negative context", cursorPrefix, func(_ string, old []byte) []byte {
			return []byte(strings.Replace(string(old), `"offset":0`, `"offset":0,"context":-1`, 1))
		}},
		{"snapshot is a directory", snapFileName, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			snap := mustSnapshot(t, "cf", 4)
			tok, err := NewStore(dir).NewCursor(snap, KindMatches, 0, PathSelection{})
			if err != nil {
				t.Fatal(err)
			}
			name := tc.file
			if name == cursorPrefix {
				name += tok
			}
			p := filepath.Join(dir, snapDirPrefix+snap.ID, name)
			if tc.content == nil {
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				if err := os.Mkdir(p, 0o700); err != nil {
					t.Fatal(err)
				}
			} else {
				old, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, tc.content(snap.ID, old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			_, _, err = NewStore(dir).Resolve(tok, "", KindMatches, "")
			wantCode(t, "resolve", err, CodeUnavailable)
			// The folder still takes new searches and serves them.
			st := NewStore(dir)
			snap2 := mustSnapshot(t, "cf2", 2)
			tok2, err := st.NewCursor(snap2, KindMatches, 0, PathSelection{})
			if err != nil {
				t.Fatalf("new cursor in a folder with a corrupt file: %v", err)
			}
			if _, _, err := NewStore(dir).Resolve(tok2, "", KindMatches, ""); err != nil {
				t.Fatalf("resolve beside a corrupt file: %v", err)
			}
		})
	}
}

func TestUnwritableFolder(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{
		"under a file": filepath.Join(file, "state"),
		"is a file":    file,
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(base, "ro")
		if err := os.Mkdir(ro, 0o500); err != nil {
			t.Fatal(err)
		}
		dirs["read-only"] = filepath.Join(ro, "state")
	}
	for name, dir := range dirs {
		t.Run(name, func(t *testing.T) {
			st := NewStore(dir)
			snap := mustSnapshot(t, "uw", 3)
			err := st.Put(snap)
			wantCode(t, "Put", err, CodeUnavailable)
			// The result itself is intact and pageable.
			if snap.ID == "" || snap.Totals.Lines == 0 {
				t.Fatalf("snapshot damaged: %+v", snap.Totals)
			}
			if lines, _, _ := snap.MatchesPage(PathSelection{}, 0, 5, MaxResponseBytes, nil); len(lines) != 5 {
				t.Fatalf("page of %d lines", len(lines))
			}
			_, err = st.NewCursor(snap, KindMatches, 0, PathSelection{})
			wantCode(t, "NewCursor", err, CodeUnavailable)
			_, _, err = st.Resolve(newToken(), "", KindMatches, "")
			if c := CodeOf(err); c != CodeNotFound && c != CodeUnavailable {
				t.Fatalf("Resolve: %v", err)
			}
		})
	}
}

func TestMissingFolderResolve(t *testing.T) {
	st := NewStore(filepath.Join(t.TempDir(), "never-made"))
	_, _, err := st.Resolve(newToken(), "", KindMatches, "")
	wantCode(t, "no folder", err, CodeNotFound)
}

func TestNilSnapshot(t *testing.T) {
	st := NewMemoryStore()
	wantCode(t, "Put(nil)", st.Put(nil), CodeUnavailable)
	_, err := st.NewCursor(nil, KindMatches, 0, PathSelection{})
	wantCode(t, "NewCursor(nil)", err, CodeUnavailable)
}

func TestCrashLeftovers(t *testing.T) {
	dir := t.TempDir()
	st := NewStore(dir)
	if err := st.Put(mustSnapshot(t, "cl", 2)); err != nil {
		t.Fatal(err)
	}
	// What a crashed writer leaves: a temporary file and a snapshot
	// directory without its snapshot.
	stray := filepath.Join(dir, tmpPrefix+"123")
	half := filepath.Join(dir, snapDirPrefix+newToken())
	if err := os.WriteFile(stray, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(half, 0o700); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "unrelated")
	if err := os.WriteFile(other, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := st.Put(mustSnapshot(t, "cl2", 2)); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{stray, half} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left behind", p)
		}
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("unrelated file removed: %v", err)
	}
}
