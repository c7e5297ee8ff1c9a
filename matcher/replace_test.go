package matcher

import (
	"bytes"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

func TestReplaceAgainstRG(t *testing.T) {
	g := testref.Open(t)
	cases := []struct {
		pat, tmpl, input string
		word             bool
	}{
		{"(a)(b)?", "[$1|$2|$0]", "ab a xab\n", false},
		{"(?P<x>fo+)", "<${x}>$x-$$-$1a-${1}a", "foo bar foooo\n", false},
		{"x*", "-", "abc\né\n", false},
		{"o", "0", "foo\nbar\n", false},
		{"(o)", "$9$", "foo\n", false},
		{"(f)(o)", "$01$2", "foo\n", false},
		{"foo", "[$0]", "foo foo,foo\n", true},
		{"(f)oo", "[$1]", "foo xfoo foo\n", true},
		{"$", "!", "ab\n", false},
		{"", "^", "ab\n", false},
	}
	for _, c := range cases {
		args := []string{"--no-config", "--color", "never", "-N", "-r", c.tmpl, "-e", c.pat}
		if c.word {
			args = append(args, "-w")
		}
		want := g.Run(t, testref.Case{Args: append(args, "-"), Stdin: []byte(c.input)}).Stdout
		m, err := Compile(Options{Patterns: []string{c.pat}, Word: c.word, LineTerminator: '\n'})
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		for from := 0; ; {
			s, e, ok := m.NextLine([]byte(c.input), from)
			if !ok {
				break
			}
			line := bytes.TrimSuffix([]byte(c.input[s:e]), []byte("\n"))
			var ranges []Range
			before := len(got)
			got, ranges = m.Replace(got, line, []byte(c.tmpl), ranges)
			for _, r := range ranges {
				if r.Start < before || r.End > len(got) {
					t.Errorf("replacement range %v outside output", r)
				}
			}
			got = append(got, '\n')
			from = e
		}
		if !bytes.Equal(got, want) {
			t.Errorf("-r %q -e %q on %q:\n got %q\nwant %q", c.tmpl, c.pat, c.input, got, want)
		}
	}
}

func TestReplaceRanges(t *testing.T) {
	m, err := Compile(Options{Patterns: []string{"b+"}, LineTerminator: '\n'})
	if err != nil {
		t.Fatal(err)
	}
	out, ranges := m.Replace([]byte(">"), []byte("abbcb"), []byte("XY"), nil)
	if string(out) != ">aXYcXY" {
		t.Fatalf("got %q", out)
	}
	want := []Range{{2, 4}, {5, 7}}
	if len(ranges) != 2 || ranges[0] != want[0] || ranges[1] != want[1] {
		t.Fatalf("ranges %v, want %v", ranges, want)
	}
}
