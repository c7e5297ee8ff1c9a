package rank

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"
)

// Build indexes docs (in any order; the index sorts them by path, and a
// path given twice keeps its first document).
func Build(docs []*FileDoc) *Index {
	docs = append([]*FileDoc(nil), docs...)
	sort.SliceStable(docs, func(i, j int) bool { return docs[i].Path < docs[j].Path })
	ix := &Index{lazy: &lazyParts{}}
	var kept []*FileDoc
	for _, d := range docs {
		if len(ix.files) > 0 && ix.files[len(ix.files)-1].path == d.Path {
			continue
		}
		if len(ix.files) >= MaxFiles {
			ix.Partial = true
			break
		}
		fi := int32(len(ix.files))
		ix.files = append(ix.files, fileMeta{path: d.Path, rev: d.Rev, generated: d.Generated, first: int32(len(ix.built)), n: int32(len(d.Chunks))})
		for range d.Chunks {
			ix.chunkFile = append(ix.chunkFile, fi)
		}
		ix.built = append(ix.built, d.Chunks...)
		kept = append(kept, d)
	}
	// Terms get ids in first-seen order. A document that holds its terms
	// by number (NewFileDoc, Index.Doc) is numbered through a table from
	// its dictionary's numbers to the index's, filled once per distinct
	// term; a document made by hand looks each term up. The postings are
	// then laid out in sorted term order in two more passes over the
	// documents (their sizes, then their bytes), so that no list of all
	// the (chunk, term) pairs is ever held beside the documents.
	ix.chunkLen = make([]float32, len(ix.built))
	nb := &numbering{ids: make(map[string]uint32, 1<<14), remaps: map[*termDict][]uint32{}}
	var df []uint32
	total := 0.0
	nb.each(kept, func(c int, id, n uint32) {
		if int(id) == len(df) {
			df = append(df, 0)
		}
		df[id]++
		ix.chunkLen[c] += float32(n)
		total += float64(n)
	})
	terms := nb.terms
	df = append(df, make([]uint32, len(terms)-len(df))...)
	order := make([]uint32, len(terms)) // sorted position → id
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortFunc(order, func(a, b uint32) int { return strings.Compare(terms[a], terms[b]) })
	// Sizes: each term's postings are its count, then (chunk delta,
	// count) varint pairs.
	size := make([]int, len(terms))
	last := make([]uint32, len(terms))
	for id := range size {
		size[id] = uvarintLen(uint64(df[id]))
	}
	nb.each(kept, func(c int, id, n uint32) {
		size[id] += uvarintLen(uint64(uint32(c)-last[id])) + uvarintLen(uint64(n))
		last[id] = uint32(c)
	})
	// at[id] is where term id's next bytes go.
	at := make([]int, len(terms))
	ix.termOff = make(offsets, 0, 4*(len(terms)+1))
	ix.postOff = make(offsets, 0, 4*(len(terms)+1))
	blob := 0
	for _, id := range order {
		t := terms[id]
		ix.termOff = ix.termOff.add(len(ix.termBlob))
		ix.termBlob = append(ix.termBlob, t...)
		ix.postOff = ix.postOff.add(blob)
		at[id] = blob
		blob += size[id]
	}
	ix.postBlob = make([]byte, blob)
	for id := range at {
		at[id] += binary.PutUvarint(ix.postBlob[at[id]:], uint64(df[id]))
		last[id] = 0
	}
	nb.each(kept, func(c int, id, n uint32) {
		at[id] += binary.PutUvarint(ix.postBlob[at[id]:], uint64(uint32(c)-last[id]))
		at[id] += binary.PutUvarint(ix.postBlob[at[id]:], uint64(n))
		last[id] = uint32(c)
	})
	ix.termOff = ix.termOff.add(len(ix.termBlob))
	ix.postOff = ix.postOff.add(len(ix.postBlob))
	ix.finish(total)
	return ix
}

// numbering gives the terms of an index's documents their ids, in
// first-seen order (see Build).
type numbering struct {
	ids    map[string]uint32
	terms  []string
	remaps map[*termDict][]uint32 // dictionary number → index id + 1 (0: none yet)
}

func (nb *numbering) idOf(t string) uint32 {
	id, ok := nb.ids[t]
	if !ok {
		id = uint32(len(nb.terms))
		nb.ids[t] = id
		nb.terms = append(nb.terms, t)
	}
	return id
}

// each calls fn with every (chunk, term id, count) of docs, chunk by chunk
// in order (chunks numbered from 0 across docs); the same calls every
// time.
func (nb *numbering) each(docs []*FileDoc, fn func(c int, id, n uint32)) {
	c := 0
	for _, d := range docs {
		if d.dict == nil {
			for i := range d.Chunks {
				if i < len(d.Terms) {
					for _, tc := range d.Terms[i] {
						fn(c, nb.idOf(tc.Term), tc.N)
					}
				}
				c++
			}
			continue
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
