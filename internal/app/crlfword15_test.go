package app

import "testing"

// TestRG15CRLFWord compares evgrep with rg 15.2 (live, else its recorded
// answers) on -w with --crlf and patterns ending in $: rg's CRLF $ holds
// before a \r and never between the \r and \n of a CRLF, which the word
// boundaries around it must see.
func TestRG15CRLFWord(t *testing.T) {
	files := map[string]string{
		"c1.txt":  "foo\r\nbar \r\n\r\nbaz\r\n \r\nfoo bar\r\n",
		"c2.txt":  "y\n\rxx\r\nx \rx\r\n-\r\n",
		"c3.txt":  " \n\ré\n_\n\x00\nxx\r\n",
		"eof.txt": "x\r\nx -",
	}
	var cases [][]string
	for _, f := range []string{"c1.txt", "c2.txt", "c3.txt", "eof.txt"} {
		for _, p := range []string{"$", "x$", `\w*$`, "x*$", "y|$", "(?:x|$)"} {
			for _, out := range [][]string{nil, {"-o"}, {"-c"}, {"-n", "-v"}, {"--count-matches"}} {
				args := append(append([]string{"--crlf", "-w"}, out...), p, f)
				cases = append(cases, args)
			}
		}
	}
	compareRG15(t, files, cases)
}
