package walker

import "testing"

// TestParseExcludesFile: the key in any case and any section, quotes
// dropped, values over lines as the ignore crate's expression reads them,
// and configs without the key (which skip the expression).
func TestParseExcludesFile(t *testing.T) {
	for _, c := range []struct {
		cfg  string
		want string
		ok   bool
	}{
		{"[core]\n\texcludesFile = ~/.gitignore_global\n", "~/.gitignore_global", true},
		{"[core]\n\tEXCLUDESFILE=\"/x/y\"\n", "/x/y", true},
		{"[user]\n\tname = someone\n", "", false},
		{"", "", false},
		{"[core]\n\texcludesfil = /nope\n", "", false},
		{"[other]\nExcludesFile =\n  /spans/lines\n", "/spans/lines", true},
		{"[core]\n\texcludesfile = two words\n", "", false},
		{"excludesfile = \xff\xfe\n", "", false},
	} {
		got, ok := parseExcludesFile([]byte(c.cfg))
		if got != c.want || ok != c.ok {
			t.Errorf("%q: got (%q, %v), want (%q, %v)", c.cfg, got, ok, c.want, c.ok)
		}
	}
}
