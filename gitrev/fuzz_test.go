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

// fuzzSeeds are packs and their indexes written by gittest: whole
// objects, an offset delta, a name delta, a delta naming itself, two
// naming each other, a zlib bomb, a deep offset chain.
func fuzzSeeds(t testing.TB) [][2][]byte {
	blob := []byte("needle\n")
	hb := gittest.ObjectHash("blob", blob)
	d := gittest.Delta(len(blob), []byte("needle delta\n"))
	self := gittest.ObjectHash("blob", []byte("self"))
	other := gittest.ObjectHash("blob", []byte("other"))
	ref := func(base gittest.Hash) gittest.PackEntry {
		return gittest.PackEntry{Type: gittest.PackREFDelta, Size: int64(len(d)), Z: gittest.Zlib(d), Base: base}
	}
	ofs := func(base int) gittest.PackEntry {
		return gittest.PackEntry{Type: gittest.PackOFSDelta, Size: int64(len(d)), Z: gittest.Zlib(d), BaseEntry: base}
	}
	name := func(i int) gittest.Hash { return gittest.ObjectHash("blob", []byte{byte(i), byte(i >> 8)}) }
	chain := []gittest.PackEntry{gittest.Whole(gittest.PackBlob, blob)}
	chainNames := []gittest.IndexEntry{{Name: hb, Entry: 0}}
	for i := 1; i < 40; i++ {
		// Each link makes the next one's base: the delta is for a base of
		// the size the link before made.
		prev := blob
		if i > 1 {
			prev = []byte("needle delta\n")
		}
		dd := gittest.Delta(len(prev), []byte("needle delta\n"))
		chain = append(chain, gittest.PackEntry{Type: gittest.PackOFSDelta, Size: int64(len(dd)), Z: gittest.Zlib(dd), BaseEntry: i - 1})
		chainNames = append(chainNames, gittest.IndexEntry{Name: name(i), Entry: i})
	}
	packs := []struct {
		entries []gittest.PackEntry
		names   []gittest.IndexEntry
	}{
		{[]gittest.PackEntry{gittest.Whole(gittest.PackBlob, blob), gittest.Whole(gittest.PackTree, gittest.TreeData(gittest.TreeItem{Name: "a", Hash: hb}))},
			[]gittest.IndexEntry{{Name: hb, Entry: 0}, {Name: name(1), Entry: 1}}},
		{[]gittest.PackEntry{gittest.Whole(gittest.PackBlob, blob), ofs(0), ref(hb)},
			[]gittest.IndexEntry{{Name: hb, Entry: 0}, {Name: name(1), Entry: 1}, {Name: name(2), Entry: 2}}},
		{[]gittest.PackEntry{ref(self)}, []gittest.IndexEntry{{Name: self, Entry: 0}}},
		{[]gittest.PackEntry{ref(other), ref(self)}, []gittest.IndexEntry{{Name: self, Entry: 0}, {Name: other, Entry: 1}}},
		{[]gittest.PackEntry{{Type: gittest.PackBlob, Size: 12, Z: gittest.ZlibZeros(nil, 1<<20)}}, []gittest.IndexEntry{{Name: hb, Entry: 0}}},
		{chain, chainNames},
	}
	var out [][2][]byte
	for _, p := range packs {
		r := gittest.New(t)
		r.WritePack(p.entries, p.names)
		idx, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.idx"))
		x, err := os.ReadFile(idx[0])
		if err != nil {
			t.Fatal(err)
		}
		pk, err := os.ReadFile(idx[0][:len(idx[0])-4] + ".pack")
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, [2][]byte{pk, x})
	}
	return out
}

// FuzzPackRead reads every object a fuzzed index names from a fuzzed
// pack: never a panic, a hang or more than the bounds; a result is at
// most the limit, and an error is one of the package's kinds.
func FuzzPackRead(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, packData, idxData []byte) {
		x, err := parseIndex(idxData)
		if err != nil {
			return
		}
		p := &pack{path: "fuzz.pack", idx: x}
		if p.attach(memPack{bytes.NewReader(packData)}, int64(len(packData))) != nil {
			return
		}
		o := &odb{packs: []*pack{p}, loaded: true, left: fuzzBudget}
		for i := 0; i < min(x.n, 64); i++ {
			var h plumbing.Hash
			copy(h[:], x.name(i))
			_, data, err := o.read(h, fuzzLimit)
			if err == nil && len(data) > fuzzLimit {
				t.Fatalf("object %d: %d bytes, over the limit", i, len(data))
			}
			if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrBudget) && !errors.Is(err, plumbing.ErrObjectNotFound) {
				t.Fatalf("object %d: an error of no kind: %v", i, err)
			}
			o.size(h)
		}
		if o.left > fuzzBudget {
			t.Fatalf("budget grew to %d", o.left)
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
