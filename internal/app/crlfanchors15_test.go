package app

import "testing"

// TestRG15CRLFAnchors compares evgrep with rg 15.2 (live, else its
// recorded answers) on --crlf with line anchors around lone \r bytes: rg's
// ^ and $ hold next to any \r (never between the \r and \n of a CRLF), and
// at the end of a file that ends in "\r" without a "\n".
func TestRG15CRLFAnchors(t *testing.T) {
	files := map[string]string{
		"c1.txt": "a\rb\nfoo\r\nbar\r\rbaz\r",
		"c2.txt": "x\ry\r\r\nz\r",
		"c3.txt": "a\r\nb\n",
		"c4.txt": "K \u00df\u00c9foo\r\n\r\n\r\r\n",
		"c5.txt": "foo\r\nbar\r\rbaz\r",
	}
	var cases [][]string
	for _, f := range []string{"c1.txt", "c2.txt", "c3.txt", "c4.txt", "c5.txt"} {
		for _, p := range []string{"^b", "a$", "baz$", "^baz", "z$", "$", "^", "^$", "^.*z$", `\w$`, `^\w`, "a|^", `x*|^K`, `(?-m)z$`} {
			for _, out := range [][]string{nil, {"-o", "-b"}, {"-c"}, {"--count-matches"}, {"-n", "-v"}, {"-w"}, {"-r", "X"}} {
				args := append(append([]string{"--crlf"}, out...), p, f)
				cases = append(cases, args)
			}
		}
	}
	compareRG15(t, files, cases)
}
