//go:build linux

package snapshot

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The state folder is shared between processes and lives on disk, so
// anything may be found in it. These tests put there what an attacker (or
// an accident) could: FIFOs, links to devices, oversized files, zstd
// bombs, folders others can write, a lock held forever. Each hostile
// operation runs in a child process (hostileHelper) that the test kills
// if it hangs and whose memory is capped, so that the code before these
// checks (which blocked, or read /dev/zero without end) fails the test
// instead of hanging it or exhausting the machine.

// hostileEnv, when set to a JSON hostileSpec, makes TestHostileHelper act
// as the child process.
const hostileEnv = "EVGREP_SNAPSHOT_HOSTILE"

// hangTimeout detects a hang of a child process (or of an in-process
// call); the operations under test take milliseconds, or maxLockWait.
const hangTimeout = 60 * time.Second

// childAddressSpace is how much address space a child may map beyond what
// it has at start: several times maxDecodedBytes, far less than reading
// /dev/zero without end would take.
const childAddressSpace = 2 << 30

type hostileSpec struct {
	Op    string // "resolve" or "hold" (take the lock and keep it)
	Dir   string
	Token string
}

// hostileResult is what the child reports of one Resolve.
type hostileResult struct {
	Code  Code
	Err   string
	Alloc uint64 // bytes allocated during Resolve (TotalAlloc)
	HWM   uint64 // peak RSS of the child at the end, bytes (VmHWM)
}

// TestHostileHelper is the child process of the hostile tests.
func TestHostileHelper(t *testing.T) {
	raw := os.Getenv(hostileEnv)
	if raw == "" {
		t.Skip("helper for the hostile state folder tests")
	}
	var spec hostileSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		t.Fatal(err)
	}
	switch spec.Op {
	case "hold":
		f, err := os.OpenFile(filepath.Join(spec.Dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatal(err)
		}
		fmt.Println("LOCKED")
		io.Copy(io.Discard, os.Stdin) // until the test closes stdin
	case "resolve":
		capAddressSpace(t)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, _, err := NewStore(spec.Dir).Resolve(spec.Token, "", KindMatches, "")
		runtime.ReadMemStats(&after)
		res := hostileResult{Code: CodeOf(err), Alloc: after.TotalAlloc - before.TotalAlloc, HWM: procStatus(t, "VmHWM")}
		if err != nil {
			res.Err = err.Error()
		}
		out, _ := json.Marshal(res)
		fmt.Printf("RESULT %s\n", out)
	default:
		t.Fatalf("unknown op %q", spec.Op)
	}
}

// capAddressSpace limits the child's address space to what it maps now
// plus childAddressSpace: a runaway read ends in an allocation failure.
func capAddressSpace(t *testing.T) {
	lim := procStatus(t, "VmSize") + childAddressSpace
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
		t.Fatal(err)
	}
}

// procStatus returns a "kB" field of /proc/self/status, in bytes.
func procStatus(t *testing.T, field string) uint64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return n << 10
		}
	}
	t.Fatalf("no %s in /proc/self/status", field)
	return 0
}

// childResolve resolves token in dir in a child process, failing the test
// if the child hangs (hangTimeout) or dies.
func childResolve(t *testing.T, dir, token string) hostileResult {
	t.Helper()
	spec, _ := json.Marshal(hostileSpec{Op: "resolve", Dir: dir, Token: token})
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), hostileEnv+"="+string(spec))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("child died: %v\n%.2000s", err, out.String())
		}
	case <-time.After(hangTimeout):
		cmd.Process.Kill()
		<-done
		t.Fatalf("Resolve hung for %v", hangTimeout)
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if v, ok := strings.CutPrefix(line, "RESULT "); ok {
			var res hostileResult
			if err := json.Unmarshal([]byte(v), &res); err != nil {
				t.Fatal(err)
			}
			return res
		}
	}
	t.Fatalf("child reported nothing:\n%.2000s", out.String())
	return hostileResult{}
}

// within runs fn, failing the test if it does not return within
// hangTimeout (a hang).
func within(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(hangTimeout):
		t.Fatalf("%s hung for %v", what, hangTimeout)
	}
}

// hostileFolder returns a state folder holding one snapshot with one
// matches cursor, and the paths of both files.
func hostileFolder(t *testing.T) (dir, token, snapFile, cursorFile string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "state")
	snap := mustSnapshot(t, "h", 4)
	token, err := NewStore(dir).NewCursor(snap, KindMatches, 0, PathSelection{})
	if err != nil {
		t.Fatal(err)
	}
	d := filepath.Join(dir, snapDirPrefix+snap.ID)
	return dir, token, filepath.Join(d, snapFileName), filepath.Join(d, cursorPrefix+token)
}

// replaceWithFIFO replaces path by a FIFO (which no one writes).
func replaceWithFIFO(t *testing.T, path string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// replaceWithLink replaces path by a symbolic link to target.
func replaceWithLink(t *testing.T, path, target string) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}

// moveAside moves path to a file outside the folder and links path to it:
// the link leads to a valid file, so only refusing links refuses it.
func moveAside(t *testing.T, path string) {
	t.Helper()
	aside := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.Rename(path, aside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(aside, path); err != nil {
		t.Fatal(err)
	}
}

// sparse replaces path by a sparse file of size bytes.
func sparse(t *testing.T, path string, size int64) {
	t.Helper()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
}

// TestHostileStateFiles replaces the files of a valid state folder: each
// replacement makes the cursor unavailable at once (never a hang, never
// unbounded memory), and leaves no lock held that would block another
// process.
func TestHostileStateFiles(t *testing.T) {
	if os.Getenv(hostileEnv) != "" {
		t.Skip("inside a helper")
	}
	const smallAlloc = 8 << 20 // what refusing a file may allocate at most
	tests := []struct {
		name  string
		setup func(t *testing.T, dir, snapFile, cursorFile string)
	}{
		{"cursor is a FIFO", func(t *testing.T, _, _, c string) { replaceWithFIFO(t, c) }},
		{"cursor links to /dev/zero", func(t *testing.T, _, _, c string) { replaceWithLink(t, c, "/dev/zero") }},
		{"cursor links to a valid cursor", func(t *testing.T, _, _, c string) { moveAside(t, c) }},
		{"cursor oversized", func(t *testing.T, _, _, c string) { sparse(t, c, 64<<20) }},
		{"cursor owned by another user", func(t *testing.T, _, _, c string) { chown(t, c) }},
		{"snapshot is a FIFO", func(t *testing.T, _, s, _ string) { replaceWithFIFO(t, s) }},
		{"snapshot links to /dev/zero", func(t *testing.T, _, s, _ string) { replaceWithLink(t, s, "/dev/zero") }},
		{"snapshot links to a valid snapshot", func(t *testing.T, _, s, _ string) { moveAside(t, s) }},
		{"snapshot oversized", func(t *testing.T, _, s, _ string) { sparse(t, s, maxSnapshotFileBytes+1) }},
		{"snapshot owned by another user", func(t *testing.T, _, s, _ string) { chown(t, s) }},
		{"snapshot folder owned by another user", func(t *testing.T, _, s, _ string) { chown(t, filepath.Dir(s)) }},
		{"snapshot folder writable by all", func(t *testing.T, _, s, _ string) { chmod(t, filepath.Dir(s), 0o777) }},
		{"lock links to /dev/zero", func(t *testing.T, dir, _, _ string) {
			replaceWithLink(t, filepath.Join(dir, lockName), "/dev/zero")
		}},
		{"lock is a FIFO", func(t *testing.T, dir, _, _ string) { replaceWithFIFO(t, filepath.Join(dir, lockName)) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, tok, snapFile, cursorFile := hostileFolder(t)
			tc.setup(t, dir, snapFile, cursorFile)
			res := childResolve(t, dir, tok)
			if res.Code != CodeUnavailable {
				t.Fatalf("Resolve: %s (%s), want %s", res.Code, res.Err, CodeUnavailable)
			}
			if res.Alloc > smallAlloc {
				t.Errorf("refusing the file allocated %d bytes", res.Alloc)
			}
			t.Logf("%s; %d bytes allocated", res.Err, res.Alloc)
			// Nothing is left locked: another process stores and evicts.
			within(t, "Put after the refusal", func() {
				err := NewStore(dir).Put(mustSnapshot(t, "h2", 2))
				if strings.HasPrefix(tc.name, "lock") {
					wantCode(t, "Put beside a hostile lock", err, CodeUnavailable)
				} else if err != nil {
					t.Errorf("Put after the refusal: %v", err)
				}
			})
		})
	}
}

func chown(t *testing.T, path string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file to another user")
	}
	if err := os.Lchown(path, 65534, 65534); err != nil {
		t.Fatal(err)
	}
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestHostileStateFolder makes the state folder itself unsafe: it is
// refused (every operation fails with CodeUnavailable, nothing is written
// into it) while the search result stays whole, and the sticky /tmp-like
// case is accepted.
func TestHostileStateFolder(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
		// setup makes the folder (or a folder above it) hostile; state is
		// the path the Store is given.
		setup func(t *testing.T, base, state string) string
	}{
		{"writable by all", false, func(t *testing.T, _, state string) string { chmod(t, state, 0o777); return state }},
		{"writable by the group", false, func(t *testing.T, _, state string) string { chmod(t, state, 0o770); return state }},
		{"owned by another user", false, func(t *testing.T, _, state string) string { chown(t, state); return state }},
		{"a symbolic link to a good folder", false, func(t *testing.T, base, state string) string {
			link := filepath.Join(base, "link")
			if err := os.Symlink(state, link); err != nil {
				t.Fatal(err)
			}
			return link
		}},
		{"inside a folder of another user", false, func(t *testing.T, base, state string) string {
			chown(t, filepath.Dir(state))
			return state
		}},
		{"inside a folder writable by all", false, func(t *testing.T, base, state string) string {
			chmod(t, filepath.Dir(state), 0o777)
			return state
		}},
		{"inside a sticky folder writable by all (as /tmp)", true, func(t *testing.T, base, state string) string {
			chmod(t, filepath.Dir(state), 0o777|os.ModeSticky)
			return state
		}},
		{"readable by all (tightened)", true, func(t *testing.T, _, state string) string { chmod(t, state, 0o755); return state }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			state := filepath.Join(base, "parent", "state")
			if err := os.MkdirAll(state, 0o700); err != nil {
				t.Fatal(err)
			}
			chmod(t, filepath.Dir(state), 0o755)
			// A cursor made while the folder was good.
			old := mustSnapshot(t, "old", 3)
			oldTok, err := NewStore(state).NewCursor(old, KindMatches, 0, PathSelection{})
			if err != nil {
				t.Fatal(err)
			}
			dir := tc.setup(t, base, state)
			st := NewStore(dir)
			snap := mustSnapshot(t, "f", 3)
			putErr := st.Put(snap)
			_, curErr := st.NewCursor(snap, KindMatches, 0, PathSelection{})
			_, _, resErr := NewStore(dir).Resolve(oldTok, "", KindMatches, "")
			if tc.ok {
				for _, err := range []error{putErr, curErr, resErr} {
					if err != nil {
						t.Fatalf("refused: %v", err)
					}
				}
				return
			}
			wantCode(t, "Put", putErr, CodeUnavailable)
			wantCode(t, "NewCursor", curErr, CodeUnavailable)
			wantCode(t, "Resolve", resErr, CodeUnavailable)
			t.Log(resErr)
			// The search itself still answers in full.
			if lines, _, _ := snap.MatchesPage(PathSelection{}, 0, 5, MaxResponseBytes, nil); len(lines) != 5 {
				t.Fatalf("page of %d lines", len(lines))
			}
			// Nothing was written into the refused folder.
			if _, err := os.Lstat(filepath.Join(state, snapDirPrefix+snap.ID)); !os.IsNotExist(err) {
				t.Errorf("the refused folder took the snapshot: %v", err)
			}
		})
	}
}

// TestLockHeldByAnotherProcess: a process that holds the state folder's
// lock forever makes the others give up after maxLockWait (cursor
// unavailable) instead of waiting with it; once released, all works.
func TestLockHeldByAnotherProcess(t *testing.T) {
	if os.Getenv(hostileEnv) != "" {
		t.Skip("inside a helper")
	}
	dir, tok, _, _ := hostileFolder(t)
	spec, _ := json.Marshal(hostileSpec{Op: "hold", Dir: dir})
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), hostileEnv+"="+string(spec))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "LOCKED\n" {
		t.Fatalf("holder: %q, %v", line, err)
	}
	within(t, "Resolve under a held lock", func() {
		_, _, err := NewStore(dir).Resolve(tok, "", KindMatches, "")
		wantCode(t, "Resolve", err, CodeUnavailable)
		t.Log(err)
	})
	within(t, "Put under a held lock", func() {
		wantCode(t, "Put", NewStore(dir).Put(mustSnapshot(t, "l", 2)), CodeUnavailable)
	})
	stdin.Close()
	cmd.Wait()
	within(t, "Resolve after the release", func() {
		if _, _, err := NewStore(dir).Resolve(tok, "", KindMatches, ""); err != nil {
			t.Errorf("after the release: %v", err)
		}
	})
}

// zstdFrame returns a zstd frame without checksum whose content is prefix
// (one raw block) followed by n bytes of fill (RLE blocks, four bytes per
// 128 KiB): a file of a few KiB that expands to any size. fcs < 0 leaves
// the content size out; single makes the frame one segment (its window is
// its content size), else its window is 1<<windowLog.
func zstdFrame(fcs int64, single bool, windowLog uint, prefix []byte, fill byte, n int64) []byte {
	b := []byte{0x28, 0xb5, 0x2f, 0xfd}
	var fhd byte
	if fcs >= 0 {
		fhd |= 3 << 6 // eight bytes of content size
	}
	if single {
		fhd |= 1 << 5
	}
	b = append(b, fhd)
	if !single {
		b = append(b, byte(windowLog-10)<<3)
	}
	if fcs >= 0 {
		b = binary.LittleEndian.AppendUint64(b, uint64(fcs))
	}
	block := func(typ byte, size int, last bool) {
		h := uint32(size)<<3 | uint32(typ)<<1
		if last {
			h |= 1
		}
		b = append(b, byte(h), byte(h>>8), byte(h>>16))
	}
	block(0, len(prefix), n == 0)
	b = append(b, prefix...)
	const maxBlock = 128 << 10
	for n > 0 {
		size := min(n, maxBlock)
		n -= size
		block(1, int(size), n == 0)
		b = append(b, fill)
	}
	return b
}

// bombPrefix is a valid start of a snapshot payload up to the file count,
// which is nf.
func bombPrefix(nf int) []byte {
	w := &writer{}
	w.buf = append(w.buf, fileMagic...)
	w.buf = append(w.buf, fileVersion)
	w.str(newToken())
	w.str("/root")
	w.varint(0)
	w.uvarint(0)
	w.uvarint(0) // options
	w.uvarint(0) // searched
	w.uvarint(uint64(nf))
	return w.buf
}

// TestZstdBomb stores small snapshot files that expand without bound:
// resolving them fails with CodeUnavailable and allocates at most 1.2 times
// maxDecodedBytes (plus a small allowance for the decoder's window and
// buffers), measured in the child (TotalAlloc during Resolve, and its
// peak RSS).
func TestZstdBomb(t *testing.T) {
	if os.Getenv(hostileEnv) != "" {
		t.Skip("inside a helper")
	}
	const (
		gib       = 1 << 30
		window    = 22 // 4 MiB, the largest accepted
		allowance = 16 << 20
		bound     = maxDecodedBytes*12/10 + allowance
		// near is a declared size just within the decode budget.
		near = maxDecodedBytes - 1<<20
	)
	// A valid payload prefix claiming as many (all-zero) files as the
	// rest of a near-budget payload can hold, 17 bytes each.
	manyFiles := bombPrefix((near - 64) / 17)
	tests := []struct {
		name string
		file []byte
	}{
		{"1 GiB, no declared size", zstdFrame(-1, false, window, nil, 0, gib)},
		{"1 GiB, declared 1 KiB", zstdFrame(1<<10, false, window, nil, 0, gib)},
		{"1 GiB, declared near the budget", zstdFrame(near, false, window, nil, 0, gib)},
		{"1 GiB, declared 1 GiB", zstdFrame(gib, false, window, nil, 0, gib)},
		{"one segment of 100 MiB", zstdFrame(100<<20, true, 0, nil, 'a', 100<<20)},
		{"near the budget, millions of files", zstdFrame(near, false, window, manyFiles, 0, near-int64(len(manyFiles)))},
		{"1 GiB window", zstdFrame(-1, false, 30, nil, 0, gib)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir, tok, snapFile, _ := hostileFolder(t)
			if err := os.WriteFile(snapFile, tc.file, 0o600); err != nil {
				t.Fatal(err)
			}
			res := childResolve(t, dir, tok)
			t.Logf("%d-byte file: %s; %d bytes allocated (bound %d), peak RSS %d", len(tc.file), res.Err, res.Alloc, bound, res.HWM)
			if res.Code != CodeUnavailable {
				t.Fatalf("Resolve: %s (%s), want %s", res.Code, res.Err, CodeUnavailable)
			}
			if res.Alloc > bound {
				t.Errorf("decoding allocated %d bytes, more than %d", res.Alloc, bound)
			}
			if res.HWM > bound {
				t.Errorf("peak RSS %d bytes, more than %d", res.HWM, bound)
			}
		})
	}
}
