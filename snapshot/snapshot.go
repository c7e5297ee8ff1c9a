package snapshot

import (
	"path/filepath"
	"sort"

	"github.com/evgrep/evgrep/revisions"
)

// Range is one occurrence on a line: byte offsets Start/End and UTF-16 code
// unit offsets StartUTF16/EndUTF16, all 0-based and relative to the start of
// the whole line (the agent shows columns 1-based).
type Range struct {
	Start, End           int
	StartUTF16, EndUTF16 int
}

// Line is one retained match line. Lines are read-only once built: they
// share their Text and Ranges with the snapshot.
type Line struct {
	// Match is the stable match number, 1..Totals.Retained, in (Path,
	// Number) order.
	Match int
	// Path is the file's path as the search reported it.
	Path string
	// Number is the 1-based line number.
	Number int
	// Text is the retained text: the whole line, or for a line longer than
	// MaxLineBytes a window of it around the first occurrence. It starts
	// at byte TextStart of the line.
	Text []byte
	// TextStart is the byte offset of Text in the line (0 unless clipped).
	TextStart int
	// LineBytes is the length of the whole line.
	LineBytes int
	// Ranges are the retained occurrences (at most MaxRangesRetained, and
	// for a clipped line only those starting inside Text), in line
	// coordinates: Text[r.Start-TextStart:] is where one starts. A range
	// may end beyond the retained text; clip it.
	Ranges []Range
	// Occurrences is the number of occurrences on the line, exact.
	Occurrences int
}

// Clipped reports whether Text is only a window of the line.
func (l *Line) Clipped() bool { return l.TextStart > 0 || len(l.Text) < l.LineBytes }

// File is one file with matches, with exact counts.
type File struct {
	Path string
	// Lines and Occurrences are exact, whether or not retained.
	Lines       int
	Occurrences int
	// Retained is how many of its lines the snapshot holds.
	Retained int
	// Revision is what the search read (zero if never recorded, which
	// revisions.Check reports as changed).
	Revision revisions.Revision
}

// Totals are the exact figures of a search (or of a selection of it).
type Totals struct {
	// Searched is how many files were read (AddFile calls).
	Searched int
	// Files is how many files have at least one match line.
	Files int
	// Lines and Occurrences are exact totals.
	Lines       int
	Occurrences int
	// Retained is how many match lines the snapshot holds.
	Retained int
	// Partial is true when some match lines were not retained.
	Partial bool
}

// NormalizeRoot returns path made absolute, cleaned and with symbolic
// links resolved: the form Meta.Root and Resolve's root argument take.
func NormalizeRoot(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Snapshot is the retained, immutable result of one search. It is safe for
// concurrent readers.
type Snapshot struct {
	// ID is set when the snapshot is stored (Store.Put); 32 hex digits.
	ID     string
	Meta   Meta
	Totals Totals

	lines  []Line // sorted by (Path, Number); lines[i].Match == i+1
	files  []File // count desc, path asc
	byPath []span // files in path order with their lines
	index  map[string]int

	analysis bool   // an analysis: items instead of lines (items.go)
	items    []Item // an analysis's items, in their order
}

// aux reports whether the snapshot holds no match lines (an inspect
// continuation, an empty search): such snapshots take the Store's
// MaxAuxSnapshots slots, never a search's.
func (s *Snapshot) aux() bool { return len(s.lines) == 0 && len(s.items) == 0 }

// span is one file's run of lines, in path order.
type span struct {
	path   string
	lo, hi int // lines[lo:hi]
}

// finish derives the indexes from lines and files (after Build or decode).
func (s *Snapshot) finish() {
	s.index = make(map[string]int, len(s.files))
	for i, f := range s.files {
		s.index[f.Path] = i
	}
	s.byPath = make([]span, 0, len(s.files))
	for _, f := range s.files {
		s.byPath = append(s.byPath, span{path: f.Path})
	}
	sort.Slice(s.byPath, func(i, j int) bool { return s.byPath[i].path < s.byPath[j].path })
	j := 0
	for i := range s.byPath {
		sp := &s.byPath[i]
		for j < len(s.lines) && s.lines[j].Path < sp.path {
			j++
		}
		sp.lo = j
		for j < len(s.lines) && s.lines[j].Path == sp.path {
			j++
		}
		sp.hi = j
	}
}

// Files returns the files with matches, count-ranked (match lines desc,
// then path asc). The slice is shared: do not modify it.
func (s *Snapshot) Files() []File { return s.files }

// File returns the file at path (as the search reported it).
func (s *Snapshot) File(path string) (File, bool) {
	i, ok := s.index[path]
	if !ok {
		return File{}, false
	}
	return s.files[i], true
}

// Line returns the line with stable match number n (1-based).
func (s *Snapshot) Line(n int) (Line, bool) {
	if n < 1 || n > len(s.lines) {
		return Line{}, false
	}
	return s.lines[n-1], true
}

// FileLines returns the retained lines of the file at path, in line order.
// The slice is shared: do not modify it.
func (s *Snapshot) FileLines(path string) []Line {
	i := sort.Search(len(s.byPath), func(i int) bool { return s.byPath[i].path >= path })
	if i == len(s.byPath) || s.byPath[i].path != path {
		return nil
	}
	return s.lines[s.byPath[i].lo:s.byPath[i].hi:s.byPath[i].hi]
}

// selected returns the runs of lines in the selection, in match order.
func (s *Snapshot) selected(sel PathSelection) []span {
	if sel.All() {
		return []span{{lo: 0, hi: len(s.lines)}}
	}
	var out []span
	for _, sp := range s.byPath {
		if sp.hi > sp.lo && sel.Match(sp.path) {
			out = append(out, sp)
		}
	}
	return out
}

// Count returns the totals of the files in the selection (Searched is the
// whole search's).
func (s *Snapshot) Count(sel PathSelection) Totals {
	if sel.All() {
		return s.Totals
	}
	t := Totals{Searched: s.Totals.Searched}
	for _, f := range s.files {
		if sel.Match(f.Path) {
			t.Files++
			t.Lines += f.Lines
			t.Occurrences += f.Occurrences
			t.Retained += f.Retained
		}
	}
	t.Partial = t.Retained < t.Lines
	return t
}

// EstimateSize is the size MatchesPage charges a line when the caller gives
// no size function: the path, the text as an agent shows it (at most an
// excerpt of MaxExcerptChars characters, 4 bytes each at worst, when the
// line is longer), up to MaxRangesShown ranges at 12 bytes each and 32
// bytes for line number, match number and separators.
func EstimateSize(l Line) int {
	text := len(l.Text)
	if l.LineBytes > MaxExcerptChars {
		text = min(text, 4*MaxExcerptChars)
	}
	return len(l.Path) + text + 12*min(len(l.Ranges), MaxRangesShown) + 32
}

// MatchesPage returns the retained lines of the selection from offset on
// (offset counts lines of the selection, in match order): at most limit
// lines (clamped to 1..MaxPageLines) whose sizes, as size reports them
// (EstimateSize when nil), sum to at most budget. The first line is always
// returned, whatever its size, so paging always progresses; the caller
// keeps lines small (excerpts) and passes what is left of its response
// budget. next is the offset of the following page and done tells that it
// is empty. An offset outside 0..count returns no lines, next = count and
// done.
func (s *Snapshot) MatchesPage(sel PathSelection, offset, limit, budget int, size func(Line) int) (lines []Line, next int, done bool) {
	spans := s.selected(sel)
	total := 0
	for _, sp := range spans {
		total += sp.hi - sp.lo
	}
	if offset < 0 || offset >= total {
		return nil, total, true
	}
	limit = max(1, min(limit, MaxPageLines))
	if size == nil {
		size = EstimateSize
	}
	used := 0
	skip := offset
	for _, sp := range spans {
		n := sp.hi - sp.lo
		if skip >= n {
			skip -= n
			continue
		}
		for i := sp.lo + skip; i < sp.hi; i++ {
			sz := size(s.lines[i])
			if len(lines) > 0 && used+sz > budget {
				return lines, offset + len(lines), false
			}
			lines = append(lines, s.lines[i])
			used += sz
			if len(lines) == limit {
				next = offset + len(lines)
				return lines, next, next == total
			}
		}
		skip = 0
	}
	return lines, total, true
}

// SummaryPage returns the count-ranked files from offset on, at most limit
// (clamped to 1..MaxSummaryFiles). next is the offset of the following page
// and done tells that it is empty. An offset outside 0..len(files) returns
// no files, next = len(files) and done.
func (s *Snapshot) SummaryPage(offset, limit int) (files []File, next int, done bool) {
	total := len(s.files)
	if offset < 0 || offset >= total {
		return nil, total, true
	}
	limit = max(1, min(limit, MaxSummaryFiles))
	end := min(total, offset+limit)
	return s.files[offset:end:end], end, end == total
}

// count returns the number of positions a cursor of kind over sel may hold.
func (s *Snapshot) count(kind Kind, sel PathSelection) int {
	if kind.continuation() {
		return 0
	}
	if kind == KindSummary {
		return len(s.files)
	}
	if kind == KindItems {
		return len(s.items)
	}
	n := 0
	for _, sp := range s.selected(sel) {
		n += sp.hi - sp.lo
	}
	return n
}

// rankFiles sorts files by match lines desc, then path asc.
func rankFiles(files []File) {
	sort.Slice(files, func(i, j int) bool {
		if files[i].Lines != files[j].Lines {
			return files[i].Lines > files[j].Lines
		}
		return files[i].Path < files[j].Path
	})
}
