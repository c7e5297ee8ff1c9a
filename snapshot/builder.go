package snapshot

import (
	"bytes"
	"sort"
	"sync"
	"unicode/utf8"

	"github.com/evgrep/evgrep/revisions"
)

// Builder collects the result of one search as the pipeline produces it.
// Its methods are safe for concurrent use by the pipeline's workers.
//
// Every line is counted, so totals are exact. Lines are retained up to
// MaxRetainedLines lines and MaxRetainedBytes bytes; beyond that the
// snapshot is Partial. Which lines are retained does not depend on the order
// in which workers deliver them: the retained lines are always the first
// ones in (path, line) order, so the numbering of a partial snapshot is as
// stable as that of a complete one.
type Builder struct {
	mu       sync.Mutex
	maxLines int
	maxBytes int
	files    map[string]*fileAcc
	kept     lineHeap // retained lines, the greatest (path, line) on top
	bytes    int      // retained text and ranges
	cut      bool     // some line was dropped…
	cutPath  string   // …and this is the smallest dropped key
	cutLine  int
	searched int
}

type fileAcc struct {
	path     string
	rev      revisions.Revision
	added    bool
	lines    int
	occ      int
	retained int
}

type keptLine struct {
	line Line
	file *fileAcc
	cost int
}

// NewBuilder returns an empty Builder with the bounds of limits.go.
func NewBuilder() *Builder {
	return newBuilder(MaxRetainedLines, MaxRetainedBytes)
}

func newBuilder(maxLines, maxBytes int) *Builder {
	return &Builder{maxLines: maxLines, maxBytes: maxBytes, files: make(map[string]*fileAcc)}
}

func (b *Builder) file(path string) *fileAcc {
	f := b.files[path]
	if f == nil {
		f = &fileAcc{path: path}
		b.files[path] = f
	}
	return f
}

// AddFile records that the search read the file at path and the revision it
// read. Call it once per file read, with or without matches, before or after
// its lines.
func (b *Builder) AddFile(path string, rev revisions.Revision) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.file(path)
	if !f.added {
		f.added = true
		b.searched++
	}
	f.rev = rev
}

// AddLine records match line lineNumber (1-based; 0 when unknown, and a
// negative number counts as 0) of the file at path, its text (without the
// line terminator) and its occurrence ranges (in line coordinates,
// ascending). The line counts len(ranges) occurrences. text and ranges are
// copied, so the caller may reuse its buffers. Call it once per (path,
// line): a line added twice is counted and numbered twice.
func (b *Builder) AddLine(path string, lineNumber int, text []byte, ranges []Range) {
	b.AddLineCounted(path, lineNumber, text, ranges, len(ranges))
}

// AddLineCounted is AddLine for a line that holds occurrences occurrences
// of which only the first are given: the caller need not list the millions
// of occurrences of a huge line, only the first MaxRangesRetained (all of
// them when there are fewer), since no more are retained. The line counts
// occurrences occurrences (at least len(ranges)).
func (b *Builder) AddLineCounted(path string, lineNumber int, text []byte, ranges []Range, occurrences int) {
	lineNumber = max(lineNumber, 0)
	occurrences = max(occurrences, len(ranges))
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.file(path)
	f.lines++
	f.occ += occurrences
	if b.cut && !less(path, lineNumber, b.cutPath, b.cutLine) {
		return
	}
	if len(b.kept) >= b.maxLines && len(b.kept) > 0 {
		top := &b.kept[0].line
		if !less(path, lineNumber, top.Path, top.Number) {
			// It would be dropped at once: skip copying it.
			b.drop(path, lineNumber)
			return
		}
	}
	k := keptLine{line: retain(f.path, lineNumber, text, ranges, occurrences), file: f}
	k.cost = len(k.line.Text) + rangeCost*len(k.line.Ranges)
	b.kept.push(k)
	f.retained++
	b.bytes += k.cost
	for len(b.kept) > b.maxLines || (b.bytes > b.maxBytes && len(b.kept) > 0) {
		k := b.kept.pop()
		k.file.retained--
		b.bytes -= k.cost
		b.drop(k.line.Path, k.line.Number)
	}
}

// drop notes that the line at (path, n) is not retained.
func (b *Builder) drop(path string, n int) {
	if !b.cut || less(path, n, b.cutPath, b.cutLine) {
		b.cut, b.cutPath, b.cutLine = true, path, n
	}
}

// retain makes the retained copy of a line: the whole line when it is at
// most MaxLineBytes long, else a window around the first occurrence cut at
// character boundaries; ranges starting in the window, at most
// MaxRangesRetained of them.
func retain(path string, n int, text []byte, ranges []Range, occurrences int) Line {
	l := Line{Path: path, Number: n, LineBytes: len(text), Occurrences: occurrences}
	lo, hi := 0, len(text)
	if len(text) > MaxLineBytes {
		first := 0
		if len(ranges) > 0 {
			first = min(max(ranges[0].Start, 0), len(text))
		}
		lo = max(0, first-MaxLineBytes/2)
		hi = min(len(text), lo+MaxLineBytes)
		lo = max(0, hi-MaxLineBytes)
		for i := 0; i < utf8.UTFMax-1 && lo < hi && !utf8.RuneStart(text[lo]); i++ {
			lo++
		}
		if hi < len(text) {
			for i := 0; i < utf8.UTFMax-1 && hi > lo && !utf8.RuneStart(text[hi]); i++ {
				hi--
			}
		}
	}
	l.TextStart = lo
	l.Text = append([]byte(nil), text[lo:hi]...)
	for _, r := range ranges {
		if len(l.Ranges) == MaxRangesRetained {
			break
		}
		r = normRange(r)
		if r.Start < lo || r.Start > hi {
			continue
		}
		l.Ranges = append(l.Ranges, r)
	}
	return l
}

// normRange makes a range well formed: no negative offsets, End >= Start.
func normRange(r Range) Range {
	r.Start, r.StartUTF16 = max(r.Start, 0), max(r.StartUTF16, 0)
	r.End, r.EndUTF16 = max(r.End, r.Start), max(r.EndUTF16, r.StartUTF16)
	return r
}

// Build returns the snapshot of everything added so far: retained lines
// sorted by (path, line) and numbered 1..N, files ranked by match lines
// (desc, then path asc), exact totals. The Builder stays usable; the
// snapshot does not change when more is added.
func (b *Builder) Build(meta Meta) *Snapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := &Snapshot{Meta: meta.clone()}
	s.lines = make([]Line, len(b.kept))
	for i, k := range b.kept {
		s.lines[i] = k.line
	}
	sort.Slice(s.lines, func(i, j int) bool {
		a, b := &s.lines[i], &s.lines[j]
		if a.Path != b.Path || a.Number != b.Number {
			return less(a.Path, a.Number, b.Path, b.Number)
		}
		return bytes.Compare(a.Text, b.Text) < 0 // a line added twice
	})
	for i := range s.lines {
		s.lines[i].Match = i + 1
	}
	t := Totals{Searched: b.searched, Retained: len(s.lines)}
	for _, f := range b.files {
		if f.lines == 0 {
			continue
		}
		s.files = append(s.files, File{
			Path: f.path, Lines: f.lines, Occurrences: f.occ,
			Retained: f.retained, Revision: f.rev,
		})
		t.Files++
		t.Lines += f.lines
		t.Occurrences += f.occ
	}
	t.Partial = t.Retained < t.Lines
	s.Totals = t
	rankFiles(s.files)
	s.finish()
	return s
}

func less(p1 string, n1 int, p2 string, n2 int) bool {
	if p1 != p2 {
		return p1 < p2
	}
	return n1 < n2
}

// lineHeap is a max-heap of retained lines by (path, line). Its push and
// pop are container/heap's up and down over the slice itself, so that a
// line is not boxed in an interface value (an allocation of the whole
// keptLine) on the way in and out.
type lineHeap []keptLine

// before reports whether the line at i belongs above the one at j: it is
// the greater (path, line).
func (h lineHeap) before(i, j int) bool {
	return less(h[j].line.Path, h[j].line.Number, h[i].line.Path, h[i].line.Number)
}

// push adds k.
func (h *lineHeap) push(k keptLine) {
	*h = append(*h, k)
	s := *h
	for j := len(s) - 1; j > 0; {
		i := (j - 1) / 2
		if !s.before(j, i) {
			break
		}
		s[i], s[j] = s[j], s[i]
		j = i
	}
}

// pop removes and returns the top line (h is not empty).
func (h *lineHeap) pop() keptLine {
	s := *h
	n := len(s) - 1
	s[0], s[n] = s[n], s[0]
	for i := 0; ; {
		j := 2*i + 1
		if j >= n {
			break
		}
		if j2 := j + 1; j2 < n && s.before(j2, j) {
			j = j2
		}
		if !s.before(j, i) {
			break
		}
		s[i], s[j] = s[j], s[i]
		i = j
	}
	k := s[n]
	s[n] = keptLine{}
	*h = s[:n]
	return k
}
