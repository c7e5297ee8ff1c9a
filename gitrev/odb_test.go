package gitrev

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/gittest"
	"github.com/go-git/go-git/v5/plumbing"
)

// gitCmd runs git in dir and returns its output.
func gitCmd(t *testing.T, dir string, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// TestObjectsMatchGit reads every object of repositories that git packed
// (offset deltas, name deltas, deep chains, an alternate) and of loose
// objects, and compares them with git cat-file, the oracle.
func TestObjectsMatchGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git program to compare with")
	}
	dir := t.TempDir()
	gitCmd(t, dir, nil, "init", "-q", "-b", "main")
	// Many versions of a few files, so that packs hold delta chains.
	var body strings.Builder
	for i := range 60 {
		fmt.Fprintf(&body, "line %d of a file that grows %s\n", i, strings.Repeat("x", i%7))
		os.WriteFile(filepath.Join(dir, "a.txt"), []byte(body.String()), 0o644)
		os.WriteFile(filepath.Join(dir, "b.txt"), []byte(strings.Repeat(body.String(), 3)), 0o644)
		if i == 30 {
			os.WriteFile(filepath.Join(dir, "empty"), nil, 0o644)
			os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
			os.WriteFile(filepath.Join(dir, "sub", "x"), []byte(body.String()), 0o755)
		}
		gitCmd(t, dir, nil, "add", "-A")
		gitCmd(t, dir, nil, "commit", "-q", "-m", "c"+strconv.Itoa(i))
	}
	check := func(name string) {
		t.Helper()
		repo, err := Open(dir, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		defer repo.Close()
		list := gitCmd(t, dir, nil, "cat-file", "--batch-all-objects", "--batch-check=%(objectname)")
		batch := gitCmd(t, dir, list, "cat-file", "--batch")
		br := bufio.NewReader(bytes.NewReader(batch))
		n := 0
		for {
			line, err := br.ReadString('\n')
			if err == io.EOF {
				break
			}
			f := strings.Fields(line)
			size, _ := strconv.Atoi(f[2])
			want := make([]byte, size+1)
			io.ReadFull(br, want)
			want = want[:size]
			h := plumbing.NewHash(f[0])
			typ, got, err := repo.readObject(h, 1<<30)
			if err != nil || typ.String() != f[1] || !bytes.Equal(got, want) {
				t.Fatalf("%s: object %s: %v %v, %d bytes; git says %s, %d bytes", name, f[0], typ, err, len(got), f[1], size)
			}
			if sz, err := repo.odb.size(h); err != nil || sz != int64(size) {
				t.Fatalf("%s: size of %s = %d, %v; want %d", name, f[0], sz, err, size)
			}
			n++
		}
		if n < 180 {
			t.Fatalf("%s: only %d objects", name, n)
		}
		head := strings.TrimSpace(string(gitCmd(t, dir, nil, "rev-parse", "HEAD")))
		if c, err := repo.Resolve(head[:7]); err != nil || c.String() != head {
			t.Errorf("%s: abbreviated HEAD: %v %v", name, c, err)
		}
	}
	check("loose")
	gitCmd(t, dir, nil, "gc", "-q", "--aggressive")
	check("packed with offset deltas")
	// Name (REF) deltas: a pack written without offset deltas.
	objs := gitCmd(t, dir, nil, "rev-list", "--objects", "--all")
	var names bytes.Buffer
	for _, l := range strings.Split(strings.TrimSpace(string(objs)), "\n") {
		names.WriteString(strings.Fields(l)[0] + "\n")
	}
	packDir := filepath.Join(dir, ".git", "objects", "pack")
	old, _ := filepath.Glob(filepath.Join(packDir, "pack-*"))
	gitCmd(t, dir, names.Bytes(), "pack-objects", "-q", "--depth=200", "--window=50", filepath.Join(packDir, "pack"))
	for _, f := range old {
		os.Remove(f)
	}
	check("packed with name deltas")
	// The same objects through an alternate.
	other := t.TempDir()
	gitCmd(t, other, nil, "init", "-q")
	os.MkdirAll(filepath.Join(dir, ".git", "objects", "info"), 0o755)
	moved := filepath.Join(other, ".git", "objects")
	for _, f := range []string{"pack"} {
		os.RemoveAll(filepath.Join(moved, f))
		if err := os.Rename(filepath.Join(dir, ".git", "objects", f), filepath.Join(moved, f)); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, ".git", "objects", "info", "alternates"), []byte("# shared\n"+moved+"\n"), 0o644)
	check("through an alternate")
}

// TestDeltaChainBounds: a long chain of name deltas that loops back to
// its first entry is refused as a loop, one deeper than maxDeltaDepth as
// too deep, and one within it is read.
func TestDeltaChainBounds(t *testing.T) {
	blob := []byte("needle\n")
	name := func(i int) gittest.Hash { return gittest.ObjectHash("blob", []byte(strconv.Itoa(i))) }
	first, next := gittest.Delta(len(blob), []byte("needle delta\n")), gittest.Delta(13, []byte("needle delta\n"))
	zFirst, zNext := gittest.Zlib(first), gittest.Zlib(next)
	cases := []struct {
		name  string
		links int
		loop  bool
		want  string
	}{
		{"a loop of 40 name deltas", 40, true, "delta chain loops"},
		{"4096 offset deltas", maxDeltaDepth + 1, false, "more than 4095 deep"},
		{"4095 offset deltas", maxDeltaDepth, false, ""},
	}
	for _, c := range cases {
		r := gittest.New(t)
		entries := []gittest.PackEntry{gittest.Whole(gittest.PackBlob, blob)}
		names := []gittest.IndexEntry{{Name: name(0), Entry: 0}}
		for i := 1; i <= c.links; i++ {
			d, z := next, zNext
			if i == 1 {
				d, z = first, zFirst
			}
			e := gittest.PackEntry{Type: gittest.PackOFSDelta, Size: int64(len(d)), Z: z, BaseEntry: i - 1}
			if c.loop {
				e = gittest.PackEntry{Type: gittest.PackREFDelta, Size: int64(len(d)), Z: z, Base: name((i % c.links) + 1)}
			}
			entries = append(entries, e)
			names = append(names, gittest.IndexEntry{Name: name(i), Entry: i})
		}
		r.WritePack(entries, names)
		repo, err := Open(r.Dir, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		var h plumbing.Hash
		last := name(c.links)
		copy(h[:], last[:])
		_, data, err := repo.readObject(h, 1<<20)
		repo.Close()
		if c.want == "" {
			if err != nil || string(data) != "needle delta\n" {
				t.Errorf("%s: %q, %v", c.name, data, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt with %q", c.name, err, c.want)
		}
	}
}
