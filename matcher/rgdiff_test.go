package matcher

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// This file compares the matcher with the reference rg (internal/testref):
// the same patterns and options through `rg --json` on the same input,
// run live or read from testdata/golden/matcher when rg is absent.

func rgArgs(o Options) []string {
	args := []string{"--no-config", "--json"}
	if o.Fixed {
		args = append(args, "-F")
	}
	switch o.Case {
	case Insensitive:
		args = append(args, "-i")
	case Smart:
		args = append(args, "-S")
	}
	if o.Word {
		args = append(args, "-w")
	}
	if o.Line {
		args = append(args, "-x")
	}
	if o.Multiline {
		args = append(args, "-U")
	}
	if o.DotAll {
		args = append(args, "--multiline-dotall")
	}
	if o.CRLF {
		args = append(args, "--crlf")
	}
	if o.LineTerminator == 0 {
		args = append(args, "--null-data")
	}
	if o.NoUnicode {
		args = append(args, "--no-unicode")
	}
	for _, p := range o.Patterns {
		args = append(args, "-e", p)
	}
	return append(args, "-")
}

type rgText struct {
	Text  *string `json:"text"`
	Bytes *string `json:"bytes"`
}

type rgEvent struct {
	Type string `json:"type"`
	Data struct {
		Lines          rgText `json:"lines"`
		LineNumber     int    `json:"line_number"`
		AbsoluteOffset int    `json:"absolute_offset"`
		Submatches     []struct {
			Start int `json:"start"`
			End   int `json:"end"`
		} `json:"submatches"`
	} `json:"data"`
}

// rgResult is what rg reports: for each matching line (keyed by its
// absolute offset) the submatches, or the error text.
type rgResult struct {
	lines map[int][]Range
	err   string
}

// onlyMatches is the canonical form of an `rg --json` answer for these
// tests: its match events alone (the others carry timings).
func onlyMatches(o testref.Output) testref.Output {
	var keep [][]byte
	for _, l := range bytes.SplitAfter(o.Stdout, []byte("\n")) {
		if bytes.HasPrefix(l, []byte(`{"type":"match"`)) {
			keep = append(keep, l)
		}
	}
	o.Stdout = bytes.Join(keep, nil)
	return o
}

func runRG(t testing.TB, g *testref.Golden, o Options, input []byte) rgResult {
	t.Helper()
	out := g.Run(t, testref.Case{Name: describe(o), Args: rgArgs(o), Stdin: input, Canon: onlyMatches})
	res := rgResult{lines: map[int][]Range{}}
	if out.Code == 2 {
		// rg 15 starts every error with "rg: " (rg 13 did not for pattern
		// errors); the matcher's text is what follows.
		res.err = strings.TrimPrefix(strings.TrimRight(string(out.Stderr), "\n"), "rg: ")
		return res
	}
	for _, l := range bytes.Split(out.Stdout, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var ev rgEvent
		if err := json.Unmarshal(l, &ev); err != nil {
			t.Fatalf("bad rg json %q: %v", l, err)
		}
		if ev.Type != "match" {
			continue
		}
		subs := []Range{}
		for _, s := range ev.Data.Submatches {
			subs = append(subs, Range{s.Start, s.End})
		}
		res.lines[ev.Data.AbsoluteOffset] = subs
	}
	return res
}

// ours computes the same report with the matcher: matching lines found by
// NextLine (cross-checked with IsMatch on every line) and occurrences.
func ours(t testing.TB, o Options, input []byte) rgResult {
	t.Helper()
	res := rgResult{lines: map[int][]Range{}}
	m, err := Compile(o)
	if err != nil {
		res.err = err.Error()
		return res
	}
	if o.Multiline {
		// rg reports each match with the lines it spans; compare the
		// occurrences by absolute offset of their first line instead.
		for _, r := range m.FindAll(input, nil) {
			ls := bytes.LastIndexByte(input[:r.Start], '\n') + 1
			res.lines[ls] = append(res.lines[ls], Range{r.Start - ls, r.End - ls})
		}
		return res
	}
	term := o.LineTerminator
	// Independent line-by-line truth from IsMatch.
	want := map[int]bool{}
	for ls := 0; ls < len(input); {
		le := lineEnd(input, ls, term)
		if m.IsMatch(input[ls:le]) {
			want[ls] = true
		}
		ls = advance(input, le)
	}
	for from := 0; ; {
		s, e, ok := m.NextLine(input, from)
		if !ok {
			break
		}
		if !want[s] {
			t.Errorf("NextLine returned line at %d that IsMatch rejects (%q)", s, input[s:e])
		}
		delete(want, s)
		line := input[s:e]
		if len(line) > 0 && line[len(line)-1] == term {
			line = line[:len(line)-1]
		}
		res.lines[s] = m.OccurrencesIn(input, s, s+len(line), []Range{})
		from = e
	}
	for ls := range want {
		t.Errorf("NextLine skipped matching line at %d", ls)
	}
	return res
}

// multilineGroups folds rg's -U events into per-first-line occurrence lists
// the way ours() reports them.
func normalizeMultiline(r rgResult, input []byte) rgResult {
	out := rgResult{lines: map[int][]Range{}, err: r.err}
	for off, subs := range r.lines {
		for _, s := range subs {
			abs := off + s.Start
			ls := bytes.LastIndexByte(input[:abs], '\n') + 1
			out.lines[ls] = append(out.lines[ls], Range{abs - ls, off + s.End - ls})
		}
	}
	return out
}

func compareWithRG(t *testing.T, g *testref.Golden, o Options, input string) {
	t.Helper()
	got := ours(t, o, []byte(input))
	want := runRG(t, g, o, []byte(input))
	if want.err == msgArgNotUTF8 && strings.HasPrefix(got.err, "found invalid UTF-8 in pattern") {
		// rg 15 rejects a non-UTF-8 -e while parsing its flags; the
		// matcher's own message is the one rg gives for -f patterns.
		got.err = want.err
	}
	if o.Multiline {
		want = normalizeMultiline(want, []byte(input))
	}
	if got.err != want.err {
		t.Errorf("%s on %q: error\n got: %q\nwant: %q", describe(o), input, got.err, want.err)
		return
	}
	if !reflect.DeepEqual(got.lines, want.lines) {
		t.Errorf("%s on %q:\n got %v\nwant %v", describe(o), input, fmtLines(got.lines), fmtLines(want.lines))
	}
}

// msgArgNotUTF8 is rg 15's error (after "rg: ") for a -e that is not UTF-8.
const msgArgNotUTF8 = "error parsing flag -e: value is not valid UTF-8"

func describe(o Options) string {
	return strings.Join(rgArgs(o)[2:], " ")
}

func fmtLines(m map[int][]Range) string {
	var b strings.Builder
	for k := 0; k < 1<<20 && len(m) > 0; k++ {
		if v, ok := m[k]; ok {
			fmt.Fprintf(&b, "%d:%v ", k, v)
			if b.Len() > 2000 {
				break
			}
		}
	}
	return b.String()
}
