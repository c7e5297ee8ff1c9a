package pipeline

import (
	"bytes"
	"io"
	"os"
	"sort"
	"unsafe"

	"github.com/evgrep/evgrep/internal/input"
	"github.com/evgrep/evgrep/internal/search"
	"github.com/evgrep/evgrep/matcher"
	"github.com/evgrep/evgrep/walker"
)

// LineRun is a run of lines of a file, 1-based, both ends included.
type LineRun struct {
	First, Last int
}

// LineFilter restricts a search to some lines of each file (evgrep's
// --changed-since): given a file's path as walked and its raw bytes, it
// returns the sorted, disjoint runs of lines whose matches count. Only
// matches lying wholly inside those lines are found: a line-by-line
// search takes only matching lines of the runs (the other matching lines
// become ordinary lines, shown as context where context is asked for),
// a multiline search only matches whose every line is in a run. Lines are
// counted with the search's line terminator, in the raw bytes (a
// byte-order mark or -E decoding keeps them); a -z compressed file is
// taken whole: all its lines count when any run is returned.
//
// With a LineFilter, each file is read whole and searched as one slice.
type LineFilter func(path string, raw []byte) ([]LineRun, error)

// searchFiltered reads the file of e whole (through the Opener when there
// is one), asks the filter for its lines and searches them.
func (o *Options) searchFiltered(s *search.Searcher, p Sink, op Opener, e walker.Entry) error {
	var raw []byte
	var err error
	if op != nil {
		f, tap, oerr := op.Open(e)
		if oerr != nil {
			return oerr
		}
		if tap == nil {
			tap = noTap{}
		}
		raw, err = io.ReadAll(tap.Reader(f))
		f.Close()
	} else {
		raw, err = os.ReadFile(e.Path)
	}
	if err != nil {
		return osErr(err)
	}
	runs, err := o.Lines(e.Path, raw)
	if err != nil {
		return err
	}
	iopts := o.Input
	data := raw
	whole := false
	if iopts.SearchZip && input.CompressionFormat(e.Path) != "" {
		rc, err := input.NewReader(bytes.NewReader(raw), e.Path, iopts)
		if err != nil {
			return err
		}
		data, err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return err
		}
		whole = len(runs) > 0
	} else if !input.Raw(e.Path, raw[:min(len(raw), input.HeadLen)], iopts) {
		data = Decode(e.Path, raw, iopts)
	}
	term := o.Search.LineTerm
	if whole {
		runs = []LineRun{{1, bytes.Count(data, []byte{term}) + 1}}
	}
	g := newGate(s.Matcher(), data, term, runs)
	return search.New(*s.Config(), g).SearchSlice(data, p)
}

// gate is a matcher that finds only the matches of its inner matcher that
// lie in the allowed lines of one file's bytes (data). Calls on bytes
// outside data (a printer's copy) go to the inner matcher unchanged.
type gate struct {
	inner search.Matcher
	lines interface {
		NextLine([]byte, int) (int, int, bool)
	}
	data   []byte
	starts []int // byte offset of each line's start in data
	runs   []LineRun
}

func newGate(inner search.Matcher, data []byte, term byte, runs []LineRun) *gate {
	g := &gate{inner: inner, lines: inner, data: data, runs: runs, starts: []int{0}}
	if sm, ok := inner.(interface{ NewLineScanner() *matcher.LineScanner }); ok {
		g.lines = sm.NewLineScanner()
	}
	for i := 0; i < len(data); {
		j := bytes.IndexByte(data[i:], term)
		if j < 0 {
			break
		}
		i += j + 1
		if i < len(data) {
			g.starts = append(g.starts, i)
		}
	}
	return g
}

// Reset implements the searcher's cache reset for the line scanner.
func (g *gate) Reset() {
	if r, ok := g.lines.(interface{ Reset() }); ok {
		r.Reset()
	}
}

// offset returns where b starts in data, or false when it is not a part
// of data. Addresses are compared only: Go's heap objects do not move.
func (g *gate) offset(b []byte) (int, bool) {
	if len(g.data) == 0 || cap(b) == 0 {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(g.data)))
	at := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	if at < base || at > base+uintptr(len(g.data)) {
		return 0, false
	}
	return int(at - base), true
}

// lineOf is the 1-based line of byte offset off.
func (g *gate) lineOf(off int) int {
	return sort.Search(len(g.starts), func(i int) bool { return g.starts[i] > off })
}

// allowed reports whether lines first..last all lie in one run.
func (g *gate) allowed(first, last int) bool {
	i := sort.Search(len(g.runs), func(i int) bool { return g.runs[i].Last >= first })
	return i < len(g.runs) && g.runs[i].First <= first && last <= g.runs[i].Last
}

// NextLine implements search.Matcher: the next matching line that is
// allowed.
func (g *gate) NextLine(buf []byte, from int) (int, int, bool) {
	base, ok := g.offset(buf)
	for {
		s, e, found := g.lines.NextLine(buf, from)
		if !found || !ok {
			return s, e, found
		}
		if l := g.lineOf(base + s); g.allowed(l, l) {
			return s, e, true
		}
		if e <= from {
			return 0, 0, false
		}
		from = e
	}
}

// IsMatch implements search.Matcher.
func (g *gate) IsMatch(line []byte) bool {
	if off, ok := g.offset(line); ok {
		if l := g.lineOf(off); !g.allowed(l, l) {
			return false
		}
	}
	return g.inner.IsMatch(line)
}

// FindAll implements search.Matcher: the matches whose lines are all
// allowed.
func (g *gate) FindAll(buf []byte, dst []matcher.Range) []matcher.Range {
	start := len(dst)
	dst = g.inner.FindAll(buf, dst)
	base, ok := g.offset(buf)
	if !ok {
		return dst
	}
	kept := dst[:start]
	for _, r := range dst[start:] {
		last := r.End - 1
		if last < r.Start {
			last = r.Start
		}
		if g.allowed(g.lineOf(base+r.Start), g.lineOf(base+last)) {
			kept = append(kept, r)
		}
	}
	return kept
}
