package rank

import "encoding/binary"

// postLists holds a Builder's postings while documents are added: each
// term's bytes in a chain of blocks carved from large pages, blocks
// doubling in size from postBlockMin to postBlockMax bytes, and all of a
// term's state in one record (one cache line touched per posting). A
// slice per term that grew by doubling made half a million small
// objects for GOROOT/src (and eight bytes of garbage for each byte
// kept); the pages and records hold no pointers.
type postLists struct {
	pages [][]byte
	terms []postState
}

// postState is one term's: its document frequency, the last chunk in
// its postings, its first and current block (addresses: page <<
// postPageBits | offset, plus one; 0: none yet), its bytes, how full
// the current block is and that block's size.
type postState struct {
	df, last, head, tail, total uint32
	fill, size                  uint16
}

// grow makes room for terms 0..n-1.
func (p *postLists) grow(n int) {
	if k := n - len(p.terms); k > 0 {
		p.terms = append(p.terms, make([]postState, k)...)
	}
}

// reserve sets aside room for n terms.
func (p *postLists) reserve(n int) { p.terms = make([]postState, 0, n) }

// block returns the bytes of the block at address a (plus one).
func (p *postLists) block(a uint32, size uint16) []byte {
	a--
	return p.pages[a>>postPageBits][a&(1<<postPageBits-1):][:size]
}

// alloc carves a block of size bytes and returns its address plus one.
func (p *postLists) alloc(size uint16) uint32 {
	n := len(p.pages)
	if n == 0 || len(p.pages[n-1])+int(size) > cap(p.pages[n-1]) {
		p.pages = append(p.pages, make([]byte, 0, 1<<postPageBits))
		n++
	}
	pg := p.pages[n-1]
	a := uint32(n-1)<<postPageBits | uint32(len(pg))
	p.pages[n-1] = pg[:len(pg)+int(size)]
	return a + 1
}

// add appends b to term t's bytes.
func (p *postLists) add(t *postState, b []byte) {
	t.total += uint32(len(b))
	for len(b) > 0 {
		if t.tail == 0 || t.fill == t.size-4 {
			size := uint16(postBlockMin)
			if t.tail != 0 {
				size = min(2*t.size, postBlockMax)
			}
			a := p.alloc(size)
			if t.tail == 0 {
				t.head = a
			} else {
				binary.LittleEndian.PutUint32(p.block(t.tail, t.size), a)
			}
			t.tail, t.fill, t.size = a, 0, size
		}
		blk := p.block(t.tail, t.size)[4+t.fill:]
		k := min(len(blk), len(b))
		for i := 0; i < k; i++ {
			blk[i] = b[i]
		}
		t.fill += uint16(k)
		b = b[k:]
	}
}

// appendTo appends term t's bytes to dst.
func (p *postLists) appendTo(dst []byte, t *postState) []byte {
	left := t.total
	a, size := t.head, uint16(postBlockMin)
	for left > 0 {
		blk := p.block(a, size)
		k := min(uint32(size-4), left)
		dst = append(dst, blk[4:4+k]...)
		left -= k
		a, size = binary.LittleEndian.Uint32(blk), min(2*size, postBlockMax)
	}
	return dst
}
