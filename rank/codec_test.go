package rank

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand"
	"reflect"
	"testing"
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
	raw := data
	try := func(b []byte) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("panic on corrupt cache: %v", r)
			}
		}()
		if got, err := Decode("k", bytes.Clone(b)); err == nil {
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
	if _, err := Decode("k", []byte("not a cache at all")); !errors.Is(err, ErrCorrupt) {
		t.Errorf("garbage: %v", err)
	}
}

// A small cache that declares huge counts is refused before anything is
// allocated for them.
func TestCodecBomb(t *testing.T) {
	bomb := append([]byte(nil), cacheMagic...)
	bomb = binary.AppendUvarint(bomb, 1)
	bomb = append(bomb, 'k')
	bomb = binary.AppendUvarint(bomb, 1<<60) // chunks
	bomb = binary.AppendUvarint(bomb, 1<<60) // files
	if _, err := Decode("k", bomb); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("a cache declaring 2^60 chunks: %v", err)
	}
}
