// Command rank is the benchmark of evgrep's ranked retrieval (make
// bench-rank): labelled queries over GOROOT/src and this repository,
// scored at file level as NDCG@10, Recall@5 and the tokens read until the
// first relevant file, for the ranker and for a plain grep baseline (files
// ordered by how many of their lines hold a query word, as
// `rg -c -i -F -e w1 -e w2` counts them).
//
// Queries come from two sources: generated ones (the first sentence of an
// exported Go function's doc comment in GOROOT/src with every identifier
// removed, labelled with the defining file) and the hand-written ones of
// queries.tsv. Each query falls in the dev or the held-out split by a hash
// of its text; the ranker's constants are tuned on dev only.
//
// With -trees DIR it scores the multi-language benchmark instead (the
// trees of corpora.tsv that make rank-trees installs into DIR, and the
// queries of multi.tsv and derived.tsv; see multi.go); with -trees DIR
// -derive it writes derived.tsv from those trees (derive.go).
//
// With -latency it times bin/evgrep --rank instead: cold (an empty state
// folder) and warm, on GOROOT/src and on a 1,000-file tree.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/evgrep/evgrep/rank"
)

func main() {
	var (
		params    = flag.String("set", "", "override ranker constants: Name=value,... (fields of rank.Params)")
		split     = flag.String("split", "", "only this split: dev or test (default: both)")
		generated = flag.Int("generated", 200, "number of generated queries")
		verbose   = flag.Bool("v", false, "print each query with its ranks")
		noGrep    = flag.Bool("nogrep", false, "skip the grep baseline (for tuning runs)")
		sweep     = flag.String("sweep", "", "tuning: Name=v1|v2,Name2=v3|v4 — NDCG@10 of each value, one constant changed at a time (use with -split dev)")
		latency   = flag.Bool("latency", false, "time bin/evgrep --rank cold and warm instead")
		evgrep    = flag.String("evgrep", "bin/evgrep", "the binary for -latency")
		runs      = flag.Int("runs", 5, "-latency: cold and warm runs of each tree (medians)")
		goroot    = flag.String("goroot", goSrc(), "the GOROOT/src corpus")
		repo      = flag.String("repo", ".", "this repository (the repo corpus)")
		trees     = flag.String("trees", "", "the multi-language benchmark instead: the folder make rank-trees installed into")
		derived   = flag.Bool("derive", false, "with -trees: write bench/rank/derived.tsv from the trees' doc comments and declarations")
	)
	flag.Parse()
	if *latency {
		if err := runLatency(*evgrep, *goroot, *runs); err != nil {
			fmt.Fprintln(os.Stderr, "bench-rank:", err)
			os.Exit(1)
		}
		return
	}
	p := rank.Default
	if err := setParams(&p, *params); err != nil {
		fmt.Fprintln(os.Stderr, "bench-rank:", err)
		os.Exit(2)
	}
	sweepSpec = *sweep
	if *trees != "" {
		var err error
		if *derived {
			var ts []tree
			if ts, err = readTrees(*trees, filepath.Join("bench", "rank", "corpora.tsv")); err == nil {
				err = derive(ts, filepath.Join("bench", "rank", "derived.tsv"))
			}
		} else {
			err = runMulti(&p, *trees, *split, *verbose, *noGrep || *sweep != "")
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench-rank:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(&p, *split, *generated, *verbose, *noGrep || *sweep != "", *goroot, *repo); err != nil {
		fmt.Fprintln(os.Stderr, "bench-rank:", err)
		os.Exit(1)
	}
}

// goSrc is $(go env GOROOT)/src.
func goSrc() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}

// setParams applies "Name=value,..." to the float fields of p.
func setParams(p *rank.Params, spec string) error {
	if spec == "" {
		return nil
	}
	v := reflect.ValueOf(p).Elem()
	for _, kv := range strings.Split(spec, ",") {
		name, val, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("-set: %q is not Name=value", kv)
		}
		f := v.FieldByName(name)
		if !f.IsValid() || f.Kind() != reflect.Float64 {
			return fmt.Errorf("-set: no constant %q in rank.Params", name)
		}
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return fmt.Errorf("-set %s: %v", name, err)
		}
		f.SetFloat(x)
	}
	return nil
}
