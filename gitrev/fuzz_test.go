package gitrev

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/evgrep/evgrep/internal/gittest"
	"github.com/go-git/go-git/v5/plumbing"
)

// Bounds of one fuzzed read.
const (
	fuzzLimit  = 64 << 10
	fuzzBudget = 1 << 20
)

// memPack is a pack held in memory.
type memPack struct{ *bytes.Reader }

func (memPack) Close() error { return nil }

// fuzzName is the object name the fuzzed index gives entry i: byte i,
// then zeros, so that a name delta's base is easy to reach.
func fuzzName(i int) plumbing.Hash { return plumbing.Hash{byte(i)} }

// fuzzIndex is an index (version 2) naming entry i fuzzName(i), at the
// offsets given as 16-bit big-endian numbers.
func fuzzIndex(offs []byte) []byte {
	n := min(len(offs)/2, 64)
	var x bytes.Buffer
	x.Write([]byte{0xff, 't', 'O', 'c', 0, 0, 0, 2})
	for b := range 256 {
		v := min(b+1, n)
		x.Write([]byte{0, 0, 0, byte(v)})
	}
	for i := range n {
		h := fuzzName(i)
		x.Write(h[:])
	}
	x.Write(make([]byte, 4*n)) // CRCs
	for i := range n {
		x.Write([]byte{0, 0, offs[2*i], offs[2*i+1]})
	}
	x.Write(make([]byte, 40))
	return x.Bytes()
}

// fuzzSeeds are packs written by gittest and their entries' offsets:
// whole objects, an offset delta, a name delta, a delta naming itself,
// two naming each other, a zlib bomb, a chain of 40 offset deltas.
func fuzzSeeds(t testing.TB) [][2][]byte {
	blob := []byte("needle\n")
	d := gittest.Delta(len(blob), []byte("needle delta\n"))
	zd := gittest.Zlib(d)
	ref := func(base int) gittest.PackEntry {
		return gittest.PackEntry{Type: gittest.PackREFDelta, Size: int64(len(d)), Z: zd, Base: gittest.Hash(fuzzName(base))}
	}
	ofs := func(base int) gittest.PackEntry {
		return gittest.PackEntry{Type: gittest.PackOFSDelta, Size: int64(len(d)), Z: zd, BaseEntry: base}
	}
	next := gittest.Delta(13, []byte("needle delta\n"))
	chain := []gittest.PackEntry{gittest.Whole(gittest.PackBlob, blob), ofs(0)}
	for i := 2; i < 40; i++ {
		chain = append(chain, gittest.PackEntry{Type: gittest.PackOFSDelta, Size: int64(len(next)), Z: gittest.Zlib(next), BaseEntry: i - 1})
	}
	packs := [][]gittest.PackEntry{
		{gittest.Whole(gittest.PackBlob, blob), gittest.Whole(gittest.PackTree, gittest.TreeData(gittest.TreeItem{Name: "a", Hash: gittest.ObjectHash("blob", blob)}))},
		{gittest.Whole(gittest.PackBlob, blob), ofs(0), ref(0)},
		{ref(0)},
		{ref(1), ref(0)},
		{{Type: gittest.PackBlob, Size: 12, Z: gittest.ZlibZeros(nil, 1<<20)}},
		chain,
	}
	var out [][2][]byte
	for _, entries := range packs {
		r := gittest.New(t)
		var names []gittest.IndexEntry
		for i := range entries {
			names = append(names, gittest.IndexEntry{Name: gittest.Hash(fuzzName(i)), Entry: i})
		}
		r.WritePack(entries, names)
		idx, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.idx"))
		x, err := os.ReadFile(idx[0])
		if err != nil {
			t.Fatal(err)
		}
		pk, err := os.ReadFile(idx[0][:len(idx[0])-4] + ".pack")
		if err != nil {
			t.Fatal(err)
		}
		// The offsets, as the index written by gittest gives them.
		px, err := parseIndex(x)
		if err != nil {
			t.Fatal(err)
		}
		var offs []byte
		for i := range entries {
			off, _ := px.offset(px.find(fuzzName(i)))
			offs = append(offs, byte(off>>8), byte(off))
		}
		out = append(out, [2][]byte{pk, offs})
	}
	return out
}

// FuzzPackRead reads every entry of a fuzzed pack at fuzzed offsets:
// never a panic, a hang or more than the bounds; a result is at most the
// limit, and an error is one of the package's kinds.
func FuzzPackRead(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s[0], s[1])
		// Run once before fuzzing: what runs only the first time in a
		// process (flate's fixed tables) would otherwise look like new
		// coverage that no minimization reproduces.
		fuzzRead(f, s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, packData, offs []byte) { fuzzRead(t, packData, offs) })
}

// fuzzRead is one input of FuzzPackRead.
func fuzzRead(t testing.TB, packData, offs []byte) {
	x, err := parseIndex(fuzzIndex(offs))
	if err != nil {
		t.Fatalf("the index made for the input: %v", err)
	}
	p := &pack{path: "fuzz.pack", idx: x}
	if p.attach(memPack{bytes.NewReader(packData)}, int64(len(packData))) != nil {
		return
	}
	o := &odb{packs: []*pack{p}, loaded: true, left: fuzzBudget}
	for i := range x.n {
		h := fuzzName(i)
		if x.find(h) != i {
			t.Fatalf("entry %d not found by its name", i)
		}
		_, data, err := o.read(h, fuzzLimit)
		if err == nil && len(data) > fuzzLimit {
			t.Fatalf("entry %d: %d bytes, over the limit", i, len(data))
		}
		if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrBudget) && !errors.Is(err, plumbing.ErrObjectNotFound) {
			t.Fatalf("entry %d: an error of no kind: %v", i, err)
		}
		o.size(h)
	}
	if o.left > fuzzBudget {
		t.Fatalf("budget grew to %d", o.left)
	}
}

// FuzzParseIndex: any .idx is refused or yields names and offsets that
// can be looked up without a panic.
func FuzzParseIndex(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(fuzzIndex(s[1]))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := parseIndex(data)
		if err != nil {
			return
		}
		for i := range min(x.n, 64) {
			x.offset(i)
			var h plumbing.Hash
			copy(h[:], x.name(i))
			x.find(h)
			x.withPrefix(h[:2], func(plumbing.Hash) {})
		}
	})
}

// FuzzApplyDelta: a delta applied to a base never panics, and a result
// is exactly the size the delta declares, at most the limit.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("needle\n"), gittest.Delta(7, []byte("needle delta\n")))
	f.Add([]byte("0123456789"), []byte{10, 6, 0x91, 2, 3, 2, 'a', 'b', 0x90, 1})
	f.Add([]byte(""), []byte{0, 0})
	f.Add([]byte("x"), []byte{1, 0x80, 0x80, 0x80, 0x80, 0x10, 0x80})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		out, err := applyDelta(base, delta, fuzzLimit)
		if err != nil {
			return
		}
		_, dst, _, _ := deltaSizes(delta)
		if int64(len(out)) != dst || len(out) > fuzzLimit {
			t.Fatalf("result of %d bytes; declared %d, limit %d", len(out), dst, fuzzLimit)
		}
	})
}
