package snapshot

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// goldenAnalysisPath is an analysis snapshot written by format version 3
// (typed metadata); oldAnalysisPath one written by version 2, whose kind
// of analysis is not known.
var (
	goldenAnalysisPath = filepath.Join("..", "testdata", "snapshot", "v3-analysis.snap")
	oldAnalysisPath    = filepath.Join("..", "testdata", "snapshot", "v2-analysis.snap")
)

// analysisItems returns n deterministic items over a few files, some with
// unknown byte spans, scores and multi-line spans.
func analysisItems(n int) []Item {
	items := make([]Item, 0, n)
	for i := 0; i < n; i++ {
		it := Item{
			Path: fmt.Sprintf("a/f%d.go", i%7), Line: i + 1, EndLine: i + 1 + i%3,
			Start: int64(i * 10), End: int64(i*10 + 4),
			Group: []string{"call", "definition", "reference"}[i%3],
			Label: fmt.Sprintf("L%d", i%2), Score: float64(i) / 8,
			Text: fmt.Sprintf("text %d ü", i),
		}
		if i%5 == 4 {
			it.Start, it.End = -1, -1
		}
		items = append(items, it)
	}
	return items
}

func goldenAnalysis(t testing.TB) *Snapshot {
	b := NewItemsBuilder()
	for _, it := range analysisItems(23) {
		b.AddFile(it.Path, revOf(it.Path))
		b.Add(it)
	}
	b.AddFile("a/no-items.go", revOf("a/no-items.go"))
	meta := testMeta("/root/a")
	meta.Analysis = AnalysisImpact
	meta.Lists = map[string][]string{"glob": {"*.go", "!vendor/**"}, "paths": {"a", "b c"}, "z": {}}
	meta.Numbers = map[string][]int64{"lines": {1, -7, 1 << 40}, "one": {0}}
	s := b.Build(meta)
	s.ID = "fedcba9876543210fedcba9876543210"
	return s
}

func TestGoldenAnalysisFile(t *testing.T) {
	want := goldenAnalysis(t)
	if *update {
		data, err := encodeSnapshot(want)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenAnalysisPath, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(goldenAnalysisPath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeSnapshot(data)
	if err != nil {
		t.Fatal(err)
	}
	sameSnapshot(t, got, want)
	if !bytes.Equal(decompress(t, data), payload(want)) {
		t.Error("the encoder no longer writes format version 3 as the golden file has it; change fileVersion")
	}
	if got.Meta.Fingerprint() != want.Meta.Fingerprint() || got.Meta.Fingerprint() == Fingerprint(want.Meta.Options) {
		t.Error("the fingerprint does not cover the analysis, lists and numbers")
	}
	// An analysis of format version 2 does not say which it is: refused.
	old, err := os.ReadFile(oldAnalysisPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := decodeSnapshot(old); err == nil {
		t.Error("an analysis snapshot of format version 2 decoded")
	}
}

func TestItemsBuilderBounds(t *testing.T) {
	long := strings.Repeat("é", MaxItemText) // 2 bytes a character
	cases := []struct {
		name              string
		maxItems, maxByte int
		items             []Item
		kept              int
		partial           bool
	}{
		{"empty", 10, 1 << 20, nil, 0, false},
		{"within", 10, 1 << 20, analysisItems(10), 10, false},
		{"item bound", 10, 1 << 20, analysisItems(11), 10, true},
		{"byte bound", 100, costOf(analysisItems(3)), analysisItems(5), 3, true},
		{"clipped text", 10, 1 << 20, []Item{{Path: "p", Line: 1, Text: long, Group: long}}, 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newItemsBuilder(c.maxItems, c.maxByte)
			kept := 0
			for _, it := range c.items {
				if b.Add(it) {
					kept++
				}
			}
			s := b.Build(testMeta("/r"))
			if kept != c.kept || s.ItemCount() != c.kept || s.Totals.Partial != c.partial || b.Full() != c.partial {
				t.Fatalf("kept %d (%d stored), partial %v; want %d, %v", kept, s.ItemCount(), s.Totals.Partial, c.kept, c.partial)
			}
			if s.Totals.Lines != len(c.items) || s.Totals.Retained != c.kept {
				t.Fatalf("totals %+v", s.Totals)
			}
			for _, it := range s.Items() {
				if len(it.Text) > MaxItemText || len(it.Group) > MaxItemKeyBytes || !strings.HasPrefix(long, it.Text[:0]) {
					t.Fatalf("item not clipped: %d text bytes", len(it.Text))
				}
				if strings.ContainsRune(it.Text, '\uFFFD') || !validUTF8(it.Text) || !validUTF8(it.Group) {
					t.Fatal("clipped inside a character")
				}
			}
			n := 0
			for _, f := range s.Files() {
				n += f.Lines
			}
			if n != c.kept {
				t.Fatalf("files count %d items, want %d", n, c.kept)
			}
		})
	}
}

// costOf is what items count against the byte bound.
func costOf(items []Item) int {
	n := 0
	for _, it := range items {
		n += itemCost(it)
	}
	return n
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "") == s }

// TestItemsPageWalk follows pages of every shape to the end: every item
// exactly once, in order, each page within its budget unless it holds one
// item.
func TestItemsPageWalk(t *testing.T) {
	s := goldenAnalysis(t)
	for _, limit := range []int{1, 3, 30, 1000} {
		for _, budget := range []int{0, 100, 200, MaxResponseBytes} {
			var got []Item
			offset, pages := 0, 0
			for {
				items, next, done := s.ItemsPage(offset, limit, budget, nil)
				if len(items) == 0 && !done {
					t.Fatalf("empty page at %d", offset)
				}
				if next != offset+len(items) || len(items) > max(1, min(limit, MaxPageLines)) {
					t.Fatalf("limit %d: page at %d has %d items, next %d", limit, offset, len(items), next)
				}
				used := 0
				for _, it := range items {
					used += EstimateItemSize(it)
				}
				if len(items) > 1 && used > budget {
					t.Fatalf("page of %d bytes over budget %d", used, budget)
				}
				got = append(got, items...)
				offset = next
				if pages++; done || pages > 1000 {
					break
				}
			}
			if len(got) != s.ItemCount() {
				t.Fatalf("limit %d budget %d: walked %d items of %d", limit, budget, len(got), s.ItemCount())
			}
			for i := range got {
				if got[i] != s.Items()[i] {
					t.Fatalf("item %d differs", i)
				}
			}
		}
	}
	if items, next, done := s.ItemsPage(s.ItemCount()+1, 30, MaxResponseBytes, nil); items != nil || next != s.ItemCount() || !done {
		t.Fatal("an offset past the end is not an empty last page")
	}
}

// TestItemsCursorAcrossStores: an items cursor written by one store
// resolves in another on the same folder, to the same items; a lines
// cursor kind cannot page it.
func TestItemsCursorAcrossStores(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	a, b := NewStore(dir), NewStore(dir)
	snap := goldenAnalysis(t)
	snap.ID = ""
	if err := a.Put(snap); err != nil {
		t.Fatal(err)
	}
	_, next, _ := snap.ItemsPage(0, 10, MaxResponseBytes, nil)
	tok, err := a.NewCursor(snap, KindItems, next, SelectPaths("ignored"))
	if err != nil {
		t.Fatal(err)
	}
	got, cur, err := b.Resolve(tok, "/root/a", KindItems, snap.Meta.Fingerprint())
	if err != nil {
		t.Fatal(err)
	}
	if cur.Offset != 10 || !cur.Selection.All() {
		t.Fatalf("cursor %+v", cur)
	}
	sameSnapshot(t, got, snap)
	if _, _, err := b.Resolve(tok, "/root/a", KindMatches, ""); !isCode(err, CodeWrongKind) {
		t.Fatalf("matches page of an items cursor: %v", err)
	}
	if _, err := a.NewCursor(snap, KindItems, snap.ItemCount()+1, PathSelection{}); !isCode(err, CodeOffsetInvalid) {
		t.Fatalf("offset past the items: %v", err)
	}
}

// TestItemsDecodeDamage: truncations and bit flips of an analysis never
// panic, and whatever decodes is a consistent analysis.
func TestItemsDecodeDamage(t *testing.T) {
	raw := payload(goldenAnalysis(t))
	for n := 0; n < len(raw); n++ {
		if _, err := parsePayload(raw[:n]); err == nil {
			t.Fatalf("truncation to %d bytes decoded", n)
		}
	}
	for i := 0; i < len(raw); i++ {
		for _, bit := range []byte{0x01, 0x08, 0x80} {
			b := append([]byte(nil), raw...)
			b[i] ^= bit
			s, err := parsePayload(b)
			if err != nil {
				continue
			}
			if s.analysis {
				if err := s.validateItems(s.Totals.Lines); err != nil {
					t.Fatalf("decoded an inconsistent analysis: %v", err)
				}
			}
			s.ItemsPage(0, 30, MaxResponseBytes, nil)
		}
	}
}
