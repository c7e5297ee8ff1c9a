package app

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/evgrep/evgrep/internal/gittest"
)

// gitHostileEnv carries the arguments and folder of one run to the child.
const gitHostileEnv = "EVGREP_APP_GIT_HOSTILE"

const (
	// gitChildHeadroom is the address space the child may add to its own:
	// inflating a bomb ends in an allocation failure.
	gitChildHeadroom = 256 << 20
	// gitChildPeakRSS is the most resident memory the child may reach.
	gitChildPeakRSS = 160 << 20
	// gitChildTimeout ends a child that hangs.
	gitChildTimeout = 60 * time.Second
)

// gitRun is one run of the child, and its result.
type gitRun struct {
	Dir    string
	Args   []string
	Code   int
	Stdout string
	Stderr string
}

// TestGitHostileHelper is the child of TestGitHostile: it runs Main in a
// folder under an address-space limit and prints the result as JSON.
func TestGitHostileHelper(t *testing.T) {
	raw := os.Getenv(gitHostileEnv)
	if raw == "" {
		t.Skip("the child of TestGitHostile")
	}
	var run gitRun
	if err := json.Unmarshal([]byte(raw), &run); err != nil {
		t.Fatal(err)
	}
	gittest.LimitAddressSpace(t, gitChildHeadroom)
	got := runEvgrepFull(t, run.Dir, run.Args)
	run.Code, run.Stdout, run.Stderr = got.code, got.stdout, got.stderrText
	out, _ := json.Marshal(run)
	os.Stdout.Write(append(append([]byte("RESULT "), out...), '\n'))
}

// runGitChild runs evgrep with args in dir in a child process; ok is
// false (the test failed) when it died, hung or outgrew gitChildPeakRSS.
func runGitChild(t *testing.T, dir string, args []string) (run gitRun, ok bool) {
	t.Helper()
	raw, _ := json.Marshal(gitRun{Dir: dir, Args: args})
	c := gittest.RunChild(t, "TestGitHostileHelper", gitChildTimeout, gitHostileEnv+"="+string(raw))
	if c.TimedOut {
		t.Errorf("evgrep %q: still running after %v", args, gitChildTimeout)
		return run, false
	}
	_, res, found := strings.Cut(c.Output, "RESULT ")
	res, _, _ = strings.Cut(res, "\n")
	if c.Err != nil || !found || json.Unmarshal([]byte(res), &run) != nil {
		t.Errorf("evgrep %q: the child died (%v, peak RSS %d MiB):\n%.1500s", args, c.Err, c.PeakRSS>>20, c.Output)
		return run, false
	}
	if c.PeakRSS > gittest.ChildPeakBound(gitChildPeakRSS*rssScale) {
		t.Errorf("evgrep %q: peak RSS %d MiB, want at most %d", args, c.PeakRSS>>20, gitChildPeakRSS>>20)
		return run, false
	}
	return run, true
}

// TestGitHostile: over each hostile repository (gittest.Hostile), --rev
// and --changed-since print ok.txt's match, one rg-style error line for
// each hostile path (or one for a hostile tree, which ends the walk) and
// exit 2, within gitChildTimeout and gitChildPeakRSS.
func TestGitHostile(t *testing.T) {
	if os.Getenv(gitHostileEnv) != "" {
		t.Skip("inside the child")
	}
	for _, c := range gittest.Hostile() {
		r := gittest.BuildHostile(t, c)
		runs := []struct {
			args []string
			out  string
		}{{[]string{"-n", "--rev", "HEAD", "needle"}, "ok.txt:1:needle\n"}}
		if !c.Tree {
			runs = append(runs, struct {
				args []string
				out  string
			}{[]string{"-n", "--changed-since", "HEAD", "needle"}, "ok.txt:2:needle new\n"})
		}
		for _, run := range runs {
			got, ok := runGitChild(t, r.Dir, run.args)
			if !ok {
				continue
			}
			lines := strings.Split(strings.TrimSuffix(got.Stderr, "\n"), "\n")
			sort.Strings(lines)
			want := len(c.Bad)
			if c.Tree {
				want = 1
			}
			good := got.Code == 2 && got.Stdout == run.out && len(lines) == want
			for i, l := range lines {
				good = good && strings.HasPrefix(l, "rg: ") && strings.Contains(l, c.Want) && !strings.Contains(l, "\n")
				if !c.Tree {
					good = good && strings.HasPrefix(l, "rg: "+c.Bad[i]+": ")
				}
			}
			if !good {
				t.Errorf("%s: evgrep %q: code %d, stdout %q, stderr %q; want 2, %q and one error with %q for each of %q", c.Name, run.args, got.Code, got.Stdout, got.Stderr, run.out, c.Want, c.Bad)
			}
		}
	}
}
