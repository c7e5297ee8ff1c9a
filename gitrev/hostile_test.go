package gitrev_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evgrep/evgrep/gitrev"
	"github.com/evgrep/evgrep/internal/gittest"
	"github.com/evgrep/evgrep/walker"
)

// hostileEnv carries a hostileSpec to the child process.
const hostileEnv = "EVGREP_GITREV_HOSTILE"

const (
	// childHeadroom is the address space the child may add to what it has
	// when it starts: a read that inflates a bomb ends in an allocation
	// failure instead of taking the machine's memory.
	childHeadroom = 256 << 20
	// childPeakRSS is the most resident memory the child may reach.
	childPeakRSS = 128 << 20
	// childTimeout ends a child that hangs.
	childTimeout = 60 * time.Second
)

// hostileSpec is what the child reads.
type hostileSpec struct {
	Dir         string
	Changed     bool // Changes.Lines of the working files, not a walk
	Paths       []string
	MaxFiles    int
	MaxInflated int64
}

// TestHostileHelper is the child process of TestHostileRepos: it reads
// the commit HEAD of a repository the way a search does and prints one
// line per path: "path: ok N" or "path: error", and "walk: error" for
// errors of the walk.
func TestHostileHelper(t *testing.T) {
	raw := os.Getenv(hostileEnv)
	if raw == "" {
		t.Skip("the child of TestHostileRepos")
	}
	var spec hostileSpec
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		t.Fatal(err)
	}
	gittest.LimitAddressSpace(t, childHeadroom)
	l := gitrev.DefaultLimits()
	if spec.MaxFiles > 0 {
		l.MaxFiles = spec.MaxFiles
	}
	if spec.MaxInflated > 0 {
		l.MaxInflated = spec.MaxInflated
	}
	repo, err := gitrev.Open(spec.Dir, l)
	if err != nil {
		t.Fatal(err)
	}
	defer repo.Close()
	c, err := repo.Resolve("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	say := func(path string, n int, err error) {
		if err != nil {
			fmt.Printf("%s: %v\n", path, err)
		} else {
			fmt.Printf("%s: ok %d\n", path, n)
		}
	}
	if spec.Changed {
		ch := repo.Changes(c)
		for _, p := range spec.Paths {
			data, _ := os.ReadFile(filepath.Join(spec.Dir, p))
			lines, _, err := ch.Lines(filepath.Join(spec.Dir, p), data, '\n')
			say(p, len(lines), err)
		}
		return
	}
	tree := repo.Tree(c)
	opts := walker.DefaultOptions()
	opts.OnError = func(err error) { fmt.Printf("walk: %v\n", err) }
	walker.WalkTree(tree, []string{spec.Dir}, opts, func(e walker.Entry, tp string) bool {
		data, err := tree.ReadFile(tp)
		say(tp, len(data), err)
		return !errors.Is(err, walker.ErrStopTree) // as pipeline.RunTree does
	})
}

// runChild runs TestHostileHelper with spec under childTimeout and
// returns its output and peak RSS; ok is false (and the test failed)
// when the child died or hung.
func runChild(t *testing.T, spec hostileSpec) (out string, rss int64, ok bool) {
	t.Helper()
	raw, _ := json.Marshal(spec)
	c := gittest.RunChild(t, "TestHostileHelper", childTimeout, hostileEnv+"="+string(raw))
	switch {
	case c.TimedOut:
		t.Errorf("child still running after %v:\n%.1500s", childTimeout, c.Output)
		return c.Output, 0, false
	case c.Err != nil:
		t.Errorf("child failed (%v, peak RSS %d MiB):\n%.1500s", c.Err, c.PeakRSS>>20, c.Output)
		return c.Output, c.PeakRSS, false
	}
	return c.Output, c.PeakRSS, true
}

// TestHostileRepos: each hostile repository is an error for its hostile
// paths only (ok.txt is still read), or for a hostile tree one error that
// ends the walk, within childTimeout and childPeakRSS; never a stack
// overflow, a hang or the memory a bomb inflates to.
func TestHostileRepos(t *testing.T) {
	if os.Getenv(hostileEnv) != "" {
		t.Skip("inside the child")
	}
	for _, c := range gittest.Hostile() {
		r := gittest.BuildHostile(t, c)
		modes := []bool{false}
		if !c.Tree {
			modes = append(modes, true)
		}
		for _, changed := range modes {
			name := fmt.Sprintf("%s (changed %v)", c.Name, changed)
			out, rss, ok := runChild(t, hostileSpec{Dir: r.Dir, Changed: changed, Paths: append([]string{"ok.txt"}, c.Bad...)})
			if !ok {
				t.Errorf("%s: the child died or hung", name)
				continue
			}
			t.Logf("%s: peak RSS %d MiB", name, rss>>20)
			if rss > childPeakRSS*rssScale {
				t.Errorf("%s: peak RSS %d MiB, want at most %d", name, rss>>20, childPeakRSS>>20)
			}
			checkHostileOutput(t, name, out, c, changed)
		}
	}
}

// checkHostileOutput checks the child's lines for case c.
func checkHostileOutput(t *testing.T, name, out string, c gittest.HostileCase, changed bool) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	okWant := "ok.txt: ok 7"
	if changed {
		okWant = "ok.txt: ok 1"
	}
	found := map[string]string{}
	var walkErrs []string
	for _, l := range lines {
		if strings.HasPrefix(l, "walk: ") {
			walkErrs = append(walkErrs, l)
			continue
		}
		if p, _, ok := strings.Cut(l, ": "); ok {
			found[p] = l
		}
	}
	if found["ok.txt"] != okWant {
		t.Errorf("%s: ok.txt: %q, want %q\n%s", name, found["ok.txt"], okWant, out)
	}
	for _, p := range c.Bad {
		if !strings.Contains(found[p], c.Want) {
			t.Errorf("%s: %s: %q, want an error with %q\n%s", name, p, found[p], c.Want, out)
		}
	}
	if c.Tree && (len(walkErrs) != 1 || !strings.Contains(walkErrs[0], c.Want)) {
		t.Errorf("%s: walk errors %q, want one with %q", name, walkErrs, c.Want)
	}
	if !c.Tree && len(walkErrs) != 0 {
		t.Errorf("%s: walk errors %q", name, walkErrs)
	}
}

// TestHostileTreeBounds: a valid tree of 10^13 paths ends at the entry
// bound with one error, and one naming a 1 MiB blob a million times at
// the inflate budget with one error; the walk ends there.
func TestHostileTreeBounds(t *testing.T) {
	if os.Getenv(hostileEnv) != "" {
		t.Skip("inside the child")
	}
	cases := []struct {
		name  string
		leaf  []byte
		spec  hostileSpec
		want  string
		walk  bool  // the error is the walk's (a folder's), not a file's
		files int   // at most this many files are read
		rss   int64 // the child's peak RSS at most
	}{
		{"entries", []byte("leaf\n"), hostileSpec{MaxFiles: 300_000}, "more than 300000 entries", true, 300_000, 64 << 20},
		{"inflated bytes", make([]byte, 1<<20), hostileSpec{MaxInflated: 32 << 20}, "inflate budget exhausted", false, 33, 64 << 20},
	}
	for _, c := range cases {
		r := gittest.New(t)
		r.TreeBomb(12, 10, c.leaf)
		c.spec.Dir = r.Dir
		out, rss, ok := runChild(t, c.spec)
		if !ok {
			continue
		}
		t.Logf("%s: peak RSS %d MiB", c.name, rss>>20)
		if rss > c.rss*rssScale {
			t.Errorf("%s: peak RSS %d MiB, want at most %d", c.name, rss>>20, c.rss>>20)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		var errs []string
		files := 0
		for _, l := range lines {
			if strings.Contains(l, ": ok ") {
				files++
			} else if l != "PASS" {
				errs = append(errs, l)
			}
		}
		if len(errs) != 1 || !strings.Contains(errs[0], c.want) || strings.HasPrefix(errs[0], "walk: ") != c.walk {
			t.Errorf("%s: %d errors, first %q; want one with %q", c.name, len(errs), errs[:min(3, len(errs))], c.want)
		}
		if files == 0 || files > c.files || lines[0] != "ok.txt: ok 7" {
			t.Errorf("%s: %d files read, first %q; want ok.txt and at most %d", c.name, files, lines[0], c.files)
		}
	}
}
