package search

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/matcher"
)

// litMatcher matches a fixed string, enough to drive the searcher.
type litMatcher struct {
	lit  []byte
	term byte
}

func (m litMatcher) IsMatch(line []byte) bool { return bytes.Contains(line, m.lit) }

func (m litMatcher) NextLine(buf []byte, from int) (int, int, bool) {
	i := bytes.Index(buf[from:], m.lit)
	if i < 0 {
		return 0, 0, false
	}
	s, e := locate(buf, m.term, from+i, from+i+len(m.lit))
	return s, e, true
}

func (m litMatcher) FindAll(buf []byte, dst []matcher.Range) []matcher.Range {
	for from := 0; ; {
		i := bytes.Index(buf[from:], m.lit)
		if i < 0 {
			return dst
		}
		dst = append(dst, matcher.Range{Start: from + i, End: from + i + len(m.lit)})
		from += i + len(m.lit)
	}
}

// recorder renders what a sink receives in a compact text form.
type recorder struct {
	b       strings.Builder
	stopAt  int
	matches int
}

func (r *recorder) Matched(s *Searcher, m *Match) (bool, error) {
	r.matches++
	fmt.Fprintf(&r.b, "%d:%q;", m.LineNumber, m.Bytes)
	return r.stopAt == 0 || r.matches < r.stopAt, nil
}

func (r *recorder) Context(s *Searcher, c *Context) (bool, error) {
	fmt.Fprintf(&r.b, "%d-%q;", c.LineNumber, c.Bytes)
	return true, nil
}

func (r *recorder) ContextBreak(*Searcher) (bool, error) { r.b.WriteString("--;"); return true, nil }

func (r *recorder) BinaryData(s *Searcher, off int64) (bool, error) {
	fmt.Fprintf(&r.b, "bin@%d;", off)
	return true, nil
}

func (r *recorder) Finish(s *Searcher, f *Finish) error {
	fmt.Fprintf(&r.b, "end(%d,%d)", f.ByteCount, f.BinaryOffset)
	return nil
}

func TestSearchReader(t *testing.T) {
	big := strings.Repeat("filler line\n", 7000) // > 64 KiB
	cases := []struct {
		name  string
		cfg   Config
		input string
		want  string
	}{
		{"plain", Config{LineTerm: '\n', LineNumbers: true}, "a\nneedle\nb\n",
			`2:"needle\n";end(11,-1)`},
		{"context and break", Config{LineTerm: '\n', LineNumbers: true, Before: 1, After: 1}, "a\nneedle\nb\nc\nd\nneedle\n",
			`1-"a\n";2:"needle\n";3-"b\n";--;5-"d\n";6:"needle\n";end(22,-1)`},
		{"invert", Config{LineTerm: '\n', LineNumbers: true, Invert: true}, "a\nneedle\nb",
			`1:"a\n";3:"b";end(10,-1)`},
		{"passthru", Config{LineTerm: '\n', Passthru: true}, "a\nneedle\n",
			`0-"a\n";0:"needle\n";end(9,-1)`},
		{"no trailing newline", Config{LineTerm: '\n'}, "x needle", `0:"x needle";end(8,-1)`},
		// A NUL in the first buffer: quit mode searches nothing.
		{"binary quit first buffer", Config{LineTerm: '\n', Binary: BinaryQuit}, "needle\nab\x00c\n",
			`bin@9;end(0,9)`},
		// rg's BOM-sniffing reader returns three bytes first: a line that ends
		// inside them is searched before the NUL is seen.
		{"binary quit after peek", Config{LineTerm: '\n', Binary: BinaryQuit, BOMPeek: true}, "n\nneedle\x00",
			`bin@8;end(2,8)`},
		{"binary quit later buffer", Config{LineTerm: '\n', Binary: BinaryQuit}, "needle\n" + big + "\x00",
			fmt.Sprintf(`0:"needle\n";bin@%d;end(%d,%d)`, 7+len(big), lastLineEnd(("needle\n" + big)[:BufferCapacity]), 7+len(big))},
		{"binary convert", Config{LineTerm: '\n', Binary: BinaryConvert}, "a\x00needle\n",
			`bin@1;0:"needle\n";end(9,1)`},
		{"null data", Config{LineTerm: 0}, "a\x00needle\x00b\x00", `0:"needle\x00";end(11,-1)`},
	}
	for _, tc := range cases {
		s := New(tc.cfg, litMatcher{[]byte("needle"), tc.cfg.LineTerm})
		var r recorder
		if err := s.SearchReader(strings.NewReader(tc.input), &r); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := r.b.String(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

func TestSearchSlice(t *testing.T) {
	cases := []struct {
		name  string
		cfg   Config
		input string
		want  string
	}{
		// rg 15 counts the bytes searched up to where the search stopped,
		// and never past the first NUL byte.
		{"convert does not split at NUL", Config{LineTerm: '\n', Binary: BinaryConvert}, "a\x00needle\n",
			`bin@1;0:"a\x00needle\n";end(1,1)`},
		{"quit", Config{LineTerm: '\n', Binary: BinaryQuit}, "needle\n\x00", `bin@7;end(0,7)`},
		{"multiline merges adjacent lines", Config{LineTerm: '\n', Multiline: true, LineNumbers: true}, "x\nneedle\nneedle\ny\n",
			`2:"needle\nneedle\n";end(18,-1)`},
	}
	for _, tc := range cases {
		s := New(tc.cfg, litMatcher{[]byte("needle"), tc.cfg.LineTerm})
		var r recorder
		if err := s.SearchSlice([]byte(tc.input), &r); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := r.b.String(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// TestLongLine checks that a line longer than the buffer is searched whole.
func TestLongLine(t *testing.T) {
	line := strings.Repeat("z", 3*BufferCapacity) + "needle\n"
	s := New(Config{LineTerm: '\n', LineNumbers: true}, litMatcher{[]byte("needle"), '\n'})
	var r recorder
	if err := s.SearchReader(strings.NewReader("a\n"+line), &r); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.b.String(), "2:") || !strings.HasSuffix(r.b.String(), fmt.Sprintf("end(%d,-1)", 2+len(line))) {
		t.Errorf("got %.80s…", r.b.String())
	}
}

// lastLineEnd is the end of the last complete line in s.
func lastLineEnd(s string) int { return strings.LastIndexByte(s, '\n') + 1 }

// splitReader is a strings.Reader as a SplitReader.
type splitReader struct{ *strings.Reader }

func (splitReader) SplitReads() {}

// TestSplitReaderSteps: with BOMPeek, a SplitReader's whole first read
// gives the events that rg's three-byte first read gives (a line ending
// in those bytes is searched before a later NUL is seen), in every binary
// mode, with and without context kept, for inputs around three bytes
// long.
func TestSplitReaderSteps(t *testing.T) {
	big := strings.Repeat("filler line\n", BufferCapacity/12+10)
	inputs := []string{"", "n", "n\n", "n\nx", "n\nneedle\x00", "needle\n\x00", "ab\x00needle\n", "n\r\nneedle\n",
		"needle\n" + big + "needle\x00", "x\n" + big + "\x00needle\n", strings.Repeat("needle ", BufferCapacity/7+3) + "\n\x00"}
	for _, mode := range []BinaryMode{BinaryQuit, BinaryConvert, BinaryNone} {
		for _, in := range inputs {
			for _, after := range []int{0, 1} {
				cfg := Config{LineTerm: '\n', LineNumbers: true, Binary: mode, BOMPeek: true, After: after}
				var plain, split recorder
				if err := New(cfg, litMatcher{[]byte("needle"), '\n'}).SearchReader(strings.NewReader(in), &plain); err != nil {
					t.Fatal(err)
				}
				if err := New(cfg, litMatcher{[]byte("needle"), '\n'}).SearchReader(splitReader{strings.NewReader(in)}, &split); err != nil {
					t.Fatal(err)
				}
				if plain.b.String() != split.b.String() {
					t.Errorf("mode %v, after %d, input %.40q:\nsplit %s\nplain %s", mode, after, in, split.b.String(), plain.b.String())
				}
			}
		}
	}
}
