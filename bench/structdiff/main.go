// Command structdiff is the structural search's differential over real
// code: the patterns of cases.txt and the rule files of rules/, run by
// evgrep over the trees that trees.sh installs (`make struct-trees`), are
// compared with ast-grep 0.51.1's answers recorded in
// testdata/golden/structural/realtrees.json (match sets: file, start
// byte, end byte). Every case whose answer differs must be listed in
// DIFFERENCES with its reason, and every listed case must still differ.
//
//	go run ./bench/structdiff -trees DIR            # compare, report, exit 1 on an unlisted difference
//	go run ./bench/structdiff -trees DIR -record    # re-record ast-grep's answers (-astgrep BIN)
//
// Absent or other trees (DIR/MANIFEST is not this folder's MANIFEST) are
// an error, never an empty pass.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	trees := flag.String("trees", os.Getenv("EVGREP_STRUCT_TREES"), "the folder trees.sh installed")
	record := flag.Bool("record", false, "re-record ast-grep's answers")
	astgrep := flag.String("astgrep", "/opt/ast-grep/bin/ast-grep", "ast-grep 0.51.1 (with -record)")
	only := flag.String("only", "", "run only the cases whose key contains this")
	flag.Parse()
	if err := run(*trees, *record, *astgrep, *only); err != nil {
		fmt.Fprintln(os.Stderr, "structdiff:", err)
		os.Exit(1)
	}
}

// here is this program's folder, found from the working directory (the
// repository root, or this folder).
func here() (string, error) {
	for _, d := range []string{filepath.Join("bench", "structdiff"), "."} {
		if _, err := os.Stat(filepath.Join(d, "cases.txt")); err == nil {
			return filepath.Abs(d)
		}
	}
	return "", fmt.Errorf("run from the repository root (no bench/structdiff/cases.txt)")
}

func run(trees string, record bool, astgrep, only string) error {
	dir, err := here()
	if err != nil {
		return err
	}
	if trees == "" {
		return fmt.Errorf("no trees: give -trees DIR (or EVGREP_STRUCT_TREES) after `make struct-trees`")
	}
	want, err := os.ReadFile(filepath.Join(dir, "MANIFEST"))
	if err != nil {
		return err
	}
	got, err := os.ReadFile(filepath.Join(trees, "MANIFEST"))
	if err != nil {
		return fmt.Errorf("the trees are absent (%v): run `make struct-trees`", err)
	}
	if !bytes.Equal(want, got) {
		return fmt.Errorf("%s/MANIFEST is not bench/structdiff/MANIFEST: other trees; run `make struct-trees`", trees)
	}
	cases, err := loadCases(dir)
	if err != nil {
		return err
	}
	rewrites, err := loadRewrites(dir)
	if err != nil {
		return err
	}
	cases = append(cases, rewrites...)
	goldenPath := filepath.Join(dir, "..", "..", "testdata", "golden", "structural", "realtrees.json")
	g, err := loadGolden(goldenPath, record && only == "")
	if err != nil {
		return err
	}
	diffs, err := loadDifferences(filepath.Join(dir, "DIFFERENCES"))
	if err != nil {
		return err
	}
	var results []result
	var uncompiled []string // rewritten Python files that no longer compile
	for _, c := range cases {
		if only != "" && !strings.Contains(c.key(), only) {
			continue
		}
		root := filepath.Join(trees, c.lang)
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			return fmt.Errorf("tree %s is absent: run `make struct-trees`", root)
		}
		var ev []span
		var everr error
		if c.rewrite {
			var files map[string][]byte
			ev, files, everr = evgrepRewrite(c, root)
			if everr == nil && c.lang == "python" {
				bad, err := pyCompileFailures(root, files)
				if err != nil {
					return err
				}
				for _, f := range bad {
					uncompiled = append(uncompiled, show(c.key())+": "+f)
				}
			}
		} else {
			ev, everr = evgrepSpans(c, root)
		}
		if record {
			var ref []span
			var err error
			if c.rewrite {
				ref, err = astGrepRewrite(astgrep, c, root)
			} else {
				ref, err = astGrepSpans(astgrep, c, root)
			}
			g.set(c.key(), ref, err, ev, everr)
		}
		a, ok := g.Answers[c.key()]
		if !ok {
			return fmt.Errorf("%s: no recorded answer in %s: re-record (make struct-diff-record)", c.key(), goldenPath)
		}
		if c.rewrite && a.Count == 0 {
			return fmt.Errorf("%s: ast-grep's rewrite changes no file: a case that tests nothing", show(c.key()))
		}
		results = append(results, compare(c, a, ev, everr))
	}
	if record {
		// Answers to cases that are no longer cases go.
		known := map[string]bool{}
		for _, c := range cases {
			known[c.key()] = true
		}
		for k := range g.Answers {
			if !known[k] {
				delete(g.Answers, k)
			}
		}
		if err := g.write(goldenPath, astgrep); err != nil {
			return err
		}
	}
	err = report(os.Stdout, results, diffs, only != "")
	if len(uncompiled) > 0 {
		return fmt.Errorf("%v\n  rewritten Python files that no longer compile:\n  %s", err, strings.Join(uncompiled, "\n  "))
	}
	return err
}

// result is one case's comparison.
type result struct {
	c                testCase
	evgrep, astgrep  int
	same             bool
	onlyEv, onlyAg   int // -1 when ast-grep's spans were not recorded
	firstEv, firstAg string
	evErr, agErr     string // the case's error, if any
}

// compare compares evgrep's answer (ev, or the error everr) with
// ast-grep's recorded answer a; two errors are the same answer.
func compare(c testCase, a answer, ev []span, everr error) result {
	r := result{c: c, evgrep: len(ev), astgrep: a.Count, onlyEv: -1, onlyAg: -1, agErr: a.Error}
	if everr != nil {
		r.evErr = everr.Error()
		r.evgrep = 0
		r.same = a.Error != ""
		return r
	}
	r.same = digest(ev) == a.Digest && a.Error == ""
	if r.same || a.Spans == nil {
		return r
	}
	ref := map[string]bool{}
	for _, s := range a.Spans {
		ref[s] = true
	}
	mine := map[string]bool{}
	r.onlyEv, r.onlyAg = 0, 0
	for _, s := range ev {
		k := s.String()
		mine[k] = true
		if !ref[k] {
			if r.onlyEv == 0 {
				r.firstEv = k
			}
			r.onlyEv++
		}
	}
	for _, s := range a.Spans {
		if !mine[s] {
			if r.onlyAg == 0 {
				r.firstAg = s
			}
			r.onlyAg++
		}
	}
	return r
}

// sortedKeys returns m's keys sorted.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
