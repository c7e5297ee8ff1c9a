package app

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// headOne runs the reference with its stdout a pipe into `head -n 1`, and
// answers with the reference's own exit code and stderr (and head's one
// line). It is a Case.Prefix, so not part of a case's identity: the Env
// mark below is.
var headOne = []string{"bash", "-c", `"$@" | head -n 1; exit "${PIPESTATUS[0]}"`, "head-one"}

// headOneEnv marks the cases whose stdout is a pipe closed after a line.
const headOneEnv = "EVGREP_TEST_STDOUT=pipe-closed-after-one-line"

// runEvgrepHeadOne runs evgrep in process with stdout the write end of a
// pipe whose reader reads one line and closes its end, as `| head -1`
// does, and stdin holding data; it returns the exit code, the line read
// and stderr.
func runEvgrepHeadOne(t *testing.T, dir string, args []string, data []byte) (int, string, string) {
	t.Helper()
	t.Setenv("RIPGREP_CONFIG_PATH", "")
	p := filepath.Join(t.TempDir(), "stdin")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReaderSize(pr, 4096).ReadString('\n')
		pr.Close()
		first <- line
	}()
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	var errb strings.Builder
	code := Main(args, in, pw, &errb)
	pw.Close()
	return code, <-first, errb.String()
}

// TestRG15BrokenPipe: with stdout a pipe closed after one line (issue 23,
// item 1), evgrep exits as rg 15.2 does (1 when the only search failed on
// the write, 0 when a search that matched finished first) and, as rg,
// writes nothing to stderr, in every output form.
func TestRG15BrokenPipe(t *testing.T) {
	var big strings.Builder
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&big, "line %d import\n", i)
	}
	files := map[string]string{"big.txt": big.String()}
	for i := 0; i < 24; i++ {
		var b strings.Builder
		for j := 0; j < 10000; j++ {
			fmt.Fprintf(&b, "import %d of file %d\n", j, i)
		}
		files[fmt.Sprintf("tree/d%d/f%02d.go", i%4, i)] = b.String()
	}
	files["tree/a/first.txt"] = big.String()
	root := writeTree(t, files)
	vars := map[string]string{"ROOT": root}
	g := testref.OpenPinned(t, rg15)
	input := testref.Tree(vars, root)
	cases := []struct {
		args []string
		// ordered: the first line does not depend on the walk's order.
		ordered bool
	}{
		{[]string{"-n", "", "big.txt"}, true},
		{[]string{"--json", "", "big.txt"}, true},
		{[]string{"--json", "--stats", "", "big.txt"}, true},
		{[]string{"--stats", "", "big.txt"}, true},
		{[]string{"--vimgrep", "", "big.txt"}, true},
		{[]string{"-o", "import", "big.txt"}, true},
		{[]string{"-c", "", "big.txt"}, true},
		{[]string{"-C1", "-n", "line", "big.txt"}, true},
		{[]string{"-v", "-n", "zzz", "big.txt"}, true},
		{[]string{"-v", "--json", "zzz", "big.txt"}, true},
		{[]string{"-n", "", "-"}, true},
		{[]string{"--json", "import", "tree"}, false},
		{[]string{"--stats", "import", "tree"}, false},
		{[]string{"-n", "import", "tree"}, false},
		{[]string{"--json", "--sort", "path", "import", "tree"}, true},
		{[]string{"-n", "--sort", "path", "import", "tree"}, true},
		{[]string{"-n", "--sort", "path", "import", "tree/d1", "tree/a"}, true},
		{[]string{"--files", "tree"}, false},
	}
	for _, tc := range cases {
		name := strings.Join(tc.args, " ")
		t.Run(name, func(t *testing.T) {
			var stdin []byte
			if tc.args[len(tc.args)-1] == "-" {
				stdin = []byte(big.String())
			}
			out := g.Run(t, testref.Case{
				Name: name, Args: tc.args, Dir: root, Stdin: stdin, Prefix: headOne,
				Env: []string{"RIPGREP_CONFIG_PATH=", headOneEnv}, Vars: vars, Input: input,
				Canon: func(o testref.Output) testref.Output {
					if !tc.ordered {
						o.Stdout = nil
					}
					return o
				},
			})
			code, line, stderr := runEvgrepHeadOne(t, root, tc.args, stdin)
			want := string(out.Stdout)
			if !tc.ordered {
				line, want = "", ""
			}
			if code != out.Code || stderr != string(out.Stderr) || line != want {
				t.Errorf("rg %q | head -1\n got: code=%d line=%q stderr=%q\nwant: code=%d line=%q stderr=%q",
					tc.args, code, line, stderr, out.Code, want, out.Stderr)
			}
		})
	}
}
