package printer

import (
	"testing"
	"time"
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
