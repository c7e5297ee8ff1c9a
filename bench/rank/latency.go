package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// latencyQueries are run one after another on every tree.
var latencyQueries = []string{"http request timeout", "ParseDuration", "walk a directory tree"}

// treeFiles is the size of the small tree: the first 1,000 Go files of
// GOROOT/src in path order (test data left out), copied to a temporary
// folder, so that it can always be made where Go is installed.
const treeFiles = 1000

// The targets of issue 22, item 3.
const (
	targetWarmSmall  = 20 * time.Millisecond
	targetWarmGoroot = 50 * time.Millisecond
	targetColdGoroot = 2 * time.Second
	targetColdRSS    = 300 << 20
)

// sample is one timed run of bin --rank.
type sample struct {
	wall, cpu time.Duration
	rss       int64 // peak resident set of the child, bytes (0: unknown)
}

// runLatency times bin --rank cold (an empty state folder: the index is
// built) and warm (the cached index) on the 1,000-file tree and on
// GOROOT/src, runs times each, and prints the medians of wall time, CPU
// (user+system) and the child's peak RSS (its rusage), then the four
// figures of issue 22 against their targets.
func runLatency(bin, goroot string, runs int) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	runs = max(runs, 1)
	small, err := os.MkdirTemp("", "evgrep-rank-tree-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(small)
	if err := copyTree(goroot, small, treeFiles); err != nil {
		return err
	}
	fmt.Printf("medians of %d runs each; load average %s\n\n", runs, loadAverage())
	fmt.Printf("| tree | files | cold wall | cold CPU | cold peak RSS | warm wall | warm CPU | warm peak RSS | cache size |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	type result struct{ cold, warm sample }
	var res []result
	for _, tr := range []struct{ name, dir string }{
		{fmt.Sprintf("%d-file tree (GOROOT/src .go files)", treeFiles), small},
		{"GOROOT/src", goroot},
	} {
		var cold, warm []sample
		var size int64
		files := countFiles(tr.dir)
		for i := 0; i < runs; i++ {
			state, err := os.MkdirTemp("", "evgrep-rank-state-")
			if err != nil {
				return err
			}
			s, err := timeRank(bin, tr.dir, state, latencyQueries[0])
			if err != nil {
				os.RemoveAll(state)
				return err
			}
			cold = append(cold, s)
			if i == runs-1 {
				for k := 0; k < runs; k++ {
					s, err := timeRank(bin, tr.dir, state, latencyQueries[k%len(latencyQueries)])
					if err != nil {
						os.RemoveAll(state)
						return err
					}
					warm = append(warm, s)
				}
				size = dirSize(state)
			}
			os.RemoveAll(state)
		}
		c, w := medSample(cold), medSample(warm)
		res = append(res, result{c, w})
		fmt.Printf("| %s | %d | %v | %v | %s | %v | %v | %s | %.1f MB |\n", tr.name, files, c.wall, c.cpu, mb(c.rss), w.wall, w.cpu, mb(w.rss), float64(size)/1e6)
	}
	fmt.Printf("\n| figure (issue 22) | median | target | met |\n|---|---:|---:|---|\n")
	row := func(name string, got, target time.Duration) {
		fmt.Printf("| %s | %v | <= %v | %s |\n", name, got, target, yes(got <= target))
	}
	row("warm query, 1,000-file tree", res[0].warm.wall, targetWarmSmall)
	row("warm query, GOROOT/src", res[1].warm.wall, targetWarmGoroot)
	row("cold index, GOROOT/src (wall)", res[1].cold.wall, targetColdGoroot)
	fmt.Printf("| cold index, GOROOT/src (peak RSS) | %s | <= %s | %s |\n", mb(res[1].cold.rss), mb(targetColdRSS), yes(res[1].cold.rss > 0 && res[1].cold.rss <= targetColdRSS))
	return nil
}

// timeRank runs one query in dir with the given state folder.
func timeRank(bin, dir, state, q string) (sample, error) {
	cmd := exec.Command(bin, "--rank", q)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "EVGREP_STATE_DIR="+state)
	t0 := time.Now()
	out, err := cmd.Output()
	wall := time.Since(t0)
	if err != nil {
		return sample{}, fmt.Errorf("%s --rank %q in %s: %v (%s)", bin, q, dir, err, strings.TrimSpace(string(out)))
	}
	ps := cmd.ProcessState
	return sample{wall: wall, cpu: ps.UserTime() + ps.SystemTime(), rss: peakRSS(ps)}, nil
}

// medSample is the median of each figure apart.
func medSample(ss []sample) sample {
	var w, c []time.Duration
	var r []int64
	for _, s := range ss {
		w, c, r = append(w, s.wall), append(c, s.cpu), append(r, s.rss)
	}
	sort.Slice(r, func(i, j int) bool { return r[i] < r[j] })
	return sample{med(w), med(c), r[len(r)/2]}
}

func mb(b int64) string {
	if b <= 0 {
		return "?"
	}
	return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
}

func yes(ok bool) string {
	if ok {
		return "yes"
	}
	return "**no**"
}

// loadAverage is the first three fields of /proc/loadavg ("?" elsewhere).
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "?"
}

func med(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2].Round(time.Millisecond)
}

func copyTree(src, dst string, n int) error {
	var paths []string
	filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	if len(paths) > n {
		paths = paths[:n]
	}
	for _, p := range paths {
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func countFiles(dir string) int {
	n := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return nil
	})
	return n
}

func dirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasPrefix(d.Name(), "b-rank-") {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
