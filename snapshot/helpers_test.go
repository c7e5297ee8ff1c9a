package snapshot

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/evgrep/evgrep/revisions"
	"github.com/klauspost/compress/zstd"
)

// input is one match line fed to a Builder.
type input struct {
	path   string
	line   int
	text   string
	ranges []Range
}

// corpus returns deterministic inputs: files named after tag, file i of n
// having i%5+1 match lines (spread over a few directories), every line with
// one or two occurrences.
func corpus(tag string, files int) []input {
	var in []input
	for i := 0; i < files; i++ {
		path := fmt.Sprintf("%s/d%d/f%03d.go", tag, i%3, i)
		for j := 0; j <= i%5; j++ {
			text := fmt.Sprintf("line %d of %s: err = nil", j*7+1, path)
			rs := []Range{{Start: 0, End: 4, StartUTF16: 0, EndUTF16: 4}}
			if j%2 == 1 {
				rs = append(rs, Range{Start: len(text) - 3, End: len(text), StartUTF16: len(text) - 3, EndUTF16: len(text)})
			}
			in = append(in, input{path, j*7 + 1, text, rs})
		}
	}
	return in
}

func revOf(path string) revisions.Revision {
	return revisions.Revision{
		Identity: revisions.Identity{Dev: 1, Ino: uint64(len(path)), Size: 100, Mtime: 5, Ctime: 6},
		Hash:     revisions.Hash([]byte(path)), Verified: true,
	}
}

func testMeta(root string) Meta {
	return Meta{
		Root:    root,
		Options: map[string]string{"pattern": "err", "literal": "false", "globs": "[]"},
		Created: time.Unix(1700000000, 123).UTC(),
	}
}

// build adds the inputs in a shuffled order (seed) and builds.
func build(b *Builder, in []input, seed uint64, meta Meta) *Snapshot {
	order := rand.New(rand.NewPCG(seed, 7)).Perm(len(in))
	files := map[string]bool{}
	for _, i := range order {
		x := in[i]
		b.AddLine(x.path, x.line, []byte(x.text), x.ranges)
		if !files[x.path] {
			files[x.path] = true
			b.AddFile(x.path, revOf(x.path))
		}
	}
	return b.Build(meta)
}

func mustSnapshot(t testing.TB, tag string, files int) *Snapshot {
	t.Helper()
	return build(NewBuilder(), corpus(tag, files), 1, testMeta("/root/"+tag))
}

// sameSnapshot compares everything a reader of two snapshots can see.
func sameSnapshot(t testing.TB, got, want *Snapshot) {
	t.Helper()
	if got.ID != want.ID || got.Meta.Root != want.Meta.Root || !got.Meta.Created.Equal(want.Meta.Created) ||
		!reflect.DeepEqual(got.Meta.Options, want.Meta.Options) || got.Meta.Analysis != want.Meta.Analysis ||
		!reflect.DeepEqual(got.Meta.Lists, want.Meta.Lists) || !reflect.DeepEqual(got.Meta.Numbers, want.Meta.Numbers) {
		t.Fatalf("meta differs: %+v %s vs %+v %s", got.Meta, got.ID, want.Meta, want.ID)
	}
	if got.Totals != want.Totals {
		t.Fatalf("totals %+v, want %+v", got.Totals, want.Totals)
	}
	if !reflect.DeepEqual(got.files, want.files) {
		t.Fatalf("files differ")
	}
	if len(got.lines) != len(want.lines) {
		t.Fatalf("%d lines, want %d", len(got.lines), len(want.lines))
	}
	for i := range got.lines {
		g, w := got.lines[i], want.lines[i]
		if len(g.Ranges) == 0 {
			g.Ranges = nil
		}
		if len(w.Ranges) == 0 {
			w.Ranges = nil
		}
		if len(g.Text) == 0 {
			g.Text = nil
		}
		if len(w.Text) == 0 {
			w.Text = nil
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("line %d: %+v, want %+v", i, g, w)
		}
	}
	if got.analysis != want.analysis || len(got.items) != len(want.items) {
		t.Fatalf("analysis %v with %d items, want %v with %d", got.analysis, len(got.items), want.analysis, len(want.items))
	}
	for i := range got.items {
		if got.items[i] != want.items[i] {
			t.Fatalf("item %d: %+v, want %+v", i, got.items[i], want.items[i])
		}
	}
}

// decompress returns the content of a snapshot file.
func decompress(t testing.TB, data []byte) []byte {
	t.Helper()
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer dec.Close()
	raw, err := dec.DecodeAll(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// compress returns a snapshot file of the given content, as
// encodeSnapshot writes one.
func compress(t testing.TB, raw []byte) []byte {
	t.Helper()
	enc, err := sharedEncoder()
	if err != nil {
		t.Fatal(err)
	}
	return enc.EncodeAll(raw, nil)
}
