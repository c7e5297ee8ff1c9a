package gittest

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sort"
)

// Hash is an object name.
type Hash [20]byte

// String is the 40 hex digits.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// ObjectHash is the name Git gives data stored as an object of type typ
// ("blob", "tree", "commit").
func ObjectHash(typ string, data []byte) Hash {
	d := sha1.New()
	fmt.Fprintf(d, "%s %d\x00", typ, len(data))
	d.Write(data)
	var h Hash
	copy(h[:], d.Sum(nil))
	return h
}

// Zlib compresses data.
func Zlib(data []byte) []byte {
	var b bytes.Buffer
	w, _ := zlib.NewWriterLevel(&b, zlib.BestSpeed)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// ZlibZeros is prefix then n zero bytes, compressed, made without
// holding the n bytes.
func ZlibZeros(prefix []byte, n int64) []byte {
	var b bytes.Buffer
	w, _ := zlib.NewWriterLevel(&b, zlib.BestSpeed)
	w.Write(prefix)
	chunk := make([]byte, 1<<20)
	for n > 0 {
		k := min(n, int64(len(chunk)))
		w.Write(chunk[:k])
		n -= k
	}
	w.Close()
	return b.Bytes()
}

// Pack entry types.
const (
	PackCommit   = 1
	PackTree     = 2
	PackBlob     = 3
	PackOFSDelta = 6
	PackREFDelta = 7
)

// PackEntry is one entry of a pack written by hand: its header says Type
// and Size (the inflated size of its data, which Z need not honour), and
// for a delta its base (Base, or the entry BaseEntry for an offset delta).
type PackEntry struct {
	Type      int
	Size      int64
	Z         []byte // the zlib data
	Base      Hash   // PackREFDelta
	BaseEntry int    // PackOFSDelta: index of an earlier entry
}

// Whole is a pack entry holding data as an object of type typ.
func Whole(typ int, data []byte) PackEntry {
	return PackEntry{Type: typ, Size: int64(len(data)), Z: Zlib(data)}
}

// Delta is the delta data that makes result from nothing (inserts only)
// for a base of baseSize bytes.
func Delta(baseSize int, result []byte) []byte {
	var d []byte
	d = binary.AppendUvarint(d, uint64(baseSize))
	d = binary.AppendUvarint(d, uint64(len(result)))
	for len(result) > 0 {
		n := min(len(result), 127)
		d = append(d, byte(n))
		d = append(d, result[:n]...)
		result = result[n:]
	}
	return d
}

// IndexEntry names the object at entry Entry of a pack (several names
// may share an entry: an aliasing index).
type IndexEntry struct {
	Name  Hash
	Entry int
}

// WritePack writes a pack of entries and a version 2 index of names into
// the repository's objects/pack folder, with valid checksums.
func (r *Repo) WritePack(entries []PackEntry, names []IndexEntry) {
	r.t.Helper()
	var p bytes.Buffer
	p.WriteString("PACK")
	binary.Write(&p, binary.BigEndian, uint32(2))
	binary.Write(&p, binary.BigEndian, uint32(len(entries)))
	offs := make([]int64, len(entries))
	crcs := make([]uint32, len(entries))
	for i, e := range entries {
		offs[i] = int64(p.Len())
		start := p.Len()
		c := byte(e.Type<<4) | byte(e.Size&15)
		s := e.Size >> 4
		for s > 0 {
			p.WriteByte(c | 0x80)
			c = byte(s & 0x7f)
			s >>= 7
		}
		p.WriteByte(c)
		switch e.Type {
		case PackOFSDelta:
			rel := offs[i] - offs[e.BaseEntry]
			var buf [10]byte
			pos := len(buf) - 1
			buf[pos] = byte(rel & 127)
			for rel >>= 7; rel > 0; rel >>= 7 {
				rel--
				pos--
				buf[pos] = 128 | byte(rel&127)
			}
			p.Write(buf[pos:])
		case PackREFDelta:
			p.Write(e.Base[:])
		}
		p.Write(e.Z)
		crcs[i] = crc32.ChecksumIEEE(p.Bytes()[start:])
	}
	sum := sha1.Sum(p.Bytes())
	p.Write(sum[:])

	sorted := append([]IndexEntry(nil), names...)
	sort.Slice(sorted, func(i, j int) bool { return bytes.Compare(sorted[i].Name[:], sorted[j].Name[:]) < 0 })
	var x bytes.Buffer
	x.Write([]byte{0xff, 't', 'O', 'c', 0, 0, 0, 2})
	var fan [256]uint32
	for _, n := range sorted {
		for b := int(n.Name[0]); b < 256; b++ {
			fan[b]++
		}
	}
	binary.Write(&x, binary.BigEndian, fan)
	for _, n := range sorted {
		x.Write(n.Name[:])
	}
	for _, n := range sorted {
		binary.Write(&x, binary.BigEndian, crcs[n.Entry])
	}
	for _, n := range sorted {
		binary.Write(&x, binary.BigEndian, uint32(offs[n.Entry]))
	}
	x.Write(sum[:])
	xsum := sha1.Sum(x.Bytes())
	x.Write(xsum[:])

	dir := filepath.Join(r.Dir, ".git", "objects", "pack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.t.Fatal(err)
	}
	base := filepath.Join(dir, "pack-"+hex.EncodeToString(sum[:]))
	if err := os.WriteFile(base+".pack", p.Bytes(), 0o444); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(base+".idx", x.Bytes(), 0o444); err != nil {
		r.t.Fatal(err)
	}
}

// WriteLoose writes a loose object named h whose zlib data is z (its
// header included, as loose objects store it).
func (r *Repo) WriteLoose(h Hash, z []byte) {
	r.t.Helper()
	s := h.String()
	dir := filepath.Join(r.Dir, ".git", "objects", s[:2])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, s[2:]), z, 0o444); err != nil {
		r.t.Fatal(err)
	}
}

// TreeItem is one entry of a tree object made by hand.
type TreeItem struct {
	Name string
	Dir  bool
	Hash Hash
}

// TreeData is the bytes of a tree object of items, in the order given.
func TreeData(items ...TreeItem) []byte {
	var b bytes.Buffer
	for _, it := range items {
		mode := "100644"
		if it.Dir {
			mode = "40000"
		}
		b.WriteString(mode + " " + it.Name + "\x00")
		b.Write(it.Hash[:])
	}
	return b.Bytes()
}

// CommitData is the bytes of a commit object of tree.
func CommitData(tree Hash) []byte {
	return []byte("tree " + tree.String() + "\nauthor t <t@example.com> 1700000000 +0000\ncommitter t <t@example.com> 1700000000 +0000\n\nhand-made\n")
}

// SetHead points the current branch at commit h.
func (r *Repo) SetHead(h Hash) {
	r.t.Helper()
	head, err := os.ReadFile(filepath.Join(r.Dir, ".git", "HEAD"))
	if err != nil {
		r.t.Fatal(err)
	}
	ref, ok := bytes.CutPrefix(bytes.TrimSpace(head), []byte("ref: "))
	if !ok {
		r.t.Fatalf("HEAD is detached: %q", head)
	}
	p := filepath.Join(r.Dir, ".git", filepath.FromSlash(string(ref)))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(h.String()+"\n"), 0o644); err != nil {
		r.t.Fatal(err)
	}
}
