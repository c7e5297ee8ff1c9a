package snapshot

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// sortedInputs returns the inputs in (path, line) order.
func sortedInputs(in []input) []input {
	out := append([]input(nil), in...)
	sort.Slice(out, func(i, j int) bool { return less(out[i].path, out[i].line, out[j].path, out[j].line) })
	return out
}

func TestBuildOrderNumbersAndRanking(t *testing.T) {
	in := corpus("p", 40)
	want := sortedInputs(in)
	for seed := uint64(0); seed < 4; seed++ {
		s := build(NewBuilder(), in, seed, testMeta("/r"))
		if s.Totals.Retained != len(in) || s.Totals.Lines != len(in) || s.Totals.Partial {
			t.Fatalf("seed %d: totals %+v", seed, s.Totals)
		}
		for i, l := range s.lines {
			if l.Match != i+1 || l.Path != want[i].path || l.Number != want[i].line || string(l.Text) != want[i].text {
				t.Fatalf("seed %d: line %d = %d %s:%d, want %s:%d", seed, i, l.Match, l.Path, l.Number, want[i].path, want[i].line)
			}
		}
		for i := 1; i < len(s.files); i++ {
			a, b := s.files[i-1], s.files[i]
			if a.Lines < b.Lines || a.Lines == b.Lines && a.Path >= b.Path {
				t.Fatalf("files out of rank: %s(%d) before %s(%d)", a.Path, a.Lines, b.Path, b.Lines)
			}
		}
		if s.files[0].Lines != 5 || s.files[0].Path != "p/d0/f009.go" {
			t.Errorf("top file %+v", s.files[0])
		}
	}
}

func TestTotalsExact(t *testing.T) {
	b := NewBuilder()
	b.AddFile("a", revOf("a"))
	b.AddFile("b", revOf("b")) // read, no match
	b.AddFile("a", revOf("a")) // the same file again counts once
	b.AddLine("a", 1, []byte("x x x"), []Range{{0, 1, 0, 1}, {2, 3, 2, 3}, {4, 5, 4, 5}})
	b.AddLine("a", 2, []byte("x"), []Range{{0, 1, 0, 1}})
	b.AddLine("c", 9, []byte("x"), []Range{{0, 1, 0, 1}}) // never AddFile'd
	s := b.Build(Meta{})
	want := Totals{Searched: 2, Files: 2, Lines: 3, Occurrences: 5, Retained: 3}
	if s.Totals != want {
		t.Fatalf("totals %+v, want %+v", s.Totals, want)
	}
	if f, ok := s.File("a"); !ok || f.Lines != 2 || f.Occurrences != 4 || f.Retained != 2 || f.Revision != revOf("a") {
		t.Errorf("file a = %+v", f)
	}
	if f, ok := s.File("c"); !ok || f.Revision.Verified {
		t.Errorf("file c = %+v (no revision recorded)", f)
	}
	if _, ok := s.File("b"); ok {
		t.Error("a file without matches is listed")
	}
}

// TestRetentionDeterministic feeds the same lines in different orders to a
// builder with small bounds: the retained lines are always the first ones in
// (path, line) order and the totals stay exact.
func TestRetentionDeterministic(t *testing.T) {
	in := corpus("q", 30) // 90 lines
	sorted := sortedInputs(in)
	lineCost := func(x input) int { return len(x.text) + rangeCost*len(x.ranges) }
	tests := []struct {
		name               string
		maxLines, maxBytes int
	}{
		{"line cap", 25, 1 << 30},
		{"byte cap", 1000, 2000},
		{"both", 10, 2000},
		{"no cap", 1000, 1 << 30},
		{"cap of one", 1, 1 << 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// The expected retained set: the longest fitting prefix.
			keep, bytes := 0, 0
			for keep < len(sorted) && keep < tc.maxLines && bytes+lineCost(sorted[keep]) <= tc.maxBytes {
				bytes += lineCost(sorted[keep])
				keep++
			}
			var first *Snapshot
			for seed := uint64(0); seed < 6; seed++ {
				s := build(newBuilder(tc.maxLines, tc.maxBytes), in, seed, testMeta("/r"))
				if s.Totals.Lines != len(in) || s.Totals.Retained != keep || s.Totals.Partial != (keep < len(in)) {
					t.Fatalf("seed %d: totals %+v, want %d retained of %d", seed, s.Totals, keep, len(in))
				}
				for i, l := range s.lines {
					if l.Path != sorted[i].path || l.Number != sorted[i].line {
						t.Fatalf("seed %d: retained %s:%d at %d, want %s:%d", seed, l.Path, l.Number, i, sorted[i].path, sorted[i].line)
					}
				}
				retained := 0
				for _, f := range s.files {
					retained += f.Retained
					if len(s.FileLines(f.Path)) != f.Retained {
						t.Fatalf("%s: Retained %d, FileLines %d", f.Path, f.Retained, len(s.FileLines(f.Path)))
					}
				}
				if retained != keep {
					t.Fatalf("per-file retained sums to %d, want %d", retained, keep)
				}
				if first == nil {
					first = s
				} else {
					sameSnapshot(t, s, first)
				}
			}
		})
	}
}

func TestRetentionCapConstant(t *testing.T) {
	b := NewBuilder()
	extra := 700
	// Deliver the later half first, so that retention has to evict.
	for i := MaxRetainedLines + extra; i >= 1; i-- {
		b.AddLine("big.txt", i, []byte("err"), []Range{{0, 3, 0, 3}})
	}
	s := b.Build(Meta{})
	want := Totals{Files: 1, Lines: MaxRetainedLines + extra, Occurrences: MaxRetainedLines + extra, Retained: MaxRetainedLines, Partial: true}
	if s.Totals != want {
		t.Fatalf("totals %+v, want %+v", s.Totals, want)
	}
	if l, _ := s.Line(MaxRetainedLines); l.Number != MaxRetainedLines {
		t.Errorf("last retained line is %d", l.Number)
	}
}

func TestConcurrentBuilders(t *testing.T) {
	in := corpus("c", 200)
	want := build(newBuilder(100, 1<<30), in, 0, testMeta("/r"))
	b := newBuilder(100, 1<<30)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(in); i += 8 {
				x := in[i]
				b.AddLine(x.path, x.line, []byte(x.text), x.ranges)
				b.AddFile(x.path, revOf(x.path))
			}
		}()
	}
	wg.Wait()
	got := b.Build(testMeta("/r"))
	got.ID, want.ID = "", ""
	sameSnapshot(t, got, want)
}

func TestLongLineWindow(t *testing.T) {
	// "é" is two bytes: windows must not cut it.
	unit := "aé"
	long := strings.Repeat(unit, 40000) // 120,000 bytes
	tests := []struct {
		name  string
		first int // byte offset of the first occurrence
	}{
		{"middle", 60000},
		{"start", 0},
		{"end", len(long) - 3},
		{"odd offset", 60001},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var rs []Range
			for off := tc.first; off+3 <= len(long) && len(rs) < 300; off += 3000 {
				rs = append(rs, Range{Start: off, End: off + 3, StartUTF16: off / 2, EndUTF16: off/2 + 2})
			}
			b := NewBuilder()
			b.AddLine("long.txt", 1, []byte(long), rs)
			s := b.Build(Meta{})
			l, _ := s.Line(1)
			if l.LineBytes != len(long) || l.Occurrences != len(rs) {
				t.Fatalf("LineBytes %d Occurrences %d", l.LineBytes, l.Occurrences)
			}
			if len(l.Text) > MaxLineBytes || len(l.Text) < MaxLineBytes-utf8.UTFMax*2 {
				t.Fatalf("window of %d bytes", len(l.Text))
			}
			if !l.Clipped() {
				t.Error("not reported clipped")
			}
			if !bytes.Equal(l.Text, []byte(long[l.TextStart:l.TextStart+len(l.Text)])) {
				t.Fatal("window is not the line's bytes at TextStart")
			}
			if !utf8.Valid(l.Text) {
				t.Error("window cuts a character")
			}
			if tc.first < l.TextStart || tc.first+3 > l.TextStart+len(l.Text) {
				t.Errorf("first occurrence %d outside the window [%d,%d)", tc.first, l.TextStart, l.TextStart+len(l.Text))
			}
			// Room for an excerpt around the first occurrence.
			room := 4 * MaxExcerptChars
			if tc.first-l.TextStart < min(room, tc.first) || l.TextStart+len(l.Text)-tc.first < min(room, len(long)-tc.first) {
				t.Errorf("no excerpt room around %d in [%d,%d)", tc.first, l.TextStart, l.TextStart+len(l.Text))
			}
			for _, r := range l.Ranges {
				if r.Start < l.TextStart || r.Start > l.TextStart+len(l.Text) {
					t.Errorf("range %+v outside the window", r)
				}
			}
			if len(l.Ranges) == 0 || l.Ranges[0].Start != tc.first {
				t.Errorf("first range not retained: %+v", l.Ranges)
			}
		})
	}
}

func TestRangesRetainedAndNormalized(t *testing.T) {
	text := strings.Repeat("x", 300)
	var rs []Range
	for i := 0; i < 200; i++ {
		rs = append(rs, Range{Start: i, End: i + 1, StartUTF16: i, EndUTF16: i + 1})
	}
	b := NewBuilder()
	b.AddLine("f", 1, []byte(text), rs)
	b.AddLine("f", 2, []byte("abc"), []Range{{Start: -5, End: -9, StartUTF16: -1, EndUTF16: -2}, {Start: 2, End: 1, StartUTF16: 2, EndUTF16: 1}})
	b.AddLine("f", 3, nil, nil)
	s := b.Build(Meta{})
	l1, _ := s.Line(1)
	if len(l1.Ranges) != MaxRangesRetained || l1.Occurrences != 200 {
		t.Errorf("%d ranges retained of %d", len(l1.Ranges), l1.Occurrences)
	}
	l2, _ := s.Line(2)
	for _, r := range l2.Ranges {
		if r.Start < 0 || r.End < r.Start || r.StartUTF16 < 0 || r.EndUTF16 < r.StartUTF16 {
			t.Errorf("range not normalized: %+v", r)
		}
	}
	if l3, _ := s.Line(3); l3.Occurrences != 0 || len(l3.Text) != 0 || l3.Clipped() {
		t.Errorf("empty line: %+v", l3)
	}
	if s.Totals.Occurrences != 202 {
		t.Errorf("occurrences %d", s.Totals.Occurrences)
	}
}

func TestBuildCopiesInput(t *testing.T) {
	b := NewBuilder()
	buf := []byte("hello err")
	rs := []Range{{6, 9, 6, 9}}
	b.AddLine("f", 1, buf, rs)
	copy(buf, "XXXXXXXXX")
	rs[0].Start = 0
	s := b.Build(Meta{Options: map[string]string{"a": "b"}})
	b.AddLine("f", 2, buf, rs) // after Build: the snapshot is unaffected
	l, _ := s.Line(1)
	if string(l.Text) != "hello err" || l.Ranges[0].Start != 6 {
		t.Errorf("line shares the caller's buffers: %q %+v", l.Text, l.Ranges)
	}
	if s.Totals.Lines != 1 || len(s.lines) != 1 {
		t.Errorf("snapshot changed after Build: %+v", s.Totals)
	}
	if s2 := b.Build(Meta{}); s2.Totals.Lines != 2 {
		t.Errorf("builder not usable after Build: %+v", s2.Totals)
	}
}

func TestLineAccessors(t *testing.T) {
	s := mustSnapshot(t, "acc", 10)
	for _, n := range []int{0, -1, len(s.lines) + 1} {
		if _, ok := s.Line(n); ok {
			t.Errorf("Line(%d) found", n)
		}
	}
	for _, f := range s.Files() {
		ls := s.FileLines(f.Path)
		if len(ls) != f.Lines {
			t.Errorf("%s: %d lines, want %d", f.Path, len(ls), f.Lines)
		}
		for _, l := range ls {
			if got, _ := s.Line(l.Match); got.Path != f.Path || got.Number != l.Number {
				t.Errorf("Line(%d) = %s:%d", l.Match, got.Path, got.Number)
			}
		}
	}
	if s.FileLines("nope") != nil {
		t.Error("FileLines of an unknown path")
	}
}

func TestFingerprint(t *testing.T) {
	a := map[string]string{"pattern": "x", "globs": `["*.go"]`}
	b := map[string]string{"globs": `["*.go"]`, "pattern": "x"}
	if Fingerprint(a) != Fingerprint(b) {
		t.Error("fingerprint depends on map order")
	}
	tests := []map[string]string{
		nil,
		{"pattern": "x"},
		{"pattern": "x", "globs": `["*.rs"]`},
		{"pattern": "xglobs"},
		{"patternx": "", "globs": `["*.go"]`},
		{"pattern": "x", "globs": `["*.go"]`, "literal": "true"},
	}
	seen := map[string]int{Fingerprint(a): -1}
	for i, m := range tests {
		fp := Fingerprint(m)
		if len(fp) != 32 {
			t.Errorf("fingerprint %q", fp)
		}
		if j, ok := seen[fp]; ok {
			t.Errorf("options %d and %d share a fingerprint", i, j)
		}
		seen[fp] = i
	}
	if (Meta{Options: a}).Fingerprint() != Fingerprint(a) {
		t.Error("Meta.Fingerprint differs")
	}
}

func ExampleBuilder() {
	b := NewBuilder()
	b.AddLine("b.go", 3, []byte("if err != nil {"), []Range{{Start: 3, End: 6, StartUTF16: 3, EndUTF16: 6}})
	b.AddLine("a.go", 9, []byte("return err"), []Range{{Start: 7, End: 10, StartUTF16: 7, EndUTF16: 10}})
	b.AddLine("b.go", 1, []byte("err := f()"), []Range{{Start: 0, End: 3, StartUTF16: 0, EndUTF16: 3}})
	s := b.Build(Meta{Root: "/src"})
	lines, _, _ := s.MatchesPage(PathSelection{}, 0, 10, MaxResponseBytes, nil)
	for _, l := range lines {
		fmt.Printf("%s:%d:%d {match #%d}\n", l.Path, l.Number, l.Ranges[0].StartUTF16+1, l.Match)
	}
	files, _, _ := s.SummaryPage(0, MaxSummaryFiles)
	for _, f := range files {
		fmt.Println(f.Path, f.Lines)
	}
	// Output:
	// a.go:9:8 {match #1}
	// b.go:1:1 {match #2}
	// b.go:3:4 {match #3}
	// b.go 2
	// a.go 1
}

// TestOddLineNumbers: unknown (0), negative and repeated line numbers are
// caller mistakes, but the snapshot still builds, pages and persists.
func TestOddLineNumbers(t *testing.T) {
	b := NewBuilder()
	b.AddLine("f", 0, []byte("zero"), []Range{{0, 1, 0, 1}})
	b.AddLine("f", -7, []byte("negative"), []Range{{0, 1, 0, 1}})
	b.AddLine("f", 3, []byte("b twice"), []Range{{0, 1, 0, 1}})
	b.AddLine("f", 3, []byte("a twice"), []Range{{0, 1, 0, 1}})
	s := b.Build(Meta{Root: "/r"})
	var got []string
	for _, l := range s.lines {
		got = append(got, fmt.Sprintf("%d:%s", l.Number, l.Text))
	}
	if fmt.Sprint(got) != "[0:negative 0:zero 3:a twice 3:b twice]" {
		t.Errorf("lines %v", got)
	}
	if s.Totals.Lines != 4 {
		t.Errorf("totals %+v", s.Totals)
	}
	dir := t.TempDir()
	tok, err := NewStore(dir).NewCursor(s, KindMatches, 0, PathSelection{})
	if err != nil {
		t.Fatal(err)
	}
	got2, _, err := NewStore(dir).Resolve(tok, "", KindMatches, "")
	if err != nil {
		t.Fatal(err)
	}
	sameSnapshot(t, got2, s)
}

// TestAddLineCounted checks that a line given with only its first
// MaxRangesRetained ranges and its exact count is retained and counted as
// the same line given with all its ranges.
func TestAddLineCounted(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		first int // offset of the first occurrence
		every int // distance between occurrences
	}{
		{"short line, many ranges", strings.Repeat("a", 500), 0, 1},
		{"long line, dense", strings.Repeat("a", 100000), 0, 1},
		{"long line, first in the middle", strings.Repeat("ab", 50000), 50001, 2},
		{"long line, sparse", strings.Repeat("a", 100000), 10, 700},
		{"fewer than retained", strings.Repeat("a", 100), 5, 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var all []Range
			for off := tc.first; off < len(tc.text); off += tc.every {
				all = append(all, Range{Start: off, End: off + 1, StartUTF16: off, EndUTF16: off + 1})
			}
			whole, counted := NewBuilder(), NewBuilder()
			whole.AddLine("f", 7, []byte(tc.text), all)
			counted.AddLineCounted("f", 7, []byte(tc.text), all[:min(len(all), MaxRangesRetained)], len(all))
			sw, sc := whole.Build(Meta{}), counted.Build(Meta{})
			lw, _ := sw.Line(1)
			lc, _ := sc.Line(1)
			if lc.Occurrences != len(all) || sc.Totals.Occurrences != len(all) || sc.Files()[0].Occurrences != len(all) {
				t.Errorf("occurrences: line %d, totals %d, file %d; want %d", lc.Occurrences, sc.Totals.Occurrences, sc.Files()[0].Occurrences, len(all))
			}
			if lw.TextStart != lc.TextStart || !bytes.Equal(lw.Text, lc.Text) || lw.LineBytes != lc.LineBytes {
				t.Errorf("text differs: [%d,+%d) vs [%d,+%d)", lw.TextStart, len(lw.Text), lc.TextStart, len(lc.Text))
			}
			if fmt.Sprint(lw.Ranges) != fmt.Sprint(lc.Ranges) {
				t.Errorf("ranges differ: %d vs %d retained", len(lw.Ranges), len(lc.Ranges))
			}
		})
	}
	// A count below the ranges given is raised to them.
	b := NewBuilder()
	b.AddLineCounted("f", 1, []byte("aaa"), []Range{{Start: 0, End: 1}, {Start: 1, End: 2}}, 1)
	if s := b.Build(Meta{}); s.Totals.Occurrences != 2 {
		t.Errorf("count below ranges: occurrences %d, want 2", s.Totals.Occurrences)
	}
}
