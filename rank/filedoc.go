package rank

import (
	"bytes"
	"hash/maphash"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evgrep/evgrep/revisions"
)

// TermCount is one term of a chunk and how often it occurs there.
type TermCount struct {
	Term string
	N    uint32
}

// FileDoc is one file prepared for an index: its chunks and, for each
// chunk, its terms (the chunk's text, the container's signature and the
// file's path). A document made by hand lists them in Terms; NewFileDoc
// and Index.Doc keep them by number in a dictionary instead, and
// TermCounts gives them in either case.
type FileDoc struct {
	Path string // '/'-separated, as the index shows it
	Rev  revisions.Revision
	// Generated is set for a file whose head says it is generated ("Code
	// generated", "DO NOT EDIT", "@generated").
	Generated bool
	Chunks    []Chunk
	// Terms are the terms of each chunk, for a document made by hand
	// (nil when the document holds them by number).
	Terms [][]TermCount

	// The terms by number: chunk i's are the pairs k in ends[i-1]:ends[i]
	// (from 0 for the first) of term tids[k] of dict, tns[k] times. They
	// let Build number the terms with one map lookup per distinct term of
	// a dictionary, not one per pair.
	dict     *termDict
	dictLen  int      // how many terms dict had when the document was made
	dictTerm []string // dict's terms then (for a counter's dictionary)
	tids     []uint32
	tns      []uint32
	ends     []int32
}

// termDict is a dictionary of distinct terms by number: a term counter's
// (shared by every document it made, and which only grows: a document
// keeps the list as it was when it was made, whose elements later appends
// never change), a Builder's, which its DocMakers share (in shards), or a
// cached index's.
type termDict struct {
	terms []string
	ids   *runTable // term → id (a table without pointers: see runTable)
	ix    *Index    // terms are ix's (Index.Doc)
	// shards hold a shared dictionary's terms instead: term s is in
	// shard hash(s)>>(64-dictShardBits), with id its number there times
	// len(shards) plus the shard's, and each shard's mutex guards it (one
	// mutex for the dictionary was where the build's workers waited for
	// each other).
	shards []dictShard
	seed   maphash.Seed
	n      atomic.Int64 // the terms in all shards
}

// dictShard is one part of a shared dictionary.
type dictShard struct {
	mu    sync.Mutex
	terms []string
	ids   *runTable
	_     [24]byte // one cache line each
}

// lookup returns the id of term t, giving it one when it is new: the
// dictionary keeps s when it is t as a string, else a copy of t.
func (d *termDict) lookup(t []byte, s string) uint32 { return d.lookupHashed(t, s, d.hash(t)) }

// hash is the hash of term t in the dictionary's tables.
func (d *termDict) hash(t []byte) uint64 {
	if d.shards == nil {
		return d.ids.hash(t)
	}
	return maphash.Bytes(d.seed, t)
}

// lookupHashed is lookup of a term whose hash is h.
func (d *termDict) lookupHashed(t []byte, s string, h uint64) uint32 {
	keep := func() string {
		if s == "" {
			return string(t)
		}
		return s
	}
	if d.shards == nil {
		v, ok := d.ids.getHashed(t, h)
		if !ok {
			v = uint64(len(d.terms))
			d.ids.putHashed(t, h, v)
			d.terms = append(d.terms, keep())
		}
		return uint32(v)
	}
	k := h >> (64 - dictShardBits)
	sh := &d.shards[k]
	sh.mu.Lock()
	v, ok := sh.ids.getHashed(t, h)
	if !ok {
		v = uint64(len(sh.terms))<<dictShardBits | k
		sh.ids.putHashed(t, h, v)
		sh.terms = append(sh.terms, keep())
		d.n.Add(1)
	}
	sh.mu.Unlock()
	return uint32(v)
}

// idOf returns the id of term s, giving it the next one when it is new
// (s is kept: the caller's bytes must not change while it lives).
func (d *termDict) idOf(s string) uint32 { return d.lookup([]byte(s), s) }

// size is the number of terms.
func (d *termDict) size() int {
	if d.shards == nil {
		return len(d.terms)
	}
	return int(d.n.Load())
}

// term returns the term of id l.
func (d *termDict) term(l uint32) string {
	if d.shards == nil {
		return d.terms[l]
	}
	sh := &d.shards[l&(1<<dictShardBits-1)]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	return sh.terms[l>>dictShardBits]
}

// snapshot is the terms so far by id ("" for an id not given, in a shared
// dictionary).
func (d *termDict) snapshot() []string {
	if d.shards == nil {
		return d.terms
	}
	most := 0
	for k := range d.shards {
		d.shards[k].mu.Lock()
		most = max(most, len(d.shards[k].terms))
	}
	terms := make([]string, most<<dictShardBits)
	for k := range d.shards {
		for l, t := range d.shards[k].terms {
			terms[l<<dictShardBits|k] = t
		}
		d.shards[k].mu.Unlock()
	}
	return terms
}

// newTermDict makes a dictionary sized for hint terms, in shards when
// several goroutines share it.
func newTermDict(hint int, shared bool) *termDict {
	if !shared {
		return &termDict{ids: newRunTable(hint), terms: written(make([]string, hint))[:0]}
	}
	d := &termDict{shards: make([]dictShard, 1<<dictShardBits), seed: maphash.MakeSeed()}
	per := hint>>dictShardBits + 1
	for k := range d.shards {
		d.shards[k].ids = newRunTableHot(per, hotRuns>>dictShardBits, d.seed)
		d.shards[k].terms = written(make([]string, per))[:0]
	}
	return d
}

// termText returns term l of the document's dictionary.
func (d *FileDoc) termText(l uint32) string {
	if d.dict.ix != nil {
		return d.dict.ix.term(l)
	}
	if d.dict.shards != nil {
		return d.dict.term(l)
	}
	return d.dictTerm[l]
}

// TermCounts returns the terms of chunk i and how often each occurs.
func (d *FileDoc) TermCounts(i int) []TermCount {
	if d.Terms != nil || d.dict == nil {
		if i < len(d.Terms) {
			return d.Terms[i]
		}
		return nil
	}
	from := int32(0)
	if i > 0 {
		from = d.ends[i-1]
	}
	out := make([]TermCount, 0, d.ends[i]-from)
	for k := from; k < d.ends[i]; k++ {
		out = append(out, TermCount{d.termText(d.tids[k]), d.tns[k]})
	}
	return out
}

// generatedMarks are the markers of a generated file, looked for in its
// first generatedHead bytes.
var generatedMarks = [][]byte{[]byte("Code generated"), []byte("DO NOT EDIT"), []byte("@generated"), []byte("autogenerated")}

const generatedHead = 1024

// NewFileDoc chunks src (the bytes of revision rev of the file at path)
// and counts the terms of each chunk. A file over MaxFileBytes, or one
// with a NUL byte in its first 8 KiB (binary), gets no chunks.
func NewFileDoc(path string, rev revisions.Revision, src []byte) *FileDoc {
	tc := counters.Get().(*termCounter)
	defer counters.Put(tc)
	return tc.doc(path, rev, src)
}

// DocMaker makes documents as NewFileDoc does with a term counter of its
// own, kept from file to file: a goroutine that makes many documents
// (an index build's worker) holds one, so that its dictionary of tokens
// is made once, not again each time a pool drops its counter, and the
// index built numbers the terms of one dictionary per worker. A DocMaker
// is not safe for concurrent use.
type DocMaker struct{ tc termCounter }

// NewDocMaker returns a DocMaker sized for about files files.
func NewDocMaker(files int) *DocMaker {
	m := &DocMaker{}
	m.tc.hint = min(max(files, 1)*docMakerTermsPerFile, maxCounterTerms)
	return m
}

// Doc is NewFileDoc with m's term counter.
func (m *DocMaker) Doc(path string, rev revisions.Revision, src []byte) *FileDoc {
	return m.tc.doc(path, rev, src)
}

// doc is NewFileDoc with counter tc.
func (tc *termCounter) doc(path string, rev revisions.Revision, src []byte) *FileDoc {
	d := &FileDoc{Path: path, Rev: rev}
	if len(src) > MaxFileBytes || bytes.IndexByte(src[:min(len(src), 8192)], 0) >= 0 {
		return d
	}
	head := src[:min(len(src), generatedHead)]
	for _, m := range generatedMarks {
		if bytes.Contains(head, m) {
			d.Generated = true
		}
	}
	chunks := Split(path, src)
	if len(chunks) > MaxChunksPerFile {
		chunks = chunks[:MaxChunksPerFile]
	}
	d.Chunks = chunks
	tc.init(path)
	tc.tids, tc.tns = tc.tids[:0], tc.tns[:0]
	d.ends = make([]int32, len(chunks))
	for i := range chunks {
		c := &chunks[i]
		tc.count(c.Context, src[c.StartByte:c.EndByte])
		d.ends[i] = int32(len(tc.tids))
	}
	d.dict = tc.dict
	if tc.dict.shards == nil {
		// A shared dictionary's terms are read from it (termText).
		d.dictTerm = tc.dict.snapshot()
	}
	d.dictLen = tc.dict.size()
	d.tids, d.tns = slices.Clone(tc.tids), slices.Clone(tc.tns)
	return d
}

// counters hold the term counters of the goroutines that make FileDocs,
// so that each one's dictionary of the tokens seen serves file after file.
var counters = sync.Pool{New: func() any { return new(termCounter) }}

// termCounter counts the terms of the chunks of files. Every distinct
// token it has seen has an id in its dictionary and is allocated once; a
// chunk's counts go by id into n, with seen listing the ids in first-seen
// order.
type termCounter struct {
	z    tokenizer
	hint int // the distinct tokens a dictionary is first sized for (0: a default)
	dict *termDict
	// shared is the dictionary of the Builder the counter counts for
	// (nil: none), taken at the counter's first file; once it is over
	// its bound the counter goes on with dictionaries of its own.
	shared *termDict
	// runs remembers the tokens of each run of word characters seen (as
	// written, up to maxRunBytes): the ids of its whole and parts are
	// flat[off:off+n] for runs[w] = off<<32 | n, or the one id itself
	// for oneToken | id. Identifiers repeat, so
	// most runs cost one lookup instead of a split, lower-casing,
	// stemming and a lookup per token.
	runs *runTable
	// short holds the values of runs of one or two ASCII word
	// characters by shortRun's number (with shortKnown; 0: not seen).
	short *[shortRuns]uint64
	// tokens caches the ids of tokens looked up lately (id), by the low
	// bits of their hash in the dictionary.
	tokens *[counterTokens]hotRun
	flat   []uint32
	n      []uint32
	seen   []uint32
	path   []uint32 // the ids of the current file's path tokens
	// tids, tns: the (id, count) pairs of the current file's chunks.
	tids, tns []uint32
}

// init starts a file: it reads the tokens of its path text once.
func (c *termCounter) init(path string) {
	if c.dict == nil || c.dict.size() > maxCounterTerms || len(c.flat) > 4*maxCounterTerms {
		hint := 1 << 12
		if c.hint > 0 {
			hint = c.hint
		}
		if c.shared != nil && c.dict == nil {
			c.dict = c.shared
		} else {
			c.dict, c.shared = newTermDict(hint, false), nil
		}
		c.runs = newRunTable(hint)
		c.short = new([shortRuns]uint64)
		c.tokens = new([counterTokens]hotRun)
		c.n, c.flat = c.n[:0], c.flat[:0]
	}
	c.path = c.path[:0]
	c.z.run([]byte(pathText(path)), func(t []byte, _ int) { c.path = append(c.path, c.id(t)) })
}

// id returns the id of token t, giving it one when it is new. The
// counter's own cache of tokens (tokens) is looked at first: the tokens
// of new runs are mostly words it has seen (the parts of compounds), and
// a lookup in a dictionary that every worker shares (behind a lock, its
// lines written by each core in turn) was a sixth of a cold build.
func (c *termCounter) id(t []byte) uint32 {
	h := c.dict.hash(t)
	e := &c.tokens[h&(counterTokens-1)]
	if int(e.n) == len(t) && e.n != 0 && string(e.key[:e.n]) == string(t) {
		return uint32(e.v)
	}
	id := c.dict.lookupHashed(t, "", h)
	if len(t) <= hotRunBytes {
		e.v, e.n = uint64(id), uint8(len(t))
		copy(e.key[:], t)
	}
	if int(id) >= len(c.n) {
		// A shared dictionary's ids are given by every counter.
		c.n = append(c.n, make([]uint32, int(id)+1-len(c.n))...)
	}
	return id
}

// word counts the tokens of one run of word characters.
func (c *termCounter) word(w []byte) {
	k := shortRun(w)
	if k >= 0 && c.short[k] != 0 {
		if v := c.short[k] &^ shortKnown; v&oneToken != 0 {
			c.add(uint32(v))
		} else {
			for _, id := range c.flat[v>>32 : v>>32+v&(1<<32-1)] {
				c.add(id)
			}
		}
		return
	}
	if v, ok := c.runs.get(w); ok {
		if v&oneToken != 0 {
			c.add(uint32(v))
			return
		}
		for _, id := range c.flat[v>>32 : v>>32+v&(1<<32-1)] {
			c.add(id)
		}
		return
	}
	off := len(c.flat)
	c.z.word(w, func(t []byte, _ int) {
		id := c.id(t)
		c.flat = append(c.flat, id)
		c.add(id)
	})
	switch n := len(c.flat) - off; {
	case len(w) > maxRunBytes:
		c.flat = c.flat[:off]
	case n == 1:
		// Most runs are one token ("err", "return"): its id is the
		// value itself, with no read of flat (a memory access away).
		c.remember(k, w, oneToken|uint64(c.flat[off]))
		c.flat = c.flat[:off]
	default:
		c.remember(k, w, uint64(off)<<32|uint64(n))
	}
}

// remember keeps the value of run w, short run k (-1: not short).
func (c *termCounter) remember(k int, w []byte, v uint64) {
	if k >= 0 {
		c.short[k] = v | shortKnown
		return
	}
	c.runs.put(w, v)
}

// shortKnown marks a value in short (0 there is a run not seen yet).
const shortKnown = 1 << 62

// wordCode numbers the ASCII word characters from 1 (0: none).
var wordCode = func() (t [256]uint8) {
	n := uint8(0)
	for c := 0; c < 256; c++ {
		if c < 0x80 && (isASCIIAlnum(byte(c)) || c == '_') {
			n++
			t[c] = n
		}
	}
	return t
}()

// shortRuns is the size of a counter's table of short runs: one or two
// ASCII word characters (63 of them) numbered as shortRun does.
const shortRuns = 64 + 64*64

// shortRun is the number of a run of one or two ASCII word characters,
// or -1. Those runs ("i", "if", "x") are a large share of code's runs;
// a small array holds their values, without hashing them.
func shortRun(w []byte) int {
	switch len(w) {
	case 1:
		if a := wordCode[w[0]]; a != 0 {
			return int(a)
		}
	case 2:
		if a, b := wordCode[w[0]], wordCode[w[1]]; a != 0 && b != 0 {
			return 64 + int(a)*64 + int(b)
		}
	}
	return -1
}

// oneToken marks the value of a run of one token: its id is the low 32
// bits (flat's offsets stay below 1<<31: see init).
const oneToken = 1 << 63

func (c *termCounter) add(id uint32) {
	if c.n[id] == 0 {
		c.seen = append(c.seen, id)
	}
	c.n[id]++
}

// count appends to tids and tns the term ids and counts of one chunk, in
// first-seen order: the path's tokens, the container's signature and the
// chunk's own text.
func (c *termCounter) count(context string, text []byte) {
	c.seen = c.seen[:0]
	for _, id := range c.path {
		c.add(id)
	}
	if context != "" {
		eachRun([]byte(context), c.word)
	}
	eachRun(text, c.word)
	for _, id := range c.seen {
		c.tids = append(c.tids, id)
		c.tns = append(c.tns, c.n[id])
		c.n[id] = 0
	}
}

// countTerms counts the terms of one chunk: the file's path text, the
// container's signature and the chunk's own text.
func countTerms(path, context, text string) []TermCount {
	c := new(termCounter)
	c.init(path)
	c.count(context, []byte(text))
	out := make([]TermCount, len(c.tids))
	for i, id := range c.tids {
		out[i] = TermCount{c.dict.terms[id], c.tns[i]}
	}
	return out
}

// pathText is the part of a path that counts as text: its folders and
// its base name without the extension.
func pathText(p string) string {
	if i := strings.LastIndexByte(p, '.'); i > strings.LastIndexByte(p, '/')+1 {
		p = p[:i]
	}
	return p
}
