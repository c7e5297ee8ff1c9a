package rank

import (
	"math"
	"sort"
	"strings"
)

// Index is an immutable BM25 index over the chunks of a set of files. It
// is safe for concurrent use.
type Index struct {
	files  []*FileDoc
	cats   []Category
	ptoks  [][]string // each file's path tokens (pathText), sorted
	chunks []chunkRef
	terms  map[string]int32
	post   [][]posting
	names  []string // term strings by id
	avgLen float64
	// Partial is set when files were left out (MaxFiles).
	Partial bool
}

type chunkRef struct {
	file, idx int32
	length    float32
}

type posting struct {
	chunk int32
	tf    uint32
}

// Build indexes docs (in any order; the index sorts them by path, and a
// path given twice keeps its first document). Term strings are shared
// between documents.
func Build(docs []*FileDoc) *Index {
	ix := &Index{terms: make(map[string]int32, 1<<16)}
	docs = append([]*FileDoc(nil), docs...)
	sort.SliceStable(docs, func(i, j int) bool { return docs[i].Path < docs[j].Path })
	total := 0.0
	for _, d := range docs {
		if len(ix.files) > 0 && ix.files[len(ix.files)-1].Path == d.Path {
			continue
		}
		if len(ix.files) >= MaxFiles {
			ix.Partial = true
			break
		}
		fi := int32(len(ix.files))
		ix.files = append(ix.files, d)
		ix.cats = append(ix.cats, Classify(d.Path, d.Generated))
		ix.ptoks = append(ix.ptoks, pathTokens(d.Path))
		for ci, tcs := range d.Terms {
			id := int32(len(ix.chunks))
			n := 0
			for k := range tcs {
				t, ok := ix.terms[tcs[k].Term]
				if !ok {
					t = int32(len(ix.post))
					ix.terms[tcs[k].Term] = t
					ix.post = append(ix.post, nil)
					ix.names = append(ix.names, tcs[k].Term)
				} else {
					tcs[k].Term = ix.names[t] // one string per term
				}
				ix.post[t] = append(ix.post[t], posting{id, tcs[k].N})
				n += int(tcs[k].N)
			}
			ix.chunks = append(ix.chunks, chunkRef{fi, int32(ci), float32(n)})
			total += float64(n)
		}
	}
	if len(ix.chunks) > 0 {
		ix.avgLen = total / float64(len(ix.chunks))
	}
	return ix
}

// Files is the number of indexed files; Chunks the number of chunks.
func (ix *Index) Files() int  { return len(ix.files) }
func (ix *Index) Chunks() int { return len(ix.chunks) }

// Doc returns the document of the file at path, or nil.
func (ix *Index) Doc(path string) *FileDoc {
	i := sort.Search(len(ix.files), func(i int) bool { return ix.files[i].Path >= path })
	if i < len(ix.files) && ix.files[i].Path == path {
		return ix.files[i]
	}
	return nil
}

// Hit is one ranked chunk.
type Hit struct {
	File  *FileDoc
	Chunk Chunk
	Score float64
}

// Search ranks the chunks for query with parameters p and returns at most
// limit hits (at most MaxResults), best first; equal scores are ordered by
// path, then line.
func (ix *Index) Search(query string, p *Params, limit int) []Hit {
	q := ParseQuery(query, p)
	return ix.rank(&q, p, limit, -1)
}

// Related ranks the chunks most similar to the chunk of the file at path
// that holds line: its RelatedTerms heaviest terms (by tf·idf) are the
// query, and the chunk itself is left out. ok is false when no chunk
// holds that line.
func (ix *Index) Related(path string, line int, p *Params, limit int) (from Hit, hits []Hit, ok bool) {
	fi := sort.Search(len(ix.files), func(i int) bool { return ix.files[i].Path >= path })
	if fi >= len(ix.files) || ix.files[fi].Path != path {
		return Hit{}, nil, false
	}
	d := ix.files[fi]
	ci := -1
	for i := range d.Chunks {
		if d.Chunks[i].StartLine <= line && line <= d.Chunks[i].EndLine {
			ci = i
			break
		}
	}
	if ci < 0 {
		return Hit{}, nil, false
	}
	type wt struct {
		t string
		w float64
	}
	var ws []wt
	for _, tc := range d.Terms[ci] {
		id, ok := ix.terms[tc.Term]
		if !ok {
			continue
		}
		w := (1 + math.Log(float64(tc.N))) * ix.idf(len(ix.post[id]))
		ws = append(ws, wt{tc.Term, w})
	}
	sort.Slice(ws, func(a, b int) bool { return ws[a].w > ws[b].w || ws[a].w == ws[b].w && ws[a].t < ws[b].t })
	if len(ws) > RelatedTerms {
		ws = ws[:RelatedTerms]
	}
	q := Query{words: map[string]bool{}}
	for _, w := range ws {
		q.Terms = append(q.Terms, QueryTerm{w.t, w.w / ws[0].w})
	}
	if c := d.Chunks[ci]; c.Name != "" {
		q.words[strings.ToLower(c.Name)] = true
	}
	self := -1
	for i := range ix.chunks {
		if ix.chunks[i].file == int32(fi) && ix.chunks[i].idx == int32(ci) {
			self = i
			break
		}
	}
	return Hit{File: d, Chunk: d.Chunks[ci]}, ix.rank(&q, p, limit, self), true
}

func (ix *Index) idf(df int) float64 {
	n := float64(len(ix.chunks))
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

type scored struct {
	chunk int32
	score float64
}

// rank scores the chunks for q: BM25, then the reranking factors of p.
func (ix *Index) rank(q *Query, p *Params, limit, skip int) []Hit {
	if limit <= 0 || limit > MaxResults {
		limit = MaxResults
	}
	if len(ix.chunks) == 0 || len(q.Terms) == 0 {
		return nil
	}
	score := make(map[int32]float64, 1024)
	// words: which query words (by index) each chunk holds, for coverage.
	held := make(map[int32]uint64, 1024)
	wordOf := q.wordIndex()
	for ti, qt := range q.Terms {
		id, ok := ix.terms[qt.Term]
		if !ok {
			continue
		}
		ps := ix.post[id]
		idf := ix.idf(len(ps)) * qt.Weight
		for _, pst := range ps {
			if int(pst.chunk) == skip {
				continue
			}
			tf := float64(pst.tf)
			norm := p.K1 * (1 - p.B + p.B*float64(ix.chunks[pst.chunk].length)/ix.avgLen)
			score[pst.chunk] += idf * tf * (p.K1 + 1) / (tf + norm)
			if w := wordOf[ti]; w >= 0 && w < 64 {
				held[pst.chunk] |= 1 << uint(w)
			}
		}
	}
	list := make([]scored, 0, len(score))
	for c, s := range score {
		list = append(list, scored{c, s})
	}
	ix.rerank(q, p, list, held)
	ix.sortScored(list)
	ix.diminish(p, list)
	if len(list) > limit {
		list = list[:limit]
	}
	hits := make([]Hit, len(list))
	for i, s := range list {
		cr := ix.chunks[s.chunk]
		d := ix.files[cr.file]
		hits[i] = Hit{File: d, Chunk: d.Chunks[cr.idx], Score: s.score}
	}
	return hits
}

// rerank applies coverage, definitions, file evidence and path priors.
func (ix *Index) rerank(q *Query, p *Params, list []scored, held map[int32]uint64) {
	nWords := q.wordCount()
	for i := range list {
		s := &list[i]
		cr := ix.chunks[s.chunk]
		c := &ix.files[cr.file].Chunks[cr.idx]
		if !q.Symbol && nWords >= 2 && p.Coverage != 0 {
			f := float64(popcount(held[s.chunk])) / float64(min(nWords, 64))
			s.score *= 1 + p.Coverage*f*f
		}
		if defines(c, q.Idents) {
			if q.Symbol {
				s.score *= 1 + p.DefineSymbol
			} else {
				s.score *= 1 + p.DefineNatural
			}
		}
	}
	if p.PathMatch != 0 && nWords > 0 {
		masks := make(map[int32]uint64, 256)
		for i := range list {
			s := &list[i]
			f := ix.chunks[s.chunk].file
			m, ok := masks[f]
			if !ok {
				m = q.pathMask(ix.ptoks[f])
				masks[f] = m
			}
			if m != 0 {
				s.score *= 1 + p.PathMatch*float64(popcount(m))/float64(min(nWords, 64))
			}
		}
	}
	if p.FileEvidence != 0 {
		type agg struct {
			sum float64
			n   int
		}
		files := make(map[int32]agg, len(list))
		for _, s := range list {
			f := ix.chunks[s.chunk].file
			a := files[f]
			a.sum += s.score
			a.n++
			files[f] = a
		}
		for i := range list {
			s := &list[i]
			a := files[ix.chunks[s.chunk].file]
			if a.n > 1 {
				add := p.FileEvidence * (a.sum - s.score) / math.Sqrt(float64(a.n-1))
				s.score += min(add, p.FileEvidenceCap*s.score)
			}
		}
	}
	for i := range list {
		s := &list[i]
		s.score *= p.prior(ix.cats[ix.chunks[s.chunk].file], q)
	}
}

// diminish multiplies the n-th chunk of each file by FileDecay^(n-1) and
// sorts again.
func (ix *Index) diminish(p *Params, list []scored) {
	if p.FileDecay == 1 {
		return
	}
	seen := make(map[int32]int, len(list))
	for i := range list {
		f := ix.chunks[list[i].chunk].file
		list[i].score *= math.Pow(p.FileDecay, float64(seen[f]))
		seen[f]++
	}
	ix.sortScored(list)
}

// sortScored orders by score, then path, then line: a total order.
func (ix *Index) sortScored(list []scored) {
	sort.Slice(list, func(a, b int) bool {
		x, y := list[a], list[b]
		if x.score != y.score {
			return x.score > y.score
		}
		cx, cy := ix.chunks[x.chunk], ix.chunks[y.chunk]
		if cx.file != cy.file {
			return cx.file < cy.file // files are sorted by path
		}
		return cx.idx < cy.idx
	})
}

// pathTokens are the sorted distinct tokens of a path's text.
func pathTokens(path string) []string {
	var out []string
	Tokens(pathText(path), func(t string, _ int) { out = append(out, t) })
	sort.Strings(out)
	k := 0
	for i, t := range out {
		if i == 0 || t != out[k-1] {
			out[k] = t
			k++
		}
	}
	return out[:k]
}

// pathMask is the set of query words (bits by word index) that a term of
// the path holds.
func (q *Query) pathMask(toks []string) uint64 {
	var m uint64
	words := q.wordIndex()
	for ti, qt := range q.Terms {
		w := words[ti]
		if w < 0 || w >= 64 || m&(1<<uint(w)) != 0 {
			continue
		}
		i := sort.SearchStrings(toks, qt.Term)
		if i < len(toks) && toks[i] == qt.Term {
			m |= 1 << uint(w)
		}
	}
	return m
}

// defines reports whether chunk c declares one of idents.
func defines(c *Chunk, idents []string) bool {
	if c.Cont || c.Name == "" || len(idents) == 0 {
		return false
	}
	name := strings.ToLower(c.Name)
	for _, id := range idents {
		if name == id {
			return true
		}
		// A Go group "a, b", a Rust "Trait for Type", a qualified name.
		for _, n := range strings.FieldsFunc(name, func(r rune) bool { return r == ',' || r == ' ' || r == '.' || r == ':' }) {
			if n == id {
				return true
			}
		}
	}
	return false
}

func popcount(x uint64) int {
	n := 0
	for x != 0 {
		x &= x - 1
		n++
	}
	return n
}
