package snapshot

import (
	"errors"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/evgrep/evgrep/revisions"
)

// Item is one stored result of an analysis: a term occurrence, an
// occurrence classified by syntax role, an import link, a ranked chunk, a
// structural match. An analysis snapshot holds items instead of match
// lines; its pages are item pages (KindItems) and every count an answer
// gives is derived from the stored items.
type Item struct {
	// Path is the file's path as the analysis reported it.
	Path string
	// Line and EndLine are the 1-based first and last lines (EndLine ==
	// Line for one line; 0 when the item is a whole file).
	Line, EndLine int
	// Start and End are byte offsets of the item in the file (-1 when
	// unknown).
	Start, End int64
	// Group is what per-group counts count: the term, the role, the rule
	// id. Label is a second key (a symbol kind, captures as text).
	Group, Label string
	// Score is a rank score (0 when unused).
	Score float64
	// Text is the excerpt an answer shows; the builder clips it to
	// MaxItemText bytes at a character boundary.
	Text string
}

// ItemsBuilder collects the items of one analysis in their final order.
// Its methods are safe for concurrent use, but items are kept in the order
// Add is called: a parallel producer sorts first, then adds.
//
// Items are kept up to MaxItems items and MaxItemsBytes bytes; beyond that
// Add reports false and the snapshot is Partial (Totals.Lines counts every
// item offered, Totals.Retained those kept).
type ItemsBuilder struct {
	mu       sync.Mutex
	maxItems int
	maxBytes int
	files    map[string]*fileAcc
	items    []Item
	bytes    int
	offered  int
	searched int
	full     bool
}

// NewItemsBuilder returns an empty ItemsBuilder with the bounds of
// limits.go.
func NewItemsBuilder() *ItemsBuilder { return newItemsBuilder(MaxItems, MaxItemsBytes) }

func newItemsBuilder(maxItems, maxBytes int) *ItemsBuilder {
	return &ItemsBuilder{maxItems: maxItems, maxBytes: maxBytes, files: make(map[string]*fileAcc)}
}

// AddFile records that the analysis read the file at path and the revision
// it read, so that an answer can check the file before showing its items.
// Call it once per file read, before or after its items.
func (b *ItemsBuilder) AddFile(path string, rev revisions.Revision) {
	b.mu.Lock()
	defer b.mu.Unlock()
	f := b.files[path]
	if f == nil {
		f = &fileAcc{path: path}
		b.files[path] = f
	}
	if !f.added {
		f.added = true
		b.searched++
	}
	f.rev = rev
}

// Add appends it (its Text clipped to MaxItemText bytes, Group and Label
// to MaxItemKeyBytes) and reports whether it was kept: false once the
// builder is full, from then on for every item.
func (b *ItemsBuilder) Add(it Item) bool {
	it.Text = clipUTF8(it.Text, MaxItemText)
	it.Group = clipUTF8(it.Group, MaxItemKeyBytes)
	it.Label = clipUTF8(it.Label, MaxItemKeyBytes)
	it.Line, it.EndLine = max(it.Line, 0), max(it.EndLine, it.Line, 0)
	if it.Start < 0 || it.End < it.Start {
		it.Start, it.End = -1, -1
	}
	cost := itemCost(it)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.offered++
	if b.full || len(b.items) >= b.maxItems || b.bytes+cost > b.maxBytes {
		b.full = true
		return false
	}
	f := b.files[it.Path]
	if f == nil {
		f = &fileAcc{path: it.Path}
		b.files[it.Path] = f
	}
	it.Path = f.path // share the path string
	f.lines++
	f.occ++
	f.retained++
	b.items = append(b.items, it)
	b.bytes += cost
	return true
}

// Full reports whether an item has been refused: the snapshot is Partial.
func (b *ItemsBuilder) Full() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.full
}

// Build returns the analysis snapshot of everything added so far: items in
// the order added, files ranked by their item count (desc, then path asc).
// The builder stays usable; the snapshot does not change when more is
// added.
func (b *ItemsBuilder) Build(meta Meta) *Snapshot {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := &Snapshot{Meta: meta.clone(), analysis: true}
	s.items = append([]Item(nil), b.items...)
	for _, f := range b.files {
		if f.lines == 0 {
			continue
		}
		s.files = append(s.files, File{
			Path: f.path, Lines: f.lines, Occurrences: f.occ,
			Retained: f.retained, Revision: f.rev,
		})
	}
	rankFiles(s.files)
	s.Totals = Totals{
		Searched: b.searched, Files: len(s.files),
		Lines: b.offered, Occurrences: b.offered,
		Retained: len(s.items), Partial: len(s.items) < b.offered,
	}
	s.finish()
	return s
}

// IsAnalysis reports whether s holds items (an analysis) rather than match
// lines (a search).
func (s *Snapshot) IsAnalysis() bool { return s.analysis }

// Items returns the stored items in their order. The slice is shared: do
// not modify it.
func (s *Snapshot) Items() []Item { return s.items }

// ItemCount is how many items s holds.
func (s *Snapshot) ItemCount() int { return len(s.items) }

// ItemsPage returns the items from offset on: at most limit items (clamped
// to 1..MaxPageLines) whose sizes, as size reports them (EstimateItemSize
// when nil), sum to at most budget. The first item is always returned,
// whatever its size, so paging always progresses. next is the offset of the
// following page and done tells that it is empty. An offset outside
// 0..ItemCount returns no items, next = ItemCount and done.
func (s *Snapshot) ItemsPage(offset, limit, budget int, size func(Item) int) (items []Item, next int, done bool) {
	total := len(s.items)
	if offset < 0 || offset >= total {
		return nil, total, true
	}
	limit = max(1, min(limit, MaxPageLines))
	if size == nil {
		size = EstimateItemSize
	}
	used := 0
	for i := offset; i < total && len(items) < limit; i++ {
		sz := size(s.items[i])
		if len(items) > 0 && used+sz > budget {
			break
		}
		items = append(items, s.items[i])
		used += sz
	}
	end := offset + len(items)
	return s.items[offset:end:end], end, end == total
}

// EstimateItemSize is the size ItemsPage charges an item when the caller
// gives no size function: its strings (JSON escaping aside) and 64 bytes
// for numbers and separators.
func EstimateItemSize(it Item) int {
	return len(it.Path) + len(it.Group) + len(it.Label) + len(it.Text) + 64
}

// itemCost is what one item counts against MaxItemsBytes.
func itemCost(it Item) int {
	return int(unsafe.Sizeof(Item{})) + len(it.Path) + len(it.Group) + len(it.Label) + len(it.Text)
}

// clipUTF8 returns s cut to at most n bytes, at a character boundary.
func clipUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && i > n-utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i]
}

// validateItems checks an analysis snapshot after decoding: its files are
// exactly those of its items, with their counts, and it has no match lines.
func (s *Snapshot) validateItems(offered int) error {
	if len(s.lines) != 0 {
		return errCorrupt("an analysis with match lines")
	}
	if offered < len(s.items) {
		return errCorrupt("more items kept than offered")
	}
	counts := make(map[string]int, len(s.files))
	for _, it := range s.items {
		if it.EndLine < it.Line || (it.Start >= 0) != (it.End >= 0) || it.End < it.Start {
			return errCorrupt("bad item span")
		}
		counts[it.Path]++
	}
	if len(counts) != len(s.files) {
		return errCorrupt("files and items disagree")
	}
	for i, f := range s.files {
		if f.Lines != counts[f.Path] || f.Occurrences != f.Lines {
			return errCorrupt("bad counts for an analysis file")
		}
		if i > 0 {
			p := s.files[i-1]
			if p.Lines < f.Lines || p.Lines == f.Lines && p.Path >= f.Path {
				return errCorrupt("files out of rank order")
			}
		}
		s.files[i].Retained = f.Lines
	}
	s.Totals = Totals{
		Searched: s.Totals.Searched, Files: len(s.files),
		Lines: offered, Occurrences: offered,
		Retained: len(s.items), Partial: len(s.items) < offered,
	}
	return nil
}

// errCorrupt is the error of a damaged analysis snapshot file.
func errCorrupt(msg string) error { return errors.New("corrupt snapshot: " + msg) }
