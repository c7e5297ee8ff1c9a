package snapshot

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/snapshot/v1.snap")

// goldenPath is a snapshot file written by format version 1: files of
// earlier builds must keep decoding (or the version must change).
var goldenPath = filepath.Join("..", "testdata", "snapshot", "v1.snap")

func goldenSnapshot(t testing.TB) *Snapshot {
	b := newBuilder(12, 1<<30)
	build(b, corpus("g", 8), 4, testMeta("/root/g"))
	b.AddLine("g/a-long", 1, bytes.Repeat([]byte("é\xfe"), 3000), []Range{{Start: 4500, End: 4502, StartUTF16: 3000, EndUTF16: 3001}})
	s := b.Build(testMeta("/root/g"))
	s.ID = "0123456789abcdef0123456789abcdef"
	return s
}

func TestGoldenFile(t *testing.T) {
	want := goldenSnapshot(t)
	if *update {
		data, err := encodeSnapshot(want)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(goldenPath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeSnapshot(data)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Totals.Partial || len(got.lines) != 12 {
		t.Fatalf("golden totals %+v", got.Totals)
	}
	sameSnapshot(t, got, want)
	// Format version 3 writes a search as version 1 did, but for the
	// version byte, the Analysis byte (0) and the typed metadata of a
	// search with scalar options only (kind 0, no lists, no numbers) at
	// the end.
	raw := decompress(t, data)
	v3 := append(append([]byte(nil), raw...), 0, byte(AnalysisSearch), 0, 0)
	v3[len(fileMagic)] = fileVersion
	if !bytes.Equal(v3, payload(want)) {
		t.Error("the encoder no longer writes a search as format version 1 did (but for the version, analysis and metadata bytes); change fileVersion")
	}
}

// TestDecodeDamage decodes every truncation and many bit flips of a valid
// payload: never a panic, and whatever decodes is a valid snapshot.
func TestDecodeDamage(t *testing.T) {
	raw := payload(goldenSnapshot(t))
	check := func(b []byte) {
		s, err := parsePayload(b)
		if err != nil {
			return
		}
		if err := s.validate(); err != nil {
			t.Fatalf("decoded an invalid snapshot: %v", err)
		}
		// Whatever decodes pages without trouble.
		s.MatchesPage(PathSelection{}, 0, 100, MaxResponseBytes, nil)
		s.SummaryPage(0, 30)
		s.ItemsPage(0, 30, MaxResponseBytes, nil)
	}
	for n := 0; n < len(raw); n++ {
		if _, err := parsePayload(raw[:n]); err == nil {
			t.Fatalf("truncation to %d bytes decoded", n)
		}
	}
	for i := 0; i < len(raw); i += 3 {
		for _, bit := range []byte{0x01, 0x10, 0x80} {
			b := append([]byte(nil), raw...)
			b[i] ^= bit
			check(b)
		}
	}
	if _, err := parsePayload(append(append([]byte(nil), raw...), 0)); err == nil {
		t.Error("trailing byte accepted")
	}
}

func FuzzParsePayload(f *testing.F) {
	f.Add(payload(goldenSnapshot(f)))
	f.Add(payload(build(NewBuilder(), nil, 0, Meta{})))
	f.Add([]byte("EVGSNAP\x01"))
	f.Add(payload(goldenAnalysis(f)))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := parsePayload(b)
		if err != nil {
			return
		}
		// A decoded snapshot encodes back to the same bytes (files of
		// version 1 are written as version 2).
		if b[len(fileMagic)] == fileVersion && !bytes.Equal(payload(s), b) {
			t.Fatalf("round trip differs")
		}
		s.MatchesPage(SelectPaths("g"), 0, 100, MaxResponseBytes, nil)
		s.SummaryPage(0, 30)
		s.ItemsPage(0, 30, MaxResponseBytes, nil)
	})
}

// TestDecodeBudgetExact: encodeSnapshot's decodeCost is exactly what
// decoding the file charges, so a snapshot that is stored always decodes
// within the budget, and a byte less of budget refuses it.
func TestDecodeBudgetExact(t *testing.T) {
	for _, s := range []*Snapshot{goldenSnapshot(t), mustSnapshot(t, "b", 40), build(NewBuilder(), nil, 0, Meta{Root: "/r"}), goldenAnalysis(t)} {
		if s.ID == "" {
			s.ID = newToken()
		}
		data, err := encodeSnapshot(s)
		if err != nil {
			t.Fatal(err)
		}
		cost := decodeCost(s, len(payload(s)))
		got, err := readSnapshotFrom(bytes.NewReader(data), cost)
		if err != nil {
			t.Fatalf("within its cost %d: %v", cost, err)
		}
		if len(s.files) > 0 { // (an empty one decodes with empty, not nil, slices)
			sameSnapshot(t, got, s)
		} else if got.Totals != s.Totals || got.ID != s.ID {
			t.Fatalf("empty snapshot decoded as %+v", got.Totals)
		}
		if _, err := readSnapshotFrom(bytes.NewReader(data), cost-1); err == nil {
			t.Fatalf("decoded within %d bytes, a byte less than its cost", cost-1)
		}
	}
}
