package app

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/syntax"
)

// TestStructuralTooLarge: a file over the parse limit that may match is
// named on stderr in rg's style and makes the search (and a rewrite)
// exit 2; one without the pattern's literals is passed over as before.
func TestStructuralTooLarge(t *testing.T) {
	if !syntax.Supported(syntax.Python) {
		t.Skip("no parsers in this build")
	}
	dir := t.TempDir()
	big := "print(1)\n" + strings.Repeat("# filler\n", syntax.MaxSource/9+1)
	os.WriteFile(filepath.Join(dir, "big.py"), []byte(big), 0o644)
	os.WriteFile(filepath.Join(dir, "small.py"), []byte("print(2)\n"), 0o644)
	want := "rg: big.py: file too large for a structural search (" + strconv.Itoa(len(big)) + " bytes, over the 5 MiB parse limit); not searched\n"
	for _, args := range [][]string{
		{"--ast", "print($A)", "--lang", "python", "big.py"},
		{"--ast", "print($A)", "--lang", "python", "--rewrite", "p($A)", "big.py"},
	} {
		r, errText := runEvgrepErr(t, dir, args, "")
		if r.code != 2 || r.stdout != "" || errText != want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", args, r.code, r.stdout, errText, want)
		}
	}
	r, errText := runEvgrepErr(t, dir, []string{"--ast", "print($A)", "--lang", "python"}, "")
	// As rg names the files of the implicit root in its messages: "./".
	if r.code != 0 || r.stdout != "small.py:1:1:print(2)\n" || errText != strings.Replace(want, "big.py", "./big.py", 1) {
		t.Errorf("walk: exit %d, stdout %q, stderr %q", r.code, r.stdout, errText)
	}
	if r, errText := runEvgrepErr(t, dir, []string{"--ast", "nothere($A)", "--lang", "python", "big.py"}, ""); r.code != 1 || errText != "" {
		t.Errorf("no literal: exit %d, stderr %q", r.code, errText)
	}
}
