package app

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// writeTree creates files (path → content) under a new temp dir.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

var elapsedRE = regexp.MustCompile(`"elapsed(_total)?":\{[^}]*\}`)

// normalize drops timing fields, which differ between any two runs, and
// puts digests in place of huge lines (testref.LongLines).
func normalize(b []byte) string {
	return elapsedRE.ReplaceAllString(string(testref.LongLines(b)), `"elapsed":T`)
}

type result struct {
	code   int
	stdout string
	stderr bool
}

func runEvgrep(t *testing.T, dir string, args []string, stdin string) result {
	t.Helper()
	r, _ := runEvgrepErr(t, dir, args, stdin)
	return r
}

// runEvgrepErr is runEvgrep that also returns the text of stderr.
func runEvgrepErr(t *testing.T, dir string, args []string, stdin string) (result, string) {
	t.Helper()
	t.Setenv("RIPGREP_CONFIG_PATH", "") // as runRG: no user defaults
	in, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	in.WriteString(stdin)
	in.Seek(0, 0)
	defer in.Close()
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(old)
	var out, errb bytes.Buffer
	code := Main(args, in, &out, &errb)
	return result{code, normalize(out.Bytes()), errb.Len() > 0}, errb.String()
}

// refRun is the part of a reference run the tests vary: the tree (its
// folder is ${ROOT} in the golden files, its fingerprint part of each
// case), the working directory and other temporary folders.
type refRun struct {
	g     *testref.Golden
	root  string            // the tree searched
	input string            // testref.Tree(root)
	vars  map[string]string // placeholders: ROOT and any other folder
}

// newRefRun prepares the reference runs of a test over root. HOME and
// XDG_CONFIG_HOME point at an empty folder for evgrep and rg
// alike, so that no global git excludes file of the machine's user
// changes the answers (the trees hold a .git folder).
func newRefRun(t *testing.T, root string, vars map[string]string) refRun {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	v := map[string]string{"ROOT": root}
	for k, p := range vars {
		v[k] = p
	}
	return refRun{g: testref.Open(t), root: root, input: testref.Tree(v, root), vars: v}
}

// runRG answers with the reference (live, or recorded): stdout with
// timings dropped, as normalize does for evgrep. A recorded answer that
// names ${ROOT} has its "bytes_printed" masked (maskPrinted).
func runRG(t *testing.T, r refRun, name, dir string, args []string, stdin string) (result, bool) {
	t.Helper()
	out := r.g.Run(t, testref.Case{
		Name: name, Args: args, Dir: dir, Stdin: []byte(stdin), Env: []string{"RIPGREP_CONFIG_PATH="},
		Vars: r.vars, Input: r.input,
		Canon: func(o testref.Output) testref.Output {
			o.Stdout = []byte(maskPrinted(normalize(o.Stdout), r.root))
			return o
		},
	})
	return result{out.Code, normalize(out.Stdout), len(out.Stderr) > 0}, out.Recorded
}

var bytesPrintedRE = regexp.MustCompile(`"bytes_printed":[0-9]+`)

// maskPrinted drops "bytes_printed" from --json output that names path:
// its value depends on the length of the temporary folder's name.
func maskPrinted(s, path string) string {
	if path == "" || !strings.Contains(s, path) {
		return s
	}
	return bytesPrintedRE.ReplaceAllString(s, `"bytes_printed":N`)
}

// TestDifferentialAgainstRG runs the same arguments through rg and evgrep
// on one tree and compares exit code, stdout bytes and whether anything
// went to stderr. Every case sorts (or searches one file) so that the
// order of files is deterministic. Without rg, rg's recorded answers
// are used (internal/testref).
func TestDifferentialAgainstRG(t *testing.T) {
	root := writeTree(t, map[string]string{
		".gitignore":         "ignored.txt\n*.log\n",
		"ignored.txt":        "needle in an ignored file\n",
		"app.log":            "needle in a log\n",
		".hidden/secret.go":  "package secret // needle\n",
		"src/main.go":        "package main\n\nfunc main() {\n\tprintln(\"Needle\")\n\t// needle again needle\n}\n",
		"src/lib/util.go":    "package lib\n\n// NEEDLE shouting\nfunc Util() int { return 42 }\n",
		"docs/readme.md":     "# Title\nneedle in docs\n\nmore text\n",
		"mixed/grüße.txt":    "Grüße aus Köln: nadel ÄÖÜ äöü Straße STRASSE\n",
		"mixed/greek.txt":    "αβγ Δέλτα δέλτα\nσοφία ΣΟΦΊΑ\n",
		"bin/data.bin":       "needle\x00binary\n",
		"invalid/latin1.txt": "caf\xe9 needle \xff\xfe\n",
		"long/line.txt":      strings.Repeat("x", 3000) + " needle " + strings.Repeat("y", 3000) + "\n",
		"utf16/le.txt":       "\xff\xfeh\x00i\x00 \x00n\x00e\x00e\x00d\x00l\x00e\x00\n\x00",
		"utf16/be.txt":       "\xfe\xff\x00n\x00e\x00e\x00d\x00l\x00e\x00\n",
		"utf8bom/f.txt":      "\xef\xbb\xbfneedle first\n",
		"multi/uf.txt":       "foo foo\nbar\nfoo\n",
	})
	// A gzip file, made by the standard library.
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("zipped needle\nplain\n"))
	zw.Close()
	os.MkdirAll(filepath.Join(root, "zip"), 0o755)
	os.WriteFile(filepath.Join(root, "zip", "a.txt.gz"), gz.Bytes(), 0o644)
	os.WriteFile(filepath.Join(root, "zip", "corrupt.gz"), []byte("\x1f\x8b\x08\x00garbage"), 0o644)
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	outside := t.TempDir() // the search root is given as an absolute path outside the cwd
	ref := newRefRun(t, root, map[string]string{"OUTSIDE": outside})
	cases := []struct {
		name  string
		args  []string
		stdin string
		dir   string
	}{
		{name: "plain", args: []string{"--sort", "path", "needle"}},
		{name: "signal grep json", args: []string{"--no-config", "--json", "--line-number", "--color=never", "--no-heading", "--hidden", "--sort", "path", "needle", root}, dir: outside},
		{name: "signal grep files", args: []string{"--no-config", "--files", "--null", "--hidden", "--sort", "path", root}, dir: outside},
		{name: "globs", args: []string{"--sort", "path", "--glob", "!*.md", "--iglob", "*.GO", "-n", "needle"}},
		{name: "fixed ignore-case", args: []string{"--sort", "path", "--fixed-strings", "--ignore-case", "-n", "needle"}},
		{name: "case-sensitive", args: []string{"--sort", "path", "--case-sensitive", "Needle"}},
		{name: "smart-case lower", args: []string{"--sort", "path", "--smart-case", "needle"}},
		{name: "smart-case upper", args: []string{"--sort", "path", "--smart-case", "NEEDLE"}},
		{name: "no-ignore", args: []string{"--sort", "path", "--no-ignore", "needle"}},
		{name: "no-ignore-parent", args: []string{"--sort", "path", "--no-ignore-parent", "needle", "src"}},
		{name: "stdin encoding none", args: []string{"--no-config", "--json", "--encoding", "none", "needle", "-"}, stdin: "a needle\nnone\n\xff needle\n"},
		{name: "stdin dash", args: []string{"-n", "needle", "-"}, stdin: "x\nneedle\n"},
		{name: "unicode class", args: []string{"--sort", "path", "-o", `\w+ße`, "mixed"}},
		{name: "unicode case fold", args: []string{"--sort", "path", "-i", "δέλτα", "mixed"}},
		{name: "invalid utf8 line", args: []string{"--sort", "path", "--json", "needle", "invalid"}},
		{name: "binary walked", args: []string{"--sort", "path", "needle", "bin", "src"}},
		{name: "binary named", args: []string{"needle", "bin/data.bin"}},
		{name: "long line", args: []string{"--sort", "path", "-M", "100", "needle", "long"}},
		{name: "count", args: []string{"--sort", "path", "-c", "needle"}},
		{name: "context", args: []string{"--sort", "path", "-C1", "-n", "needle", "src"}},
		{name: "utf16 bom", args: []string{"--sort", "path", "-n", "needle", "utf16", "utf8bom"}},
		{name: "utf16 bom json", args: []string{"--sort", "path", "--json", "needle", "utf16"}},
		{name: "search zip", args: []string{"--sort", "path", "-z", "needle", "zip/a.txt.gz"}},
		{name: "search zip walked", args: []string{"--sort", "path", "-z", "-c", "needle", "zip"}},
		{name: "multiline count, cannot cross lines", args: []string{"-U", "-c", "fo[o]", "multi/uf.txt"}},
		{name: "multiline count, may cross lines", args: []string{"-U", "-c", `o\s`, "multi/uf.txt"}},
		{name: "multiline text anchor", args: []string{"-U", "-n", `\Afoo`, "multi/uf.txt"}},
		{name: "missing path", args: []string{"needle", "does-not-exist"}},
		{name: "bad regex", args: []string{"needle("}},
		{name: "no match", args: []string{"--sort", "path", "zzzznotthere"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := root
			if tc.dir != "" {
				dir = tc.dir
			}
			want, recorded := runRG(t, ref, tc.name, dir, tc.args, tc.stdin)
			got := runEvgrep(t, dir, tc.args, tc.stdin)
			if recorded {
				got.stdout, want.stdout = maskPrinted(got.stdout, root), maskPrinted(want.stdout, root)
			}
			if got != want {
				t.Errorf("rg %q\n got: code=%d stderr=%v\n%s\nwant: code=%d stderr=%v\n%s", tc.args, got.code, got.stderr, got.stdout, want.code, want.stderr, want.stdout)
			}
		})
	}
}

// TestFilesGOROOT: `--files` over the Go tree lists exactly what rg lists
// (15,000 files: ignore rules, hidden files and binary-free listing at
// scale). The order is not compared: both walk in parallel. Live only:
// the corpus is the machine's Go installation, not a recorded tree.
func TestFilesGOROOT(t *testing.T) {
	testref.Live(t)
	root := testref.GoRoot(t)
	if _, err := os.Stat(filepath.Join(root, "src")); err != nil {
		t.Skip("GOROOT sources not present")
	}
	want, _ := runRG(t, refRun{}, "GOROOT", root, []string{"--files", root}, "")
	got := runEvgrep(t, root, []string{"--files", root}, "")
	sortLines := func(s string) []string {
		l := strings.Split(strings.TrimSpace(s), "\n")
		slices.Sort(l)
		return l
	}
	g, w := sortLines(got.stdout), sortLines(want.stdout)
	if got.code != want.code || !slices.Equal(g, w) {
		t.Fatalf("evgrep listed %d files (code %d), rg %d (code %d)", len(g), got.code, len(w), want.code)
	}
}
