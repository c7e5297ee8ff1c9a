package rank

import (
	"encoding/binary"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Build indexes docs (in any order; the index sorts them by path, and a
// path given twice keeps its first document).
func Build(docs []*FileDoc) *Index {
	docs = append([]*FileDoc(nil), docs...)
	sort.SliceStable(docs, func(i, j int) bool { return docs[i].Path < docs[j].Path })
	b := NewBuilder()
	for _, d := range docs {
		b.Add(d)
	}
	return b.Index()
}

// Builder makes an index from documents given one at a time in path
// order, keeping of each only its chunks and its postings' bytes: a build
// holds a few documents at a time, not all of them (Build holds them all).
// Its index is the one Build makes of the same documents.
type Builder struct {
	ix    *Index
	nb    *numbering
	post  postLists // term id → its df and (chunk delta, count) varint pairs
	total float64
	done  bool
}

// NewBuilder starts an empty index.
func NewBuilder() *Builder { return NewBuilderFor(0) }

// NewBuilderFor starts an empty index whose dictionary is sized for
// about files files (growing it step by step was a twentieth of a cold
// GOROOT/src build).
func NewBuilderFor(files int) *Builder {
	hint := min(max(files*docMakerTermsPerFile, 1<<14), maxCounterTerms)
	b := &Builder{ix: &Index{lazy: &lazyParts{}}, nb: &numbering{dict: newTermDict(hint, true), remaps: map[*termDict][]uint32{}}}
	if files > 0 {
		// Sized as the dictionary is, and the tables of files and chunks
		// for files of about builderChunksPerFile chunks.
		files = min(files, MaxFiles)
		chunks := files * builderChunksPerFile
		b.post.reserve(hint)
		// The tables of pointers are written first (written): appending
		// to them in a collection reads the old values.
		b.ix.files = written(make([]fileMeta, files))[:0]
		b.ix.built, b.ix.chunkFile, b.ix.chunkLen = written(make([]Chunk, chunks))[:0], make([]int32, 0, chunks), make([]float32, 0, chunks)
	}
	return b
}

// DocMaker returns a DocMaker (sized for about files files) that numbers
// its documents' terms in b's own dictionary, which every DocMaker of b
// shares: b then indexes them without renumbering their terms, and the
// build holds one dictionary, not one per worker. It is safe to call, and
// to use each DocMaker it returns, beside b's other DocMakers and Add.
func (b *Builder) DocMaker(files int) *DocMaker {
	m := NewDocMaker(files)
	m.tc.shared = b.nb.dict
	return m
}

// Add indexes d after the documents before it. Paths must ascend: one
// equal to the last document's is left out (the first is kept), as are
// documents beyond MaxFiles (the index is then partial). Add keeps no
// reference to d's terms.
func (b *Builder) Add(d *FileDoc) {
	ix := b.ix
	if b.done || len(ix.files) > 0 && ix.files[len(ix.files)-1].path == d.Path {
		return
	}
	if len(ix.files) >= MaxFiles {
		ix.Partial = true
		return
	}
	fi := int32(len(ix.files))
	c0 := len(ix.built)
	ix.files = append(ix.files, fileMeta{path: d.Path, rev: d.Rev, generated: d.Generated, first: int32(c0), n: int32(len(d.Chunks))})
	for range d.Chunks {
		ix.chunkFile = append(ix.chunkFile, fi)
		ix.chunkLen = append(ix.chunkLen, 0)
	}
	ix.built = append(ix.built, d.Chunks...)
	// Terms get ids as the dictionary gives them (the DocMakers' first
	// seen, in any order); the postings are laid out in sorted term order
	// at the end, of the terms that have any.
	b.nb.eachOf(d, c0, func(c int, id, n uint32) {
		if int(id) >= len(b.post.terms) {
			b.post.grow(int(id) + 1)
		}
		t := &b.post.terms[id]
		t.df++
		var pair [2 * binary.MaxVarintLen32]byte
		k := binary.PutUvarint(pair[:], uint64(uint32(c)-t.last))
		k += binary.PutUvarint(pair[k:], uint64(n))
		b.post.add(t, pair[:k])
		t.last = uint32(c)
		ix.chunkLen[c] += float32(n)
		b.total += float64(n)
	})
}

// Index finishes the index; the builder takes no more documents.
func (b *Builder) Index() *Index {
	ix := b.ix
	if b.done {
		return ix
	}
	b.done = true
	// The chunk records a cache holds (Encode) are made beside the sort.
	recsDone := make(chan struct{})
	go func() {
		defer close(recsDone)
		rw := newRecordWriter(len(ix.built))
		for c := range ix.built {
			rw.add(&ix.built[c])
		}
		ix.recs, ix.strOff, ix.strs = rw.recs, rw.strOff, rw.strs
	}()
	terms := b.nb.dict.snapshot()
	// A shared dictionary may hold terms of documents never added (their
	// build was cancelled, or they were left out): only the terms of some
	// posting are the index's.
	order := make([]uint32, 0, len(b.post.terms)) // sorted position → id
	for id := range b.post.terms {
		if b.post.terms[id].df > 0 {
			order = append(order, uint32(id))
		}
	}
	sortTerms(terms, order)
	size := 0
	for _, id := range order {
		size += int(b.post.terms[id].total)
	}
	parts := min(max(size/parallelLayoutBytes, 1), runtime.GOMAXPROCS(0))
	ix.termOff, ix.postOff, ix.termBlob, ix.postBlob = b.layout(terms, order, parts)
	if ix.chunkLen == nil {
		ix.chunkLen = []float32{}
	}
	<-recsDone
	ix.finish(b.total)
	b.nb, b.post = nil, postLists{}
	return ix
}

// layout lays out the terms of ids order (sorted) and their postings, each
// term's its count then its pairs. The offsets are summed first; the
// bytes are then copied in parts (of about equal postings bytes) at
// once: reading each term's chain of blocks and faulting in the new
// tables was most of the serial end of a build.
func (b *Builder) layout(terms []string, order []uint32, parts int) (termOff, postOff offsets, termBlob, postBlob []byte) {
	termOff, postOff = make(offsets, 4*(len(order)+1)), make(offsets, 4*(len(order)+1))
	tsize, psize := 0, 0
	for k, id := range order {
		binary.LittleEndian.PutUint32(termOff[4*k:], uint32(tsize))
		binary.LittleEndian.PutUint32(postOff[4*k:], uint32(psize))
		t := &b.post.terms[id]
		tsize += len(terms[id])
		psize += uvarintLen(uint64(t.df)) + int(t.total)
	}
	binary.LittleEndian.PutUint32(termOff[4*len(order):], uint32(tsize))
	binary.LittleEndian.PutUint32(postOff[4*len(order):], uint32(psize))
	termBlob, postBlob = make([]byte, tsize), make([]byte, psize)
	fill := func(lo, hi int) {
		for k := lo; k < hi; k++ {
			id := order[k]
			copy(termBlob[termOff.at(k):], terms[id])
			t := &b.post.terms[id]
			at, end := postOff.at(k), postOff.at(k+1)
			at += uint32(binary.PutUvarint(postBlob[at:end], uint64(t.df)))
			// In place: the slice has room for exactly the term's bytes.
			b.post.appendTo(postBlob[at:at:end], t)
		}
	}
	var wg sync.WaitGroup
	lo := 0
	for p := 1; p <= parts; p++ {
		// Parts of about equal postings bytes.
		hi := sort.Search(len(order), func(k int) bool { return int(postOff.at(k)) >= p*psize/parts })
		if p == parts {
			hi = len(order)
		}
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fill(lo, hi)
		}(lo, hi)
		lo = hi
	}
	wg.Wait()
	return termOff, postOff, termBlob, postBlob
}

// numbering gives the terms of an index's documents their ids in its
// dictionary: a document of that dictionary (a DocMaker of the Builder's)
// has them already; another's are looked up once per term of its
// dictionary.
type numbering struct {
	dict   *termDict
	remaps map[*termDict][]uint32 // dictionary number → index id + 1 (0: none yet)
}

func (nb *numbering) idOf(t string) uint32 { return nb.dict.idOf(t) }

// eachOf calls fn with every (chunk, term id, count) of d, chunk by
// chunk in order, its chunks numbered from c0.
func (nb *numbering) eachOf(d *FileDoc, c0 int, fn func(c int, id, n uint32)) {
	c := c0
	if d.dict == nil {
		for i := range d.Chunks {
			if i < len(d.Terms) {
				for _, tc := range d.Terms[i] {
					fn(c, nb.idOf(tc.Term), tc.N)
				}
			}
			c++
		}
		return
	}
	if d.dict == nb.dict {
		from := int32(0)
		for i := range d.Chunks {
			if i < len(d.ends) {
				for k := from; k < d.ends[i]; k++ {
					fn(c, d.tids[k], d.tns[k])
				}
				from = d.ends[i]
			}
			c++
		}
		return
	}
	remap := nb.remaps[d.dict]
	if len(remap) < d.dictLen {
		remap = append(remap, make([]uint32, d.dictLen-len(remap))...)
		nb.remaps[d.dict] = remap
	}
	from := int32(0)
	for i := range d.Chunks {
		if i < len(d.ends) {
			for k := from; k < d.ends[i]; k++ {
				l := d.tids[k]
				g := remap[l]
				if g == 0 {
					g = nb.idOf(d.termText(l)) + 1
					remap[l] = g
				}
				fn(c, g-1, d.tns[k])
			}
			from = d.ends[i]
		}
		c++
	}
}

// uvarintLen is the length of x as binary.PutUvarint writes it.
func uvarintLen(x uint64) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// sortTerms sorts ids by their terms. It is the last serial step of a
// build, after every document is read, so it sorts by each term's first
// eight bytes as one number, with a radix sort for many terms (a
// comparison sort of GOROOT/src's half a million took about 90 ms on two
// cores), then each run of terms that share those bytes by their next
// eight, and only then by the full terms.
func sortTerms(terms []string, ids []uint32) {
	keys := make([]termKey, len(ids))
	for i, id := range ids {
		keys[i] = termKey{prefixAt(terms[id], 0), id}
	}
	sortKeys(terms, keys, 0)
	for i, k := range keys {
		ids[i] = k.id
	}
}

// sortKeys sorts keys, whose prefixes are their terms' eight bytes from
// at (the bytes before are the same in all), by their terms.
func sortKeys(terms []string, keys []termKey, at int) {
	cmp := func(a, b termKey) int {
		if a.prefix != b.prefix {
			if a.prefix < b.prefix {
				return -1
			}
			return 1
		}
		return strings.Compare(terms[a.id], terms[b.id])
	}
	if len(keys) < radixSortTerms {
		slices.SortFunc(keys, cmp)
		return
	}
	radixSort(keys)
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j].prefix == keys[i].prefix {
			j++
		}
		if j-i > 1 && at == 0 {
			for k := i; k < j; k++ {
				keys[k].prefix = prefixAt(terms[keys[k].id], 8)
			}
			sortKeys(terms, keys[i:j], 8)
		} else if j-i > 1 {
			slices.SortFunc(keys[i:j], cmp)
		}
		i = j
	}
}

// prefixAt is the eight bytes of s from at, big-endian, zero-padded.
func prefixAt(s string, at int) uint64 {
	if len(s) >= at+8 {
		s = s[at : at+8]
		return uint64(s[0])<<56 | uint64(s[1])<<48 | uint64(s[2])<<40 | uint64(s[3])<<32 |
			uint64(s[4])<<24 | uint64(s[5])<<16 | uint64(s[6])<<8 | uint64(s[7])
	}
	var p uint64
	for k := 0; k < 8; k++ {
		p <<= 8
		if at+k < len(s) {
			p |= uint64(s[at+k])
		}
	}
	return p
}

// termKey is a term's first eight bytes (big-endian, zero-padded) and id.
type termKey struct {
	prefix uint64
	id     uint32
}

// radixSort sorts keys by prefix, least significant radixBits first
// (stable passes, each a count and a scatter); a pass whose digit is the
// same in every key is skipped.
func radixSort(keys []termKey) {
	tmp := make([]termKey, len(keys))
	src, dst := keys, tmp
	var count [1 << radixBits]int
	for shift := uint(0); shift < 64; shift += radixBits {
		clear(count[:])
		for _, k := range src {
			count[k.prefix>>shift&(1<<radixBits-1)]++
		}
		if count[src[0].prefix>>shift&(1<<radixBits-1)] == len(src) {
			continue
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, k := range src {
			d := k.prefix >> shift & (1<<radixBits - 1)
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}
