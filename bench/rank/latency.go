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
// folder.
const treeFiles = 1000

// runLatency times bin --rank cold (an empty state folder: the index is
// built) and warm (the cached index) on GOROOT/src and on a 1,000-file
// tree, printing medians of wall and CPU (user+system) time.
func runLatency(bin, goroot string) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	small, err := os.MkdirTemp("", "evgrep-rank-tree-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(small)
	if err := copyTree(goroot, small, treeFiles); err != nil {
		return err
	}
	fmt.Printf("| tree | files | cold wall | cold CPU | warm wall | warm CPU | cache size |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, tr := range []struct {
		name, dir string
		coldRuns  int
	}{{fmt.Sprintf("%d-file tree (GOROOT/src .go files)", treeFiles), small, 3}, {"GOROOT/src", goroot, 1}} {
		var coldW, coldC, warmW, warmC []time.Duration
		var size int64
		files := countFiles(tr.dir)
		for i := 0; i < tr.coldRuns; i++ {
			state, err := os.MkdirTemp("", "evgrep-rank-state-")
			if err != nil {
				return err
			}
			w, c, err := timeRank(bin, tr.dir, state, latencyQueries[0])
			if err != nil {
				os.RemoveAll(state)
				return err
			}
			coldW, coldC = append(coldW, w), append(coldC, c)
			if i == tr.coldRuns-1 {
				for k := 0; k < 5; k++ {
					w, c, err := timeRank(bin, tr.dir, state, latencyQueries[k%len(latencyQueries)])
					if err != nil {
						return err
					}
					warmW, warmC = append(warmW, w), append(warmC, c)
				}
				size = dirSize(state)
			}
			os.RemoveAll(state)
		}
		fmt.Printf("| %s | %d | %v | %v | %v | %v | %.1f MB |\n", tr.name, files, med(coldW), med(coldC), med(warmW), med(warmC), float64(size)/1e6)
	}
	return nil
}

// timeRank runs one query in dir with the given state folder.
func timeRank(bin, dir, state, q string) (wall, cpu time.Duration, err error) {
	cmd := exec.Command(bin, "--rank", q)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "EVGREP_STATE_DIR="+state)
	t0 := time.Now()
	out, err := cmd.Output()
	wall = time.Since(t0)
	if err != nil {
		return 0, 0, fmt.Errorf("%s --rank %q in %s: %v (%s)", bin, q, dir, err, strings.TrimSpace(string(out)))
	}
	cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return wall, cpu, nil
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
