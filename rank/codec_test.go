package rank

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand"
	"reflect"
	"testing"

	"github.com/klauspost/compress/zstd"
)

func sampleIndex() *Index {
	return build(
		doc("a/x.go", tc{"Walk", "func Walk(root string)"}, tc{"", "walk the tree"}),
		doc("b/y.go", tc{"Parse", "parse the url"}),
	)
}

func TestCodecRoundTrip(t *testing.T) {
	ix := sampleIndex()
	data, err := Encode("k", ix)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Decode("k", data)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"Walk", "parse url", "tree"} {
		if a, b := ix.Search(q, &Default, 10), back.Search(q, &Default, 10); !reflect.DeepEqual(a, b) {
			t.Errorf("%q: %v vs %v", q, a, b)
		}
	}
	if a, b := ix.Doc("a/x.go"), back.Doc("a/x.go"); !reflect.DeepEqual(a, b) {
		t.Errorf("Doc: %+v vs %+v", a, b)
	}
	if _, err := Decode("other", data); !errors.Is(err, ErrCorrupt) {
		t.Errorf("another key: %v", err)
	}
}

// Hostile caches: every truncation and random corruption is refused or
// decodes to a usable index, never a panic.
func TestCodecHostile(t *testing.T) {
	ix := sampleIndex()
	data, _ := Encode("k", ix)
	enc, _ := zstd.NewWriter(nil)
	dec, _ := zstd.NewReader(nil)
	raw, _ := dec.DecodeAll(data, nil)
	try := func(b []byte) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("panic on corrupt cache: %v", r)
			}
		}()
		if got, err := Decode("k", enc.EncodeAll(b, nil)); err == nil {
			got.Search("walk parse url", &Default, 10)
			got.Related("a/x.go", 1, &Default, 10)
			for i := 0; i < got.Files(); i++ {
				got.Doc(got.File(i).Path)
			}
		}
	}
	for n := 0; n < len(raw); n++ {
		try(raw[:n])
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 2000; i++ {
		b := bytes.Clone(raw)
		for k := 0; k < 1+rng.Intn(4); k++ {
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		}
		try(b)
	}
	if _, err := Decode("k", []byte("not zstd at all")); !errors.Is(err, ErrCorrupt) {
		t.Errorf("garbage: %v", err)
	}
}

// A small cache that declares a huge content is refused before it is
// expanded.
func TestCodecBomb(t *testing.T) {
	// A zstd frame header: magic, descriptor (8-byte content size), a
	// 2 MiB window, the content size, then one empty last raw block.
	bomb := []byte{0x28, 0xB5, 0x2F, 0xFD, 0xC0, 0x58}
	bomb = binary.LittleEndian.AppendUint64(bomb, MaxCacheDecoded+1)
	bomb = append(bomb, 0x01, 0x00, 0x00)
	if _, err := Decode("k", bomb); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("a cache declaring over MaxCacheDecoded: %v", err)
	}
}
