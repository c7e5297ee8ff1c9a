package rank

import (
	"encoding/binary"
	"math"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evgrep/evgrep/revisions"
)

// Index is an immutable BM25 index over the chunks of a set of files. Its
// term dictionary, postings and per-chunk term lists are flat byte blobs
// (the same bytes Encode writes), so a cached index is used as it is read
// back, without rebuilding. It is safe for concurrent use.
type Index struct {
	files []fileMeta
	// Each chunk's length in tokens and file; its lines, bytes, kind,
	// name and context are read on demand (chunk). A decoded index reads
	// the lengths in place from lens (uint32 each) and chunkLen is nil.
	chunkLen  []float32
	lens      []byte
	nChunks   int
	chunkFile []int32
	chunkRecs
	avgLen float64

	// termBlob holds the sorted terms back to back; term i is
	// termBlob[termOff[i]:termOff[i+1]].
	termBlob []byte
	termOff  offsets
	// postBlob holds term i's postings at postOff[i]:postOff[i+1]: the
	// number of chunks, then (chunk delta, count) varint pairs.
	postBlob []byte
	postOff  offsets
	// lazy holds what is made on first use, shared by the views.
	lazy *lazyParts
	// prefix is shown before every path (WithPathPrefix): "" or ending
	// in "/".
	prefix string

	// Partial is set when files were left out (MaxFiles).
	Partial bool
}

// lazyParts are the parts of an index made on first use.
type lazyParts struct {
	// fwd holds each chunk's terms, inverted from the postings on first
	// use (Doc, Related): (term id delta, count) varint pairs by term,
	// chunk c's at fwdOff[c]:fwdOff[c+1].
	fwdOnce sync.Once
	fwdBlob []byte
	fwdOff  []uint32
	// dict numbers the terms of the documents Doc rebuilds (made once).
	dictOnce sync.Once
	dict     *termDict

	// apiHeaders marks the headers of a C project (C or C++ headers and
	// no C++ source file) that are in folders without C sources: its
	// API's declarations (nil: none; made once, see headerPrior).
	cOnce      sync.Once
	apiHeaders []bool
	// cats holds each file's Category plus one (0: not classified yet).
	cats []atomic.Uint32
}

type fileMeta struct {
	path      string
	rev       revisions.Revision
	generated bool
	first, n  int32 // its chunks
}

// finish computes what is derived: the average chunk length.
func (ix *Index) finish(total float64) {
	if ix.lens == nil {
		ix.nChunks = len(ix.chunkLen)
	}
	if ix.nChunks > 0 {
		ix.avgLen = total / float64(ix.nChunks)
	}
	ix.lazy.cats = make([]atomic.Uint32, len(ix.files))
}

// WithPathPrefix returns a view of the index that shows every path with
// prefix + "/" before it (ix itself when prefix is ""): in hits, File and
// Lookup, and in the paths Related and Doc take. The ranking is the
// index's own, made from its shorter paths, so one cache of a folder
// ranks alike from every working folder it is shown from. The view shares
// everything with ix.
func (ix *Index) WithPathPrefix(prefix string) *Index {
	if prefix == "" {
		return ix
	}
	v := ix.view()
	v.prefix = prefix + "/"
	return v
}

// view is a shallow copy of ix (the lazily made parts are shared).
func (ix *Index) view() *Index {
	return &Index{files: ix.files, chunkLen: ix.chunkLen, lens: ix.lens, nChunks: ix.nChunks, chunkFile: ix.chunkFile, chunkRecs: ix.chunkRecs, avgLen: ix.avgLen, termBlob: ix.termBlob, termOff: ix.termOff,
		postBlob: ix.postBlob, postOff: ix.postOff, lazy: ix.lazy, prefix: ix.prefix, Partial: ix.Partial}
}

// chunkLength is chunk c's length in tokens.
func (ix *Index) chunkLength(c uint32) float64 {
	if ix.lens != nil {
		return float64(float32(binary.LittleEndian.Uint32(ix.lens[4*c:])))
	}
	return float64(ix.chunkLen[c])
}

// shown is file f's path as the index shows it.
func (ix *Index) shown(f *fileMeta) string { return ix.prefix + f.path }

// Files is the number of indexed files; Chunks the number of chunks.
func (ix *Index) Files() int  { return len(ix.files) }
func (ix *Index) Chunks() int { return ix.nChunks }

// FileInfo describes one indexed file.
type FileInfo struct {
	Path   string
	Rev    revisions.Revision
	Chunks int
}

// File returns the i-th file in path order (0 <= i < Files()).
func (ix *Index) File(i int) FileInfo {
	f := &ix.files[i]
	return FileInfo{ix.shown(f), f.rev, int(f.n)}
}

// Lookup returns the file at path.
func (ix *Index) Lookup(path string) (FileInfo, bool) {
	i := ix.fileIndex(path)
	if i < 0 {
		return FileInfo{}, false
	}
	return ix.File(i), true
}

// LookupNear is Lookup trying the file at position i first, and says
// where the file is: a caller going through sorted paths passes the
// position after the last one found.
func (ix *Index) LookupNear(path string, i int) (f FileInfo, at int, ok bool) {
	if i >= 0 && i < len(ix.files) && ix.shown(&ix.files[i]) == path {
		return ix.File(i), i, true
	}
	if i = ix.fileIndex(path); i < 0 {
		return FileInfo{}, -1, false
	}
	return ix.File(i), i, true
}

func (ix *Index) fileIndex(path string) int {
	path, ok := strings.CutPrefix(path, ix.prefix)
	if !ok {
		return -1
	}
	i := sort.Search(len(ix.files), func(i int) bool { return ix.files[i].path >= path })
	if i < len(ix.files) && ix.files[i].path == path {
		return i
	}
	return -1
}

// Doc rebuilds the document of the file at path (its chunks and terms),
// for a new index that keeps it; nil when the index has no such file.
func (ix *Index) Doc(path string) *FileDoc {
	i := ix.fileIndex(path)
	if i < 0 {
		return nil
	}
	f := &ix.files[i]
	lz := ix.lazy
	lz.dictOnce.Do(func() { lz.dict = &termDict{ix: ix} })
	d := &FileDoc{Path: ix.shown(f), Rev: f.rev, Generated: f.generated, dict: lz.dict, dictLen: ix.terms()}
	d.Chunks = make([]Chunk, f.n)
	d.ends = make([]int32, f.n)
	for k := int32(0); k < f.n; k++ {
		c := f.first + k
		d.Chunks[k] = ix.chunk(c)
		ix.chunkTerms(c, func(id uint32, n uint32) {
			d.tids = append(d.tids, id)
			d.tns = append(d.tns, n)
		})
		d.ends[k] = int32(len(d.tids))
	}
	return d
}

// term returns term id's text.
func (ix *Index) term(id uint32) string {
	return string(ix.termOff.span(ix.termBlob, int(id)))
}

// lookupTerm returns the id of t.
func (ix *Index) lookupTerm(t string) (uint32, bool) {
	n := ix.terms()
	i := sort.Search(n, func(i int) bool { return string(ix.termOff.span(ix.termBlob, i)) >= t })
	if i < n && string(ix.termOff.span(ix.termBlob, i)) == t {
		return uint32(i), true
	}
	return 0, false
}

// postings calls fn for each chunk holding term id; it returns the
// term's document frequency first (df), with fn nil.
func (ix *Index) df(id uint32) int {
	b := ix.postOff.span(ix.postBlob, int(id))
	n, _ := binary.Uvarint(b)
	return int(min(n, uint64(ix.nChunks)))
}

func (ix *Index) postings(id uint32, fn func(chunk, n uint32)) {
	b := ix.postOff.span(ix.postBlob, int(id))
	cnt, k := binary.Uvarint(b)
	if k <= 0 {
		return
	}
	b = b[k:]
	c := uint64(0)
	for i := uint64(0); i < cnt; i++ {
		d, k1 := binary.Uvarint(b)
		if k1 <= 0 {
			return
		}
		n, k2 := binary.Uvarint(b[k1:])
		if k2 <= 0 {
			return
		}
		b = b[k1+k2:]
		c += d
		if c >= uint64(ix.nChunks) {
			return // corrupt: the cache is checked, but never trusted
		}
		fn(uint32(c), uint32(min(n, math.MaxUint32)))
	}
}

// invert fills the forward lists from the postings (once).
func (ix *Index) invert() {
	lz := ix.lazy
	lz.fwdOnce.Do(func() {
		type tn struct{ id, n uint32 }
		lists := make([][]tn, ix.nChunks)
		for id := 0; id < ix.terms(); id++ {
			ix.postings(uint32(id), func(c, n uint32) { lists[c] = append(lists[c], tn{uint32(id), n}) })
		}
		lz.fwdOff = make([]uint32, 0, len(lists)+1)
		for _, l := range lists {
			lz.fwdOff = append(lz.fwdOff, uint32(len(lz.fwdBlob)))
			prev := uint32(0)
			for _, t := range l { // ids ascend: terms were visited in order
				lz.fwdBlob = binary.AppendUvarint(lz.fwdBlob, uint64(t.id-prev))
				lz.fwdBlob = binary.AppendUvarint(lz.fwdBlob, uint64(t.n))
				prev = t.id
			}
		}
		lz.fwdOff = append(lz.fwdOff, uint32(len(lz.fwdBlob)))
	})
}

// chunkTerms calls fn for each term of chunk c.
func (ix *Index) chunkTerms(c int32, fn func(id, n uint32)) {
	ix.invert()
	lz := ix.lazy
	b := lz.fwdBlob[lz.fwdOff[c]:lz.fwdOff[c+1]]
	id := uint64(0)
	nTerms := uint64(ix.terms())
	for len(b) > 0 {
		d, k1 := binary.Uvarint(b)
		if k1 <= 0 {
			return
		}
		n, k2 := binary.Uvarint(b[k1:])
		if k2 <= 0 {
			return
		}
		b = b[k1+k2:]
		id += d
		if id >= nTerms {
			return
		}
		fn(uint32(id), uint32(min(n, math.MaxUint32)))
	}
}

// Hit is one ranked chunk.
type Hit struct {
	Path  string
	Rev   revisions.Revision
	Chunk Chunk
	Score float64
}

// Search ranks the chunks for query with parameters p and returns at most
// limit hits (at most MaxResults), best first; equal scores are ordered by
// path, then line.
func (ix *Index) Search(query string, p *Params, limit int) []Hit {
	q := ParseQuery(query, p)
	ix.compounds(&q, p)
	ix.abbreviations(&q, p)
	return ix.rank(&q, p, limit, -1)
}

// Related ranks the chunks most similar to the chunk of the file at path
// that holds line: its RelatedTerms heaviest terms (by tf·idf) are the
// query, and the chunk itself is left out. ok is false when no chunk
// holds that line.
func (ix *Index) Related(path string, line int, p *Params, limit int) (from Hit, hits []Hit, ok bool) {
	fi := ix.fileIndex(path)
	if fi < 0 {
		return Hit{}, nil, false
	}
	f := &ix.files[fi]
	self := int32(-1)
	for c := f.first; c < f.first+f.n; c++ {
		if ch := ix.chunk(c); ch.StartLine <= line && line <= ch.EndLine {
			self = c
			break
		}
	}
	if self < 0 {
		return Hit{}, nil, false
	}
	type wt struct {
		id uint32
		w  float64
	}
	var ws []wt
	ix.chunkTerms(self, func(id, n uint32) {
		ws = append(ws, wt{id, (1 + math.Log(float64(n))) * ix.idf(ix.df(id))})
	})
	sort.Slice(ws, func(a, b int) bool { return ws[a].w > ws[b].w || ws[a].w == ws[b].w && ws[a].id < ws[b].id })
	if len(ws) > RelatedTerms {
		ws = ws[:RelatedTerms]
	}
	q := Query{words: map[string]bool{}}
	for _, w := range ws {
		q.Terms = append(q.Terms, QueryTerm{ix.term(w.id), w.w / ws[0].w})
	}
	return Hit{Path: ix.shown(f), Rev: f.rev, Chunk: ix.chunk(self)}, ix.rank(&q, p, limit, self), true
}

func (ix *Index) idf(df int) float64 {
	n := float64(ix.nChunks)
	return math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
}

// termAcc is what the query's terms gave one chunk: its BM25 score and
// the query words it holds (bits by word index).
type termAcc struct {
	score float64
	held  uint64
}

type scored struct {
	chunk int32
	score float64
}

// rank scores the chunks for q: BM25, then the reranking factors of p.
func (ix *Index) rank(q *Query, p *Params, limit int, skip int32) []Hit {
	if limit <= 0 || limit > MaxResults {
		limit = MaxResults
	}
	if ix.nChunks == 0 || len(q.Terms) == 0 {
		return nil
	}
	// Each chunk a query term meets gets a slot (slot[c]-1) in acc, its
	// score and the query words it holds: one dense table of 4 bytes a
	// chunk instead of two of 8 (GOROOT/src has 188,266 chunks, a query
	// meets a fraction of them).
	slot := make([]int32, ix.nChunks)
	var acc []termAcc
	var touched []int32
	wordOf := q.wordBits()
	b := p.lengthNorm(q)
	for ti, qt := range q.Terms {
		id, ok := ix.lookupTerm(qt.Term)
		if !ok {
			continue
		}
		idf := ix.idf(ix.df(id)) * qt.Weight
		bit := wordOf[ti]
		ix.postings(id, func(c, n uint32) {
			if int32(c) == skip {
				return
			}
			tf := float64(n)
			norm := p.K1 * (1 - b + b*ix.chunkLength(c)/ix.avgLen)
			k := slot[c]
			if k == 0 {
				acc = append(acc, termAcc{})
				k = int32(len(acc))
				slot[c] = k
			}
			a := &acc[k-1]
			if a.score == 0 {
				touched = append(touched, int32(c))
			}
			a.score += idf * tf * (p.K1 + 1) / (tf + norm)
			a.held |= bit
		})
	}
	held := func(c int32) uint64 { return acc[slot[c]-1].held }
	list := make([]scored, 0, len(touched))
	for _, c := range touched {
		if sc := acc[slot[c]-1].score; sc > 0 {
			list = append(list, scored{c, sc})
		}
	}
	ix.rerank(q, p, list, held)
	list = ix.top(list, max(limit*rerankDepth, minRerank))
	ix.nameEvidence(q, p, list)
	ix.diminish(p, list)
	if len(list) > limit {
		list = list[:limit]
	}
	hits := make([]Hit, len(list))
	for i, s := range list {
		f := &ix.files[ix.chunkFile[s.chunk]]
		hits[i] = Hit{Path: ix.shown(f), Rev: f.rev, Chunk: ix.chunk(s.chunk), Score: s.score}
	}
	return hits
}

// The diminishing returns reorder the best limit·rerankDepth chunks (at
// least minRerank), sorted first.
const (
	rerankDepth = 10
	minRerank   = 1000
)

// top returns the best n of list, sorted.
func (ix *Index) top(list []scored, n int) []scored {
	if len(list) > 4*n {
		// A cut at the n-th best score first, so the sort is short.
		scores := make([]float64, len(list))
		for i, s := range list {
			scores[i] = s.score
		}
		cut := nthSmallest(scores, len(scores)-n)
		k := 0
		for _, s := range list {
			if s.score >= cut {
				list[k] = s
				k++
			}
		}
		list = list[:k]
	}
	ix.sortScored(list)
	if len(list) > n {
		list = list[:n]
	}
	return list
}

// rerank applies coverage, definitions, path and file evidence and the
// path priors.
func (ix *Index) rerank(q *Query, p *Params, list []scored, held func(chunk int32) uint64) {
	nWords := q.wordCount()
	for i := range list {
		s := &list[i]
		if !q.Symbol && nWords >= 2 && p.Coverage != 0 {
			f := float64(popcount(held(s.chunk))) / float64(min(nWords, 64))
			s.score *= 1 + p.Coverage*f*f
		}
		if len(q.Idents) == 0 {
			continue // no name to read (a tenth of a warm query went to reading them)
		}
		if c := ix.nameOf(s.chunk); defines(&c, q.Idents) {
			if q.Symbol {
				s.score *= 1 + p.DefineSymbol
			} else {
				s.score *= 1 + p.DefineNatural
			}
		}
	}
	if p.PathMatch != 0 && nWords > 0 {
		masks := make(map[int32]uint64, 256)
		pm := newPathMasker(q)
		for i := range list {
			s := &list[i]
			f := ix.chunkFile[s.chunk]
			m, ok := masks[f]
			if !ok {
				// The path's tokens, for the candidates' files only:
				// tokenizing every path of a large index on load cost
				// a tenth of a warm query.
				m = pm.mask(ix.files[f].path)
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
			f := ix.chunkFile[s.chunk]
			a := files[f]
			a.sum += s.score
			a.n++
			files[f] = a
		}
		for i := range list {
			s := &list[i]
			a := files[ix.chunkFile[s.chunk]]
			if a.n > 1 {
				add := p.FileEvidence * (a.sum - s.score) / math.Sqrt(float64(a.n-1))
				s.score += min(add, p.FileEvidenceCap*s.score)
			}
		}
	}
	for i := range list {
		s := &list[i]
		s.score *= p.prior(ix.category(ix.chunkFile[s.chunk]), q)
	}
	ix.headerPrior(q, p, list)
}

// diminish multiplies the n-th chunk of each file by FileDecay^(n-1) and
// sorts again.
func (ix *Index) diminish(p *Params, list []scored) {
	if p.FileDecay == 1 {
		return
	}
	seen := make(map[int32]int, len(list))
	for i := range list {
		f := ix.chunkFile[list[i].chunk]
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
		return x.chunk < y.chunk // chunks are in path, then line order
	})
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
