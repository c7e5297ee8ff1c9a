package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/evgrep/evgrep/internal/rankindex"
	"github.com/evgrep/evgrep/rank"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/walker"
)

// topFiles is the depth of the file rankings that are scored.
const topFiles = 10

// corpus is one indexed tree and its files in memory for the grep
// baseline (lower-cased).
type corpus struct {
	root  string
	ix    *rank.Index
	paths []string
	lower [][]byte
	size  []int
}

func loadCorpus(root string) (*corpus, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	wo := walker.DefaultOptions()
	wo.SkipGitDir = true
	t0 := time.Now()
	ix, st, err := rankindex.Load(context.Background(), rankindex.Options{Root: abs, Walk: wo, Store: snapshot.NewStore(snapshot.DefaultStateDir())})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "index %s: %d files, %d chunks (%d reused, %d chunked) in %v\n", abs, ix.Files(), ix.Chunks(), st.Reused, st.Chunked, time.Since(t0).Round(time.Millisecond))
	c := &corpus{root: abs, ix: ix}
	if noGrepLoad {
		return c, nil
	}
	for i := 0; i < ix.Files(); i++ {
		d := ix.File(i)
		if excluded[d.Path] {
			continue
		}
		data, err := os.ReadFile(rankindex.Abs(abs, d.Path))
		if err != nil || len(data) > rank.MaxFileBytes || bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0 {
			continue
		}
		c.paths = append(c.paths, d.Path)
		c.lower = append(c.lower, bytes.ToLower(data))
		c.size = append(c.size, len(data))
	}
	return c, nil
}

// excluded are files of the repository that hold the labels themselves:
// the grep baseline skips them and the ranker's hits in them are dropped.
var noGrepLoad bool

var excluded = map[string]bool{"bench/rank/queries.tsv": true}

// grepWords are the words a grep user would type for q: lower-case runs
// of letters and digits, stop words left out.
func grepWords(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r > 127)
	}) {
		if len(w) < 2 || rank.IsStopWord(w) || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// grepRank orders files by the number of lines that hold any word,
// then by path.
func (c *corpus) grepRank(q string) (files []string, tokens []int) {
	words := grepWords(q)
	type fc struct {
		i, n int
	}
	var hits []fc
	for i, data := range c.lower {
		any := false
		for _, w := range words {
			if bytes.Contains(data, []byte(w)) {
				any = true
				break
			}
		}
		if !any {
			continue
		}
		hits = append(hits, fc{i, countLines(data, words)})
	}
	sort.Slice(hits, func(a, b int) bool {
		if hits[a].n != hits[b].n {
			return hits[a].n > hits[b].n
		}
		return c.paths[hits[a].i] < c.paths[hits[b].i]
	})
	for _, h := range hits {
		if len(files) == topFiles {
			break
		}
		files = append(files, c.paths[h.i])
		tokens = append(tokens, c.size[h.i]/4)
	}
	return files, tokens
}

// countLines counts the lines of data that hold any of words.
func countLines(data []byte, words []string) int {
	var lines []int // line start of every occurrence
	for _, w := range words {
		off := 0
		for {
			j := bytes.Index(data[off:], []byte(w))
			if j < 0 {
				break
			}
			at := off + j
			start := bytes.LastIndexByte(data[:at], '\n') + 1
			lines = append(lines, start)
			end := bytes.IndexByte(data[at:], '\n')
			if end < 0 {
				break
			}
			off = at + end + 1
		}
	}
	sort.Ints(lines)
	n := 0
	for i, l := range lines {
		if i == 0 || l != lines[i-1] {
			n++
		}
	}
	return n
}

// rankFiles runs the ranker: the files of its chunks in order of first
// appearance, and the tokens of the chunks read up to and including the
// first chunk of each file.
func (c *corpus) rankFiles(q string, p *rank.Params) (files []string, tokens []int) {
	hits := c.ix.Search(q, p, 200)
	seen := map[string]bool{}
	read := 0
	for _, h := range hits {
		if excluded[h.Path] {
			continue
		}
		read += (h.Chunk.EndByte - h.Chunk.StartByte) / 4
		if seen[h.Path] {
			continue
		}
		seen[h.Path] = true
		files = append(files, h.Path)
		tokens = append(tokens, read)
		if len(files) == topFiles {
			break
		}
	}
	return files, tokens
}

// scores of one ranking.
type scores struct {
	ndcg, recall5 float64
	tokens        int  // tokens read until the first relevant file (or all)
	found         bool // a relevant file is in the top 10
}

func score(files []string, tokens []int, rel map[string]bool) scores {
	var s scores
	dcg, idcg := 0.0, 0.0
	for i := 0; i < min(len(rel), topFiles); i++ {
		idcg += 1 / math.Log2(float64(i+2))
	}
	hit5 := 0
	for i, f := range files {
		if !rel[f] {
			continue
		}
		dcg += 1 / math.Log2(float64(i+2))
		if i < 5 {
			hit5++
		}
		if !s.found {
			s.found, s.tokens = true, tokens[i]
		}
	}
	if !s.found && len(tokens) > 0 {
		s.tokens = tokens[len(tokens)-1]
	}
	s.ndcg = dcg / idcg
	s.recall5 = float64(hit5) / float64(len(rel))
	return s
}

// row sums the scores of a group of queries.
type row struct {
	n                    int
	ndcg, rec, gndcg, gr float64
	tok, gtok            []int
	found, gfound        int
}

func (r *row) add(a, b scores) {
	r.n++
	r.ndcg += a.ndcg
	r.rec += a.recall5
	r.gndcg += b.ndcg
	r.gr += b.recall5
	r.tok = append(r.tok, a.tokens)
	r.gtok = append(r.gtok, b.tokens)
	if a.found {
		r.found++
	}
	if b.found {
		r.gfound++
	}
}

func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int(nil), xs...)
	sort.Ints(s)
	return s[len(s)/2]
}

func run(p *rank.Params, only string, nGen int, verbose, noGrep bool, goroot, repo string) error {
	hand, err := handWritten(filepath.Join(repo, "bench", "rank", "queries.tsv"))
	if err != nil {
		return err
	}
	gen, err := generatedQueries(goroot, nGen)
	if err != nil {
		return err
	}
	qs := append(gen, hand...)
	noGrepLoad = noGrep
	corpora := map[string]*corpus{}
	for name, root := range map[string]string{"goroot": goroot, "repo": repo} {
		if corpora[name], err = loadCorpus(root); err != nil {
			return err
		}
	}
	if sweepSpec != "" {
		return runSweep(p, qs, corpora, only)
	}
	rows := map[string]*row{}
	var keys []string
	get := func(k string) *row {
		if rows[k] == nil {
			rows[k] = &row{}
			keys = append(keys, k)
		}
		return rows[k]
	}
	t0 := time.Now()
	nq := 0
	for i := range qs {
		q := &qs[i]
		sp := q.split()
		if only != "" && sp != only {
			continue
		}
		c := corpora[q.corpus]
		rf, rt := c.rankFiles(q.text, p)
		var gf []string
		var gt []int
		if !noGrep {
			gf, gt = c.grepRank(q.text)
		}
		a, b := score(rf, rt, q.relevant), score(gf, gt, q.relevant)
		nq++
		for _, k := range []string{q.set + " " + sp, "all " + sp} {
			get(k).add(a, b)
		}
		if verbose {
			fmt.Printf("%-4s %-11s ndcg %.2f grep %.2f  %q → %v (want %v)\n", sp, q.set, a.ndcg, b.ndcg, q.text, first(rf, 3), keysOf(q.relevant))
		}
	}
	sort.Strings(keys)
	fmt.Printf("ranked retrieval (evgrep --rank) against a grep baseline (files by matching-line count); %d queries, file level, top %d\n\n", nq, topFiles)
	fmt.Printf("| queries | split | n | NDCG@10 rank | NDCG@10 grep | Recall@5 rank | Recall@5 grep | tokens to 1st relevant, median rank | grep | found in top 10 rank | grep |\n")
	fmt.Printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, k := range keys {
		r := rows[k]
		set, sp, _ := strings.Cut(k, " ")
		n := float64(r.n)
		fmt.Printf("| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %d | %d | %d | %d |\n", set, sp, r.n, r.ndcg/n, r.gndcg/n, r.rec/n, r.gr/n, median(r.tok), median(r.gtok), r.found, r.gfound)
	}
	fmt.Fprintf(os.Stderr, "\n%d queries scored in %v\n", nq, time.Since(t0).Round(time.Millisecond))
	return nil
}

func first(xs []string, n int) []string { return xs[:min(n, len(xs))] }

func keysOf(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sweepSpec is the -sweep flag.
var sweepSpec string

// runSweep prints the mean NDCG@10 of the queries of split only for p and
// for each value of each swept constant (the others as in p).
func runSweep(p *rank.Params, qs []query, corpora map[string]*corpus, only string) error {
	eval := func(p *rank.Params) float64 {
		sum, n := 0.0, 0
		for i := range qs {
			q := &qs[i]
			if only != "" && q.split() != only {
				continue
			}
			f, tk := corpora[q.corpus].rankFiles(q.text, p)
			sum += score(f, tk, q.relevant).ndcg
			n++
		}
		return sum / float64(max(n, 1))
	}
	fmt.Printf("base: NDCG@10 %.4f (split %q)\n", eval(p), only)
	for _, spec := range strings.Split(sweepSpec, ",") {
		name, vals, _ := strings.Cut(spec, "=")
		for _, v := range strings.Split(vals, "|") {
			q := *p
			if err := setParams(&q, name+"="+v); err != nil {
				return err
			}
			fmt.Printf("%s=%s: NDCG@10 %.4f\n", name, v, eval(&q))
		}
	}
	return nil
}
