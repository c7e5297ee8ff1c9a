package main

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/evgrep/evgrep/rank"
)

// The multi-language benchmark (-trees DIR): the trees of corpora.tsv
// (installed into DIR by make rank-trees), the hand-written queries of
// multi.tsv and the derived ones of derived.tsv. Each query is scored at
// file level (NDCG@10) for the ranker and for a grep baseline that looks
// for the whole query as one case-insensitive literal and orders the
// files that hold it by how many of their lines do (rg -c -i -F 'query');
// and for the ranker, the share of its targets whose chunks are read
// within 500, 1,000 and 2,000 tokens (a token is 4 bytes) when its chunks
// are read in order. A language's figure is the mean of its trees'
// means; overall is the mean over trees; a kind's is the mean over its
// queries.

// tree is one installed corpus of corpora.tsv.
type tree struct {
	name, lang, dir, pin string
}

func readTrees(dir, list string) ([]tree, error) {
	data, err := os.ReadFile(list)
	if err != nil {
		return nil, err
	}
	var out []tree
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 6 {
			return nil, fmt.Errorf("%s:%d: want 6 columns", list, i+1)
		}
		t := tree{name: cols[0], lang: cols[1], dir: filepath.Join(dir, cols[0]), pin: cols[2] + " " + cols[3] + " " + cols[4] + " " + cols[5]}
		have, err := os.ReadFile(filepath.Join(t.dir, ".pin"))
		if err != nil || strings.TrimSpace(string(have)) != t.pin {
			return nil, fmt.Errorf("tree %s is not installed at its pin (%s): make rank-trees", t.name, t.pin)
		}
		out = append(out, t)
	}
	return out, nil
}

// mquery is one labelled query of the multi-language benchmark.
type mquery struct {
	corpus, kind, text, source string
	relevant                   map[string]bool
}

// split is "dev" or "test", by a hash of the query's corpus and text.
func (q *mquery) split() string {
	h := fnv.New32a()
	h.Write([]byte(q.corpus + "\x00" + q.text))
	if h.Sum32()%2 == 0 {
		return "dev"
	}
	return "test"
}

var kinds = map[string]bool{"architecture": true, "semantic": true, "symbol": true}

// readMulti reads a file of corpus <TAB> kind <TAB> query <TAB> files.
func readMulti(path, source string, trees map[string]tree) ([]mquery, error) {
	var out []mquery
	err := readTSV(path, func(n int, cols []string) error {
		if len(cols) != 4 || !kinds[cols[1]] {
			return fmt.Errorf("%s:%d: want corpus<TAB>kind<TAB>query<TAB>files", path, n)
		}
		t, ok := trees[cols[0]]
		if !ok {
			return fmt.Errorf("%s:%d: no tree %q in corpora.tsv", path, n, cols[0])
		}
		q := mquery{corpus: cols[0], kind: cols[1], text: cols[2], source: source, relevant: map[string]bool{}}
		for _, r := range strings.Split(cols[3], ",") {
			r = strings.TrimSpace(r)
			if _, err := os.Stat(filepath.Join(t.dir, r)); err != nil {
				return fmt.Errorf("%s:%d: %s has no file %s", path, n, t.name, r)
			}
			q.relevant[r] = true
		}
		out = append(out, q)
		return nil
	})
	return out, err
}

// literalRank is the grep baseline: the files that hold the whole query
// (lower-cased) as a literal, by how many lines hold it, then by path.
func (c *corpus) literalRank(q string) []string {
	lit := []byte(strings.ToLower(q))
	type fc struct{ i, n int }
	var hits []fc
	for i, data := range c.lower {
		n := 0
		for off := 0; ; {
			j := bytes.Index(data[off:], lit)
			if j < 0 {
				break
			}
			n++
			end := bytes.IndexByte(data[off+j:], '\n')
			if end < 0 {
				break
			}
			off += j + end + 1
		}
		if n > 0 {
			hits = append(hits, fc{i, n})
		}
	}
	sort.Slice(hits, func(a, b int) bool {
		if hits[a].n != hits[b].n {
			return hits[a].n > hits[b].n
		}
		return c.paths[hits[a].i] < c.paths[hits[b].i]
	})
	var files []string
	for _, h := range hits[:min(len(hits), topFiles)] {
		files = append(files, c.paths[h.i])
	}
	return files
}

// coverBudgets are the token budgets of the coverage columns.
var coverBudgets = [3]int{500, 1000, 2000}

// mscore is one query's result.
type mscore struct {
	ndcg, grep float64
	cover      [3]float64
}

// rankCover runs the ranker for q: its file ranking's NDCG@10 and the
// share of targets with a chunk read within each budget.
func (c *corpus) rankCover(q *mquery, p *rank.Params) (ndcg float64, cover [3]float64, files []string) {
	hits := c.ix.Search(q.text, p, 200)
	seen := map[string]bool{}
	covered := [3]map[string]bool{{}, {}, {}}
	read := 0
	for _, h := range hits {
		read += (h.Chunk.EndByte - h.Chunk.StartByte + 3) / 4
		if q.relevant[h.Path] {
			for i, b := range coverBudgets {
				if read <= b {
					covered[i][h.Path] = true
				}
			}
		}
		if !seen[h.Path] && len(files) < topFiles {
			seen[h.Path] = true
			files = append(files, h.Path)
		}
	}
	for i := range cover {
		cover[i] = float64(len(covered[i])) / float64(len(q.relevant))
	}
	return ndcgAt(files, q.relevant), cover, files
}

func ndcgAt(files []string, rel map[string]bool) float64 {
	dcg, idcg := 0.0, 0.0
	for i := 0; i < min(len(rel), topFiles); i++ {
		idcg += 1 / math.Log2(float64(i+2))
	}
	for i, f := range files {
		if rel[f] {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	return dcg / idcg
}

// mrow sums the scores of a group of queries.
type mrow struct {
	n     int
	sum   mscore
	trees map[string]*mrow // per tree, for the mean of means
}

func (r *mrow) add(s mscore) {
	r.n++
	r.sum.ndcg += s.ndcg
	r.sum.grep += s.grep
	for i := range s.cover {
		r.sum.cover[i] += s.cover[i]
	}
}

func (r *mrow) mean() mscore {
	n := float64(max(r.n, 1))
	m := mscore{ndcg: r.sum.ndcg / n, grep: r.sum.grep / n}
	for i := range m.cover {
		m.cover[i] = r.sum.cover[i] / n
	}
	return m
}

// treeMean is the mean over trees of their means.
func (r *mrow) treeMean() mscore {
	var m mscore
	for _, t := range r.trees {
		tm := t.mean()
		m.ndcg += tm.ndcg
		m.grep += tm.grep
		for i := range m.cover {
			m.cover[i] += tm.cover[i]
		}
	}
	n := float64(max(len(r.trees), 1))
	m.ndcg, m.grep = m.ndcg/n, m.grep/n
	for i := range m.cover {
		m.cover[i] /= n
	}
	return m
}

// loadMulti reads the trees and their queries.
func loadMulti(dir string) ([]tree, []mquery, error) {
	trees, err := readTrees(dir, filepath.Join("bench", "rank", "corpora.tsv"))
	if err != nil {
		return nil, nil, err
	}
	byName := map[string]tree{}
	for _, t := range trees {
		byName[t.name] = t
	}
	var qs []mquery
	for _, f := range []struct{ path, source string }{{"multi.tsv", "hand"}, {"derived.tsv", "derived"}} {
		q, err := readMulti(filepath.Join("bench", "rank", f.path), f.source, byName)
		if err != nil && !(os.IsNotExist(err) && f.source == "derived") {
			return nil, nil, err
		}
		qs = append(qs, q...)
	}
	return trees, qs, nil
}

// runMulti scores the multi-language benchmark and prints its tables.
func runMulti(p *rank.Params, dir, only string, verbose, noGrep bool) error {
	trees, qs, err := loadMulti(dir)
	if err != nil {
		return err
	}
	noGrepLoad = noGrep
	corpora := map[string]*corpus{}
	lang := map[string]string{}
	for _, t := range trees {
		if corpora[t.name], err = loadCorpus(t.dir); err != nil {
			return err
		}
		lang[t.name] = t.lang
	}
	if sweepSpec != "" {
		return sweepMulti(p, qs, corpora, lang, only)
	}
	rows := map[string]*mrow{}
	addTo := func(k, corpus string, s mscore) {
		r := rows[k]
		if r == nil {
			r = &mrow{trees: map[string]*mrow{}}
			rows[k] = r
		}
		r.add(s)
		t := r.trees[corpus]
		if t == nil {
			t = &mrow{}
			r.trees[corpus] = t
		}
		t.add(s)
	}
	for i := range qs {
		q := &qs[i]
		sp := q.split()
		if only != "" && sp != only {
			continue
		}
		c := corpora[q.corpus]
		var s mscore
		var files []string
		s.ndcg, s.cover, files = c.rankCover(q, p)
		if !noGrep {
			s.grep = ndcgAt(c.literalRank(q.text), q.relevant)
		}
		for _, k := range []string{"all", "lang " + lang[q.corpus], "kind " + q.kind, "tree " + q.corpus, "source " + q.source} {
			addTo(sp+" "+k, q.corpus, s)
		}
		if verbose {
			fmt.Printf("%-4s %-20s %-12s ndcg %.2f grep %.2f cov %.2f/%.2f/%.2f  %q → %v (want %v)\n", sp, q.corpus, q.kind, s.ndcg, s.grep, s.cover[0], s.cover[1], s.cover[2], q.text, first(files, 3), keysOf(q.relevant))
		}
	}
	for _, sp := range []string{"dev", "test"} {
		if only != "" && sp != only {
			continue
		}
		fmt.Printf("\n%s split: file-level NDCG@10 of evgrep --rank and of grep (the whole query as one literal, files by count); targets covered within 500 / 1,000 / 2,000 tokens of the ranker's chunks\n\n", sp)
		fmt.Printf("| group | n | NDCG@10 rank | NDCG@10 grep | cov 500 | cov 1,000 | cov 2,000 |\n|---|---:|---:|---:|---:|---:|---:|\n")
		var keys []string
		for k := range rows {
			if strings.HasPrefix(k, sp+" ") {
				keys = append(keys, strings.TrimPrefix(k, sp+" "))
			}
		}
		sort.Slice(keys, func(a, b int) bool {
			ka, kb := groupOrder(keys[a]), groupOrder(keys[b])
			if ka != kb {
				return ka < kb
			}
			return keys[a] < keys[b]
		})
		for _, k := range keys {
			r := rows[sp+" "+k]
			m := r.mean()
			label := k
			switch {
			case k == "all":
				m, label = r.treeMean(), "overall (mean over trees)"
			case strings.HasPrefix(k, "lang "):
				m = r.treeMean()
			}
			fmt.Printf("| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f |\n", label, r.n, m.ndcg, m.grep, m.cover[0], m.cover[1], m.cover[2])
		}
	}
	return nil
}

func groupOrder(k string) int {
	for i, p := range []string{"all", "lang ", "kind ", "source ", "tree "} {
		if strings.HasPrefix(k, p) {
			return i
		}
	}
	return 9
}

// sweepMulti prints the dev NDCG@10 (overall: the mean over trees) for
// p and for each swept value, with the architecture queries', C's and
// the weakest other language's.
func sweepMulti(p *rank.Params, qs []mquery, corpora map[string]*corpus, lang map[string]string, only string) error {
	eval := func(p *rank.Params) string {
		sum, n := map[string]float64{}, map[string]int{}
		arch, na := 0.0, 0
		for i := range qs {
			q := &qs[i]
			if only != "" && q.split() != only {
				continue
			}
			s, _, _ := corpora[q.corpus].rankCover(q, p)
			sum[q.corpus] += s
			n[q.corpus]++
			if q.kind == "architecture" {
				arch += s
				na++
			}
		}
		tot := 0.0
		langSum, langN := map[string]float64{}, map[string]int{}
		for k := range sum {
			m := sum[k] / float64(n[k])
			tot += m
			langSum[lang[k]] += m
			langN[lang[k]]++
		}
		worst, worstLang := 2.0, ""
		for l, s := range langSum {
			if m := s / float64(langN[l]); l != "c" && m < worst {
				worst, worstLang = m, l
			}
		}
		return fmt.Sprintf("NDCG@10 %.4f architecture %.4f c %.4f weakest other %s %.4f", tot/float64(max(len(sum), 1)), arch/float64(max(na, 1)),
			langSum["c"]/float64(max(langN["c"], 1)), worstLang, worst)
	}
	fmt.Printf("base: %s (split %q)\n", eval(p), only)
	for _, spec := range strings.Split(sweepSpec, ",") {
		name, vals, _ := strings.Cut(spec, "=")
		for _, v := range strings.Split(vals, "|") {
			q := *p
			if err := setParams(&q, name+"="+v); err != nil {
				return err
			}
			fmt.Printf("%s=%s: %s\n", name, v, eval(&q))
		}
	}
	return nil
}
