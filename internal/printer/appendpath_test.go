package printer

import "testing"

// TestAppendPath checks that AppendPath appends what FormatPath returns,
// after what dst already holds, for every --path-separator.
func TestAppendPath(t *testing.T) {
	cases := []struct {
		sep  byte
		path string
		want string
	}{
		{0, "a/b/c", "a/b/c"},
		{'/', "a/b/c", "a/b/c"},
		{'\\', "a/b/c", `a\b\c`},
		{'\\', "/", `\`},
		{':', "", ""},
		{':', "x//y/", "x::y:"},
	}
	for _, c := range cases {
		o := &Options{PathSeparator: c.sep}
		got := string(o.AppendPath([]byte("> "), c.path))
		if got != "> "+c.want {
			t.Errorf("sep %q path %q: AppendPath = %q, want %q", c.sep, c.path, got, "> "+c.want)
		}
		if f := string(o.FormatPath(c.path)); f != c.want {
			t.Errorf("sep %q path %q: FormatPath = %q, want %q", c.sep, c.path, f, c.want)
		}
	}
}

// TestAppendPathAllocs checks that AppendPath does not allocate when dst
// has room (--files builds every line with it).
func TestAppendPathAllocs(t *testing.T) {
	for _, sep := range []byte{0, '\\'} {
		o := &Options{PathSeparator: sep}
		buf := make([]byte, 0, 64)
		if n := testing.AllocsPerRun(100, func() { buf = o.AppendPath(buf[:0], "src/net/http/server.go") }); n != 0 {
			t.Errorf("sep %q: %v allocations per AppendPath, want 0", sep, n)
		}
	}
}
