package gitrev

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// Pack object types, as a pack entry's header gives them.
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOFSDelta = 6
	packREFDelta = 7
)

// packIndex is a pack's .idx file (version 1 or 2), held in memory.
type packIndex struct {
	fanout [256]uint32
	n      int
	v2     bool
	data   []byte // the whole file
	names  int    // offset of the first object name
	offs   int    // offset of the 32-bit offsets (v2)
	large  int    // offset of the 64-bit offsets (v2)
	nLarge int
}

// parseIndex checks and decodes an .idx file's layout.
func parseIndex(data []byte) (*packIndex, error) {
	x := &packIndex{data: data}
	fan := 0
	if len(data) >= 8 && bytes.Equal(data[:4], []byte{0xff, 't', 'O', 'c'}) {
		if v := binary.BigEndian.Uint32(data[4:8]); v != 2 {
			return nil, fmt.Errorf("pack index version %d is not supported", v)
		}
		x.v2, fan = true, 8
	}
	if len(data) < fan+256*4+40 {
		return nil, errors.New("pack index is truncated")
	}
	prev := uint32(0)
	for i := range 256 {
		v := binary.BigEndian.Uint32(data[fan+4*i:])
		if v < prev {
			return nil, errors.New("pack index fan-out is not sorted")
		}
		x.fanout[i], prev = v, v
	}
	if prev > maxPackObjects {
		return nil, fmt.Errorf("pack index lists %d objects (at most %d are read)", prev, maxPackObjects)
	}
	x.n = int(prev)
	body := fan + 256*4
	if !x.v2 {
		x.names = body + 4
		if len(data) != body+x.n*24+40 {
			return nil, errors.New("pack index size does not match its object count")
		}
		return x, nil
	}
	x.names = body
	x.offs = body + x.n*24
	x.large = x.offs + x.n*4
	rest := len(data) - 40 - x.large
	if rest < 0 || rest%8 != 0 {
		return nil, errors.New("pack index size does not match its object count")
	}
	x.nLarge = rest / 8
	return x, nil
}

// name returns the i-th object name.
func (x *packIndex) name(i int) []byte {
	if x.v2 {
		return x.data[x.names+20*i : x.names+20*i+20]
	}
	return x.data[x.names+24*i : x.names+24*i+20]
}

// offset returns the pack offset of the i-th object.
func (x *packIndex) offset(i int) (int64, error) {
	if !x.v2 {
		return int64(binary.BigEndian.Uint32(x.data[x.names+24*i-4:])), nil
	}
	v := binary.BigEndian.Uint32(x.data[x.offs+4*i:])
	if v&0x80000000 == 0 {
		return int64(v), nil
	}
	j := int(v &^ 0x80000000)
	if j >= x.nLarge {
		return 0, errors.New("pack index names a large offset it lacks")
	}
	o := binary.BigEndian.Uint64(x.data[x.large+8*j:])
	if o > 1<<62 {
		return 0, errors.New("pack index offset out of range")
	}
	return int64(o), nil
}

// span returns the index range of the names that start with first.
func (x *packIndex) span(first byte) (lo, hi int) {
	if first > 0 {
		lo = int(x.fanout[first-1])
	}
	return lo, int(x.fanout[first])
}

// find returns the position of name h, or -1.
func (x *packIndex) find(h plumbing.Hash) int {
	lo, hi := x.span(h[0])
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(x.name(m), h[:]); {
		case c == 0:
			return m
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return -1
}

// withPrefix calls f with every name that starts with prefix (whole
// bytes).
func (x *packIndex) withPrefix(prefix []byte, f func(plumbing.Hash)) {
	if len(prefix) == 0 {
		return
	}
	lo, hi := x.span(prefix[0])
	// The first name not below prefix.
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(x.name(m), prefix) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	_, end := x.span(prefix[0])
	for i := lo; i < end && bytes.HasPrefix(x.name(i), prefix); i++ {
		var h plumbing.Hash
		copy(h[:], x.name(i))
		f(h)
	}
}

// pack is one pack file and its index. The file is opened at its first
// read.
type pack struct {
	path string // the .pack file
	idx  *packIndex
	f    packFile
	size int64
	err  error // why the pack cannot be read, once known
}

// loadPack reads the index of the pack at path (".../pack-X.pack").
func loadPack(path string) (*pack, error) {
	idxPath := strings.TrimSuffix(path, ".pack") + ".idx"
	data, err := readSmall(idxPath, maxPackIndexSize)
	if err != nil {
		return nil, err
	}
	x, err := parseIndex(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", idxPath, err)
	}
	return &pack{path: path, idx: x}, nil
}

// packFile is what a pack is read through: an *os.File, or bytes in a
// test.
type packFile interface {
	io.ReaderAt
	io.Closer
}

// open opens the pack file and checks its header.
func (p *pack) open() error {
	if p.f != nil || p.err != nil {
		return p.err
	}
	f, err := os.Open(p.path)
	if err != nil {
		p.err = err
		return err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	if err == nil {
		err = p.attach(f, st.Size())
	}
	if err != nil {
		f.Close()
		p.err = fmt.Errorf("%s: %v", p.path, err)
	}
	return p.err
}

// attach reads the pack from f, of size bytes, after checking its
// header.
func (p *pack) attach(f packFile, size int64) error {
	var hdr [12]byte
	if _, err := f.ReadAt(hdr[:], 0); err != nil {
		return err
	}
	if string(hdr[:4]) != "PACK" || (binary.BigEndian.Uint32(hdr[4:8]) != 2 && binary.BigEndian.Uint32(hdr[4:8]) != 3) || size < 32 {
		return errors.New("not a pack file of version 2 or 3")
	}
	p.f, p.size = f, size
	return nil
}

// close closes the pack file.
func (p *pack) close() {
	if p.f != nil {
		p.f.Close()
		p.f = nil
	}
}

// entry is the header of one pack entry.
type entry struct {
	off     int64 // the entry's own offset
	typ     int
	size    int64 // the inflated size of the entry's data
	data    int64 // offset of the entry's zlib data
	baseOff int64 // OFS_DELTA: the base's offset
	base    plumbing.Hash
}

// header decodes the entry header at off.
func (p *pack) header(off int64) (entry, error) {
	if err := p.open(); err != nil {
		return entry{}, err
	}
	end := p.size - 20 // the trailing checksum
	if off < 12 || off >= end {
		return entry{}, fmt.Errorf("pack offset %d out of range", off)
	}
	var buf [maxEntryHeader]byte
	n, err := p.f.ReadAt(buf[:min(int64(len(buf)), end-off)], off)
	if err != nil && err != io.EOF {
		return entry{}, err
	}
	b := buf[:n]
	bad := fmt.Errorf("bad pack entry header at offset %d", off)
	if len(b) == 0 {
		return entry{}, bad
	}
	e := entry{off: off, typ: int(b[0]>>4) & 7, size: int64(b[0] & 15)}
	i, shift := 1, uint(4)
	for c := b[0]; c&0x80 != 0; i++ {
		if i >= len(b) || shift > 56 {
			return entry{}, bad
		}
		c = b[i]
		e.size |= int64(c&0x7f) << shift
		shift += 7
	}
	switch e.typ {
	case packOFSDelta:
		if i >= len(b) {
			return entry{}, bad
		}
		c := b[i]
		i++
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if i >= len(b) || rel > 1<<55 {
				return entry{}, bad
			}
			c = b[i]
			i++
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		if rel <= 0 || rel > off-12 {
			return entry{}, fmt.Errorf("delta at offset %d names a base outside the pack", off)
		}
		e.baseOff = off - rel
	case packREFDelta:
		if i+20 > len(b) {
			return entry{}, bad
		}
		copy(e.base[:], b[i:i+20])
		i += 20
	case packCommit, packTree, packBlob, packTag:
	default:
		return entry{}, fmt.Errorf("pack entry at offset %d has type %d", off, e.typ)
	}
	e.data = off + int64(i)
	return e, nil
}

// section is the pack's bytes from off to its checksum.
func (p *pack) section(off int64) io.Reader {
	return io.NewSectionReader(p.f, off, p.size-20-off)
}

// objectType is the plumbing type of a pack type.
func objectType(t int) plumbing.ObjectType {
	switch t {
	case packCommit:
		return plumbing.CommitObject
	case packTree:
		return plumbing.TreeObject
	case packBlob:
		return plumbing.BlobObject
	case packTag:
		return plumbing.TagObject
	}
	return plumbing.InvalidObject
}
