// Command agentbench times one broad agent call (`evgrep --agent`, summary
// of a search over a corpus) against the pipeline it replaces in agent
// harnesses built on ripgrep: `rg --files --null` to list the files, a stat
// of every file (to record revisions), `rg --json` for the matches, and a
// JSON decode of every event to rank files by count. Both sides run side by
// side, alternating, output to pipes; it prints medians and the ratio.
//
//	go run ./bench/agentbench [-corpus DIR] [-pattern err] [-runs 7] [-evgrep bin/evgrep]
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func main() {
	corpus := flag.String("corpus", goroot(), "tree to search")
	pattern := flag.String("pattern", "err", "pattern of the broad search")
	runs := flag.Int("runs", 7, "timed runs per side (after one warm-up)")
	evgrep := flag.String("evgrep", "bin/evgrep", "evgrep binary")
	rgPath := flag.String("rg", os.Getenv("EVGREP_REFERENCE_RG"), "the reference rg (default: $EVGREP_REFERENCE_RG, else rg on PATH)")
	flag.Parse()
	if *rgPath == "" {
		*rgPath = "rg"
	}
	rg, err := exec.LookPath(*rgPath)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentbench: rg is not installed")
		os.Exit(2)
	}
	req, _ := json.Marshal(map[string]any{"pattern": *pattern, "path": *corpus})
	var evTimes, rgTimes []time.Duration
	var evTotal, rgTotal int
	for i := 0; i <= *runs; i++ {
		state, _ := os.MkdirTemp("", "agentbench-state")
		t, n, err := timeEvgrep(*evgrep, string(req), state)
		os.RemoveAll(state)
		check(err)
		t2, n2, err := timeRGPipeline(rg, *pattern, *corpus)
		check(err)
		fmt.Fprintf(os.Stderr, "run %d: evgrep %v, rg pipeline %v\n", i, t.Round(time.Millisecond), t2.Round(time.Millisecond))
		if i == 0 {
			continue // warm-up
		}
		evTimes, rgTimes = append(evTimes, t), append(rgTimes, t2)
		evTotal, rgTotal = n, n2
	}
	me, mr := median(evTimes), median(rgTimes)
	fmt.Printf("| call | median wall | matching lines |\n|---|---|---|\n")
	fmt.Printf("| `evgrep --agent` summary (%q over %s) | %v | %d |\n", *pattern, *corpus, me.Round(time.Millisecond), evTotal)
	fmt.Printf("| rg pipeline (--files --null, stat, --json, decode) | %v | %d |\n", mr.Round(time.Millisecond), rgTotal)
	fmt.Printf("\nratio evgrep/rg-pipeline: %.2f", float64(me)/float64(mr))
	if evTotal != rgTotal {
		fmt.Printf("  MISMATCH: totals differ (%d vs %d)", evTotal, rgTotal)
	}
	fmt.Println()
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentbench:", err)
		os.Exit(2)
	}
}

// timeEvgrep runs one agent call and reads the exact total from details.
func timeEvgrep(bin, req, state string) (time.Duration, int, error) {
	cmd := exec.Command(bin, "--agent", req, "--agent-format", "json")
	cmd.Env = append(os.Environ(), "EVGREP_STATE_DIR="+state)
	start := time.Now()
	out, err := cmd.Output()
	d := time.Since(start)
	if err != nil {
		return 0, 0, fmt.Errorf("evgrep: %v", err)
	}
	var ans struct {
		Details struct {
			Totals struct {
				Lines int `json:"lines"`
			} `json:"totals"`
		} `json:"details"`
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		return 0, 0, err
	}
	return d, ans.Details.Totals.Lines, nil
}

// timeRGPipeline is what a harness does with rg to produce the same facts.
func timeRGPipeline(rg, pattern, root string) (time.Duration, int, error) {
	start := time.Now()
	files, err := exec.Command(rg, "--files", "--null", "--hidden", root).Output()
	if err != nil {
		return 0, 0, err
	}
	for _, f := range bytes.Split(files, []byte{0}) {
		if len(f) > 0 {
			os.Stat(string(f))
		}
	}
	cmd := exec.Command(rg, "--json", "--hidden", "--smart-case", pattern, root) // the agent's default case mode
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	counts := map[string]int{}
	total := 0
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var ev struct {
			Type string `json:"type"`
			Data struct {
				Path struct {
					Text string `json:"text"`
				} `json:"path"`
				Lines struct {
					Text string `json:"text"`
				} `json:"lines"`
				LineNumber int `json:"line_number"`
				Submatches []struct {
					Start int `json:"start"`
					End   int `json:"end"`
				} `json:"submatches"`
			} `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return 0, 0, err
		}
		if ev.Type == "match" {
			counts[ev.Data.Path.Text]++
			total++
		}
	}
	io.Copy(io.Discard, stdout)
	cmd.Wait()
	type fc struct {
		path string
		n    int
	}
	var ranked []fc
	for p, n := range counts {
		ranked = append(ranked, fc{strings.TrimPrefix(p, filepath.Clean(root)+"/"), n})
	}
	sort.Slice(ranked, func(i, j int) bool {
		if ranked[i].n != ranked[j].n {
			return ranked[i].n > ranked[j].n
		}
		return ranked[i].path < ranked[j].path
	})
	return time.Since(start), total, nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

// goroot is the Go installation that the go command on PATH uses (the
// default corpus).
func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
