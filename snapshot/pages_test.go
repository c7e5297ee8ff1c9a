package snapshot

import (
	"fmt"
	"testing"
)

// expectedLines returns the match numbers of the retained lines a
// selection holds, in order.
func expectedLines(s *Snapshot, sel PathSelection) []int {
	var out []int
	for _, l := range s.lines {
		if sel.Match(l.Path) {
			out = append(out, l.Match)
		}
	}
	return out
}

func TestMatchesPageWalk(t *testing.T) {
	snaps := map[string]*Snapshot{
		"empty":   build(NewBuilder(), nil, 0, testMeta("/r")),
		"one":     build(NewBuilder(), corpus("w", 1), 0, testMeta("/r")),
		"small":   mustSnapshot(t, "w", 7),
		"medium":  mustSnapshot(t, "w", 100),
		"partial": build(newBuilder(50, 1<<30), corpus("w", 100), 3, testMeta("/r")),
	}
	sels := map[string]PathSelection{
		"all":         {},
		"one file":    SelectPaths("w/d1/f004.go"),
		"dir":         SelectPaths("w/d2"),
		"dir slash":   SelectPaths("./w/d0/"),
		"two":         SelectPaths("w/d2", "w/d0/f000.go", "w/d2/f005.go"),
		"nothing":     SelectPaths("w/none"),
		"prefix only": SelectPaths("w/d"),
	}
	sizes := map[string]func(Line) int{
		"estimate": nil,
		"text":     func(l Line) int { return len(l.Text) + 1 },
		"huge":     func(Line) int { return 1 << 20 },
	}
	for sn, s := range snaps {
		for seln, sel := range sels {
			want := expectedLines(s, sel)
			for _, limit := range []int{-3, 0, 1, 3, 100, 1000} {
				for _, budget := range []int{0, 1, 200, 1000, MaxResponseBytes} {
					for szn, size := range sizes {
						name := fmt.Sprintf("%s/%s/limit=%d/budget=%d/%s", sn, seln, limit, budget, szn)
						walkMatches(t, name, s, sel, limit, budget, size, want)
					}
				}
			}
		}
	}
}

func walkMatches(t *testing.T, name string, s *Snapshot, sel PathSelection, limit, budget int, size func(Line) int, want []int) {
	t.Helper()
	sz := size
	if sz == nil {
		sz = EstimateSize
	}
	maxLines := max(1, min(limit, MaxPageLines))
	var got []int
	offset := 0
	for pages := 0; ; pages++ {
		if pages > len(want)+1 {
			t.Fatalf("%s: no progress", name)
		}
		lines, next, done := s.MatchesPage(sel, offset, limit, budget, size)
		if len(lines) > maxLines {
			t.Fatalf("%s: page of %d lines over limit %d", name, len(lines), maxLines)
		}
		used := 0
		for _, l := range lines {
			used += sz(l)
			got = append(got, l.Match)
		}
		if len(lines) > 1 && used > budget {
			t.Fatalf("%s: page of %d bytes over budget %d", name, used, budget)
		}
		if next != offset+len(lines) {
			t.Fatalf("%s: next %d after %d lines from %d", name, next, len(lines), offset)
		}
		if done != (next == len(want)) {
			t.Fatalf("%s: done=%v at %d of %d", name, done, next, len(want))
		}
		if !done && len(lines) == 0 {
			t.Fatalf("%s: empty page not done", name)
		}
		offset = next
		if done {
			break
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) && !(len(got) == 0 && len(want) == 0) {
		t.Fatalf("%s: walked %v, want %v", name, got, want)
	}
}

func TestMatchesPageBudgetFill(t *testing.T) {
	s := mustSnapshot(t, "b", 60)
	// Sizes of 10 each: a budget of 35 holds exactly three lines.
	lines, next, done := s.MatchesPage(PathSelection{}, 2, 100, 35, func(Line) int { return 10 })
	if len(lines) != 3 || next != 5 || done || lines[0].Match != 3 {
		t.Fatalf("got %d lines, next %d, done %v", len(lines), next, done)
	}
	// Limits are clamped to MaxPageLines.
	lines, _, _ = s.MatchesPage(PathSelection{}, 0, 10000, 1<<30, nil)
	if len(lines) != MaxPageLines {
		t.Fatalf("limit not clamped: %d lines", len(lines))
	}
}

func TestPageOffsetsOutOfRange(t *testing.T) {
	s := mustSnapshot(t, "o", 5)
	n := len(s.lines)
	for _, off := range []int{-1, n, n + 1, 1 << 40} {
		lines, next, done := s.MatchesPage(PathSelection{}, off, 10, MaxResponseBytes, nil)
		if lines != nil || next != n || !done {
			t.Errorf("matches offset %d: %d lines, next %d, done %v", off, len(lines), next, done)
		}
		files, next, done := s.SummaryPage(off+len(s.files)-n, 10)
		if files != nil || next != len(s.files) || !done {
			t.Errorf("summary offset %d: %d files, next %d, done %v", off, len(files), next, done)
		}
	}
}

func TestSummaryPageWalk(t *testing.T) {
	for _, nfiles := range []int{0, 1, 29, 30, 31, 95} {
		s := build(NewBuilder(), corpus("s", nfiles), 2, testMeta("/r"))
		for _, limit := range []int{-1, 0, 1, 7, 30, 31, 500} {
			per := max(1, min(limit, MaxSummaryFiles))
			var got []string
			offset := 0
			for pages := 0; ; pages++ {
				if pages > nfiles+1 {
					t.Fatalf("%d files, limit %d: no progress", nfiles, limit)
				}
				files, next, done := s.SummaryPage(offset, limit)
				if len(files) > per || next != offset+len(files) || done != (next == nfiles) || (!done && len(files) == 0) {
					t.Fatalf("%d files, limit %d: page of %d, next %d, done %v", nfiles, limit, len(files), next, done)
				}
				for _, f := range files {
					got = append(got, f.Path)
				}
				offset = next
				if done {
					break
				}
			}
			var want []string
			for _, f := range s.files {
				want = append(want, f.Path)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%d files, limit %d: walked %v, want %v", nfiles, limit, got, want)
			}
		}
	}
}

func TestSelection(t *testing.T) {
	tests := []struct {
		paths []string
		path  string
		want  bool
	}{
		{nil, "anything", true},
		{[]string{"."}, "a/b", true},
		{[]string{""}, "a/b", true},
		{[]string{"a"}, "a", true},
		{[]string{"a"}, "a/b/c", true},
		{[]string{"a"}, "ab", false},
		{[]string{"a"}, "a-b/c", false},
		{[]string{"a/"}, "a/b", true},
		{[]string{"./a"}, "a/b", true},
		{[]string{"a"}, "./a/b", true},
		{[]string{"a/b.go"}, "a/b.go", true},
		{[]string{"a/b.go"}, "a/b.gox", false},
		{[]string{"/"}, "/etc/x", true},
		{[]string{"/src"}, "/src/x", true},
		{[]string{"/src"}, "src/x", false},
		{[]string{"x", "a"}, "a/1", true},
		{[]string{"x", "y"}, "a/1", false},
		{[]string{"a/../b"}, "b/1", true},
	}
	for _, tc := range tests {
		sel := SelectPaths(tc.paths...)
		if got := sel.Match(tc.path); got != tc.want {
			t.Errorf("SelectPaths(%q).Match(%q) = %v, want %v", tc.paths, tc.path, got, tc.want)
		}
		if got := (PathSelection{Paths: tc.paths}).Match(tc.path); got != tc.want {
			t.Errorf("unnormalized %q Match(%q) = %v, want %v", tc.paths, tc.path, got, tc.want)
		}
	}
	if !SelectPaths("b", "a", "./b").Equal(PathSelection{Paths: []string{"a", "b/"}}) {
		t.Error("Equal after normalization")
	}
	if SelectPaths("a").Equal(SelectPaths("a", "b")) || SelectPaths("a").Equal(SelectPaths("b")) {
		t.Error("different selections equal")
	}
	if got := SelectPaths("b", "a", "b"); fmt.Sprint(got.Paths) != "[a b]" {
		t.Errorf("SelectPaths = %v", got.Paths)
	}
}

func TestCount(t *testing.T) {
	s := build(newBuilder(20, 1<<30), corpus("n", 30), 0, testMeta("/r"))
	if got := s.Count(PathSelection{}); got != s.Totals {
		t.Errorf("Count(all) = %+v, want %+v", got, s.Totals)
	}
	sel := SelectPaths("n/d1")
	var want Totals
	want.Searched = s.Totals.Searched
	for _, f := range s.files {
		if sel.Match(f.Path) {
			want.Files++
			want.Lines += f.Lines
			want.Occurrences += f.Occurrences
			want.Retained += f.Retained
		}
	}
	want.Partial = want.Retained < want.Lines
	got := s.Count(sel)
	if got != want || got.Retained != len(expectedLines(s, sel)) || !got.Partial {
		t.Errorf("Count(n/d1) = %+v, want %+v", got, want)
	}
}
