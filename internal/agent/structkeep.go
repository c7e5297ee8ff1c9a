package agent

import (
	"container/heap"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/astsearch"
	"github.com/evgrep/evgrep/internal/textpos"
	"github.com/evgrep/evgrep/snapshot"
	"github.com/evgrep/evgrep/structural"
)

// structKeeper holds the items of a structural search's files while the
// workers find them, within what the snapshot can keep: files arrive in
// any order but the snapshot keeps items in path order up to
// snapshot.MaxItems items and snapshot.MaxItemsBytes bytes, so once the
// files before some path hold more than that, the items of the files after
// it can never be kept and are only counted. Memory is so bounded by the
// snapshot's bounds (plus one file's items while they are made), however
// many matches the files have.
type structKeeper struct {
	held         fileHeap // files holding items, the last path on top
	items, bytes int      // what held's items count
}

// itemEstimate is a lower bound of what the snapshot charges an item.
func itemEstimate(it *snapshot.Item) int {
	return len(it.Path) + len(it.Group) + min(len(it.Label), snapshot.MaxItemKeyBytes) + min(len(it.Text), snapshot.MaxItemText)
}

// over reports whether items and bytes are more than the snapshot keeps.
func over(items, bytes int) bool {
	return items > snapshot.MaxItems || bytes > snapshot.MaxItemsBytes
}

// fileItems makes the items of f's matches for sf, stopping (and counting
// the rest as dropped) once they alone are more than the snapshot keeps.
func fileItems(sf *structFile, f *astsearch.File) {
	lines := textpos.NewMapper(f.Src)
	for i := range f.Matches {
		mt := &f.Matches[i]
		if over(len(sf.items), sf.bytes) {
			sf.dropped++
			continue
		}
		s, e := lines.Position(mt.Start), lines.Position(max(mt.Start, mt.End-1))
		text := astsearch.FirstLine(f.Src, mt)
		if len(text) > snapshot.MaxItemText+utf8.UTFMax {
			// The snapshot clips the text at MaxItemText bytes: only
			// that much of a long line is copied.
			text = text[:snapshot.MaxItemText+utf8.UTFMax]
		}
		it := snapshot.Item{
			Path: sf.rel, Line: s.Line, EndLine: e.Line, Start: int64(mt.Start), End: int64(mt.End),
			Group: groupOf(mt), Label: capturesText(f.Src, mt), Text: string(text),
		}
		sf.items = append(sf.items, it)
		sf.bytes += itemEstimate(&it)
	}
}

// add takes sf's items, then drops the items of the last files (by path)
// while the files before them are more than the snapshot keeps.
func (k *structKeeper) add(sf *structFile) {
	if len(sf.items) == 0 {
		return
	}
	heap.Push(&k.held, sf)
	k.items += len(sf.items)
	k.bytes += sf.bytes
	for len(k.held) > 1 {
		top := k.held[0]
		if !over(k.items-len(top.items), k.bytes-top.bytes) {
			break
		}
		heap.Pop(&k.held)
		k.items -= len(top.items)
		k.bytes -= top.bytes
		top.dropped += len(top.items)
		top.items, top.bytes = nil, 0
	}
}

// fill adds the items of files (sorted by path) to b, then counts the
// dropped ones, which b, full by then, refuses.
func fill(b *snapshot.ItemsBuilder, files []*structFile) {
	for _, f := range files {
		for _, it := range f.items {
			b.Add(it)
		}
	}
	if !b.Full() {
		return
	}
	for _, f := range files {
		for range f.dropped {
			b.Add(snapshot.Item{Path: f.rel})
		}
	}
}

// fileHeap is a max-heap of files by path.
type fileHeap []*structFile

func (h fileHeap) Len() int           { return len(h) }
func (h fileHeap) Less(i, j int) bool { return h[i].rel > h[j].rel }
func (h fileHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *fileHeap) Push(x any)        { *h = append(*h, x.(*structFile)) }
func (h *fileHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return x
}

// captureWindow is the most source bytes of one capture that capturesText
// looks at from each end; a longer capture is shown as its head, the
// count of the source bytes left out, and its tail.
const captureWindow = 4 * maxCaptureText

// capturesText renders the captures of m (in src) as NAME=text lines, each
// with its runs of white space made one space and clipped to
// maxCaptureText, reading at most captureWindow bytes from either end of
// a capture.
func capturesText(src []byte, m *structural.Match) string {
	var b strings.Builder
	for _, c := range m.Vars {
		// Named as the pattern spells them: $A, $$$A.
		name := "$" + c.Name
		if c.Multi {
			name = "$$$" + c.Name
		}
		fmt.Fprintf(&b, "%s=%s\n", name, clipCapture(c.Bytes(src)))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// clipCapture is one capture's text for capturesText.
func clipCapture(raw []byte) string {
	if len(raw) <= 2*captureWindow {
		return shorten(strings.Join(strings.Fields(string(raw)), " "), maxCaptureText)
	}
	keep := max(0, maxCaptureText-40) / 2
	head := strings.Join(strings.Fields(string(raw[:captureWindow])), " ")
	tail := strings.Join(strings.Fields(string(raw[len(raw)-captureWindow:])), " ")
	head, tail = head[:min(keep, len(head))], tail[len(tail)-min(keep, len(tail)):]
	for len(head) > 0 && !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	for len(tail) > 0 && !utf8.RuneStart(tail[0]) {
		tail = tail[1:]
	}
	return fmt.Sprintf("%s…(%d bytes)…%s", head, len(raw)-len(head)-len(tail), tail)
}
