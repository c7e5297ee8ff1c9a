package rank

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

func sampleIndex() *Index {
	return build(
		doc("a/x.go", tc{"Walk", "func Walk(root string)"}, tc{"", "walk the tree"}),
		doc("b/y.go", tc{"Parse", "parse the url"}),
	)
}

// roundTrip is the sample index, its encoding under key "k" and that
// encoding decoded.
func roundTrip(t *testing.T) (ix *Index, data []byte, back *Index) {
	t.Helper()
	ix = sampleIndex()
	data, err := Encode("k", ix)
	if err != nil {
		t.Fatal(err)
	}
	back, err = Decode("k", data)
	if err != nil {
		t.Fatal(err)
	}
	return ix, data, back
}

func TestCodecRoundTrip(t *testing.T) {
	ix, data, back := roundTrip(t)
	for _, q := range []string{"Walk", "parse url", "tree"} {
		if a, b := ix.Search(q, &Default, 10), back.Search(q, &Default, 10); !reflect.DeepEqual(a, b) {
			t.Errorf("%q: %v vs %v", q, a, b)
		}
	}
	// The documents are equal (their dictionaries are their indexes').
	a, b := ix.Doc("a/x.go"), back.Doc("a/x.go")
	if a.Path != b.Path || a.Rev != b.Rev || !reflect.DeepEqual(a.Chunks, b.Chunks) || len(a.Chunks) != 2 {
		t.Errorf("Doc: %+v vs %+v", a, b)
	}
	for i := range a.Chunks {
		if x, y := a.TermCounts(i), b.TermCounts(i); !reflect.DeepEqual(x, y) {
			t.Errorf("Doc chunk %d: %v vs %v", i, x, y)
		}
	}
	if _, err := Decode("other", data); !errors.Is(err, ErrCorrupt) {
		t.Errorf("another key: %v", err)
	}
}

// EncodeTo writes, piece by piece, the bytes Encode returns, for a built
// index and for the same index decoded (whose tables are the cache's),
// and a failing writer's error is returned.
func TestEncodeToMatchesEncode(t *testing.T) {
	ix, data, back := roundTrip(t)
	for _, x := range []*Index{ix, back} {
		var buf bytes.Buffer
		if err := EncodeTo(&buf, "k", x); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), data) {
			t.Errorf("EncodeTo wrote %d bytes unlike Encode's %d", buf.Len(), len(data))
		}
	}
	bad := errors.New("full")
	if err := EncodeTo(failWriter{bad}, "k", ix); !errors.Is(err, bad) {
		t.Errorf("failing writer: %v", err)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

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

// The windows of one large declaration share its name in the cache: it
// is written once, not once a window.
func TestCodecNameOnce(t *testing.T) {
	name := strings.Repeat("Name, ", 200)
	d := &FileDoc{Path: "a/tables.go"}
	d.Rev.Verified = true
	for i := 0; i < 50; i++ {
		d.Chunks = append(d.Chunks, Chunk{StartLine: i + 1, EndLine: i + 1, StartByte: i, EndByte: i + 1, Kind: "var", Name: name, Cont: i > 0})
		d.Terms = append(d.Terms, countTerms(d.Path, "", "table entry"))
	}
	ix := Build([]*FileDoc{d})
	data, err := Encode("k", ix)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 2*len(name)+50*(4+recBytes) { // the name once, and a length and record a chunk
		t.Errorf("cache of %d bytes for 50 windows of a %d-byte name", len(data), len(name))
	}
	back, err := Decode("k", data)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Doc("a/tables.go"); !reflect.DeepEqual(got.Chunks, d.Chunks) {
		t.Errorf("chunks after the round trip: %+v", got.Chunks[:2])
	}
}

// FuzzDecode: any bytes decode to an index that can be searched, or are
// refused; never a panic.
func FuzzDecode(f *testing.F) {
	data, _ := Encode("k", sampleIndex())
	f.Add(data)
	f.Add(data[:len(data)/2])
	f.Add([]byte("evgrep-rank\x00\x0b\x01k"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ix, err := Decode("k", b)
		if err != nil {
			return
		}
		ix.Search("walk parse url tree", &Default, 10)
		ix.Related("a/x.go", 1, &Default, 10)
		for i := 0; i < ix.Files(); i++ {
			ix.Doc(ix.File(i).Path)
		}
	})
}
