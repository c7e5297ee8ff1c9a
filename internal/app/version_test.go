package app

import (
	"strings"
	"testing"
)

// TestVersionText: -V is one line, --version adds rg 15.2's features and
// PCRE2 lines; through a link named rg both start "ripgrep 15.2.0 ".
func TestVersionText(t *testing.T) {
	cases := []struct {
		argv0  string
		long   bool
		prefix string
		lines  int
	}{
		{"rg", false, "ripgrep 15.2.0 (evgrep ", 1},
		{"rg", true, "ripgrep 15.2.0 (evgrep ", 5},
		{"evgrep", false, "evgrep " + version() + " (ripgrep 15.2.0 compatible)\n", 1},
		{"evgrep", true, "evgrep " + version() + " (ripgrep 15.2.0 compatible)\n", 5},
	}
	for _, c := range cases {
		v := versionText(c.argv0, c.long)
		if !strings.HasPrefix(v, c.prefix) || strings.Count(v, "\n") != c.lines {
			t.Errorf("%s long=%v: %q", c.argv0, c.long, v)
		}
		if c.long && !strings.Contains(v, "\n\nfeatures:+pcre2\n\nPCRE2 ") {
			t.Errorf("%s --version lacks the features and PCRE2 lines: %q", c.argv0, v)
		}
	}
}
