package printer

import (
	"testing"
	"time"
	"unicode/utf8"
)

func TestAppendJSONString(t *testing.T) {
	cases := map[string]string{
		"plain":        `"plain"`,
		"q\"b\\":       `"q\"b\\"`,
		"\n\r\t\b\f":   `"\n\r\t\b\f"`,
		"\x00\x1f":     `"\u0000\u001f"`,
		"<&>/é𝄞\u2028": "\"<&>/é𝄞\u2028\"", // serde_json escapes none of these
	}
	for in, want := range cases {
		if got := string(AppendJSONString(nil, []byte(in))); got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
}

func TestAppendData(t *testing.T) {
	if got := string(appendData(nil, []byte("ok\n"))); got != `{"text":"ok\n"}` {
		t.Errorf("text form: %s", got)
	}
	if got := string(appendData(nil, []byte("\xffx"))); got != `{"bytes":"/3g="}` {
		t.Errorf("bytes form: %s", got)
	}
}

func TestColors(t *testing.T) {
	c, err := ParseColors([]string{"match:fg:blue", "line:none", "path:bg:0x10,0x20,0x30", "column:style:underline"})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		spec Spec
		want string
	}{
		{c.Match, "\x1b[0m\x1b[1m\x1b[34m"},
		{c.Line, "\x1b[0m"},
		{c.Path, "\x1b[0m\x1b[35m\x1b[48;2;16;32;48m"},
		{c.Column, "\x1b[0m\x1b[4m"},
	}
	for i, tc := range cases {
		if got := tc.spec.Start(); got != tc.want {
			t.Errorf("%d: %q, want %q", i, got, tc.want)
		}
	}
	for _, bad := range []string{"nope:fg:red", "match:fg:purple", "match:style:blink", "match:fg"} {
		if _, err := ParseColors([]string{bad}); err == nil {
			t.Errorf("%q: expected an error", bad)
		}
	}
}

func TestFormatPathAndStats(t *testing.T) {
	o := &Options{PathSeparator: '\\'}
	if got := string(o.FormatPath("a/b/c")); got != `a\b\c` {
		t.Errorf("path separator: %s", got)
	}
	if got := fractional(1500 * time.Millisecond); got != "1.500000" {
		t.Errorf("fractional: %s", got)
	}
	if n := countLines([]byte("a\nb\nc"), '\n'); n != 3 {
		t.Errorf("countLines: %d", n)
	}
}

// utf16Offset counts UTF-16 code units in b[:off] (invalid bytes count
// one), decoding from the start: what utf16Cursor must give.
func utf16Offset(b []byte, off int) int {
	n := 0
	for i := 0; i < off; {
		r, size := utf8.DecodeRune(b[i:off])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// TestUTF16Cursor checks utf16Cursor against utf16Offset for ascending
// offsets, including offsets that cut a character, and going back.
func TestUTF16Cursor(t *testing.T) {
	lines := []string{"", "plain ascii", "aé𝄞b\xffc", "𝄞𝄞𝄞", "\xf0\x9d\x84x", "é\xe2\x82"}
	for _, l := range lines {
		b := []byte(l)
		for step := 1; step <= 3; step++ {
			c := utf16Cursor{b: b}
			for off := 0; off <= len(b); off += step {
				if got, want := c.at(off), utf16Offset(b, off); got != want {
					t.Errorf("%q step %d: at(%d) = %d, want %d", l, step, off, got, want)
				}
			}
			if got, want := c.at(1), utf16Offset(b, min(1, len(b))); len(b) > 0 && got != want {
				t.Errorf("%q: back to 1: %d, want %d", l, got, want)
			}
		}
	}
}
