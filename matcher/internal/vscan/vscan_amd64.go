//go:build amd64 && !purego

package vscan

import "golang.org/x/sys/cpu"

var haveSIMD = cpu.X86.HasAVX2

// teddyScan tests the 32-position blocks starting at p+0, p+32, … up to
// p+limit; the caller guarantees that every offset of every position of
// those blocks is in bounds. It returns the start of the first block with
// a candidate and the candidates' bit mask (bit j: position pos+j), or
// the block start where it stopped and 0.
//
//go:noescape
func teddyScan(tables *[2 * Positions][32]byte, off *[Positions]int, p *byte, limit int) (pos int, mask uint32)

// trioScan is teddyScan for a Trio: set holds the two bytes allowed at
// offset a (low half) and the two at offset b (high half), setc the two
// at offset c.
//
//go:noescape
func trioScan(p *byte, limit, a, b, c int, set, setc uint32) (pos int, mask uint32)

// highScan is IndexHigh's vector part: the start of the first 32-byte
// block (n is a multiple of 32) holding a byte >= 0x80, or n.
//
//go:noescape
func highScan(p *byte, n int) int
