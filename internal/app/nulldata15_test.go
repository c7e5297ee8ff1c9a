package app

import "testing"

// TestRG15NullDataMultiline compares evgrep with rg 15.2 (live, else its
// recorded answers) on -U --null-data with line anchors: rg's multiline
// regex knows no line terminator, so (?m)^ and $ hold at '\n' only, never
// next to the NUL that ends a record ("a\x00" does not match -U 'a$'),
// and such a search looks at whole files. Patterns that can match the
// empty string are left out: rg 15.2 answers them record by record (-U
// '^' matches every record), which evgrep does too, apart from where the
// empty matches of '$' fall.
func TestRG15NullDataMultiline(t *testing.T) {
	files := map[string]string{
		"n1.txt": "a\x00b\x00a\x00",
		"n2.txt": "a\x00b\x00a\nc\x00",
		"n3.txt": "a\x00b\x00a\nc",
		"n4.txt": "\x00a\n\x00\n",
		"n5.txt": "b\na\x00\nb\x00ab\n\x00",
	}
	var cases [][]string
	for _, f := range []string{"n1.txt", "n2.txt", "n3.txt", "n4.txt", "n5.txt"} {
		for _, p := range []string{"^a$", "a$", "^b", "^c", "c$", `a\nc`, `(?m)^a`, `b$|^a`, `\x00b`, `(?-m)^a`} {
			for _, out := range [][]string{nil, {"-o"}, {"-c"}, {"-n", "-v"}, {"--count-matches"}, {"-b", "-o"}} {
				args := append(append([]string{"-U", "--null-data"}, out...), p, f)
				cases = append(cases, args)
			}
		}
	}
	compareRG15(t, files, cases)
}
