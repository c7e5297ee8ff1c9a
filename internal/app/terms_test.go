package app

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// termsSummary is the last object of `evgrep --terms --json`.
type termsSummary struct {
	Type          string `json:"type"`
	Match         string `json:"match"`
	FilesSearched int64  `json:"filesSearched"`
	FilesKept     int64  `json:"filesKept"`
	Terms         []struct {
		Term        string `json:"term"`
		Lines       int64  `json:"lines"`
		Occurrences int64  `json:"occurrences"`
		Files       int64  `json:"files"`
	} `json:"terms"`
}

// termsJSON runs evgrep --json with args and returns its occurrence
// objects (term index, path, line, offset) and its summary.
func termsJSON(t *testing.T, dir string, args []string) ([]string, map[string]bool, termsSummary) {
	t.Helper()
	res, stderr := runEvgrepErr(t, dir, append([]string{"--json"}, args...), "")
	if res.code == 2 {
		t.Fatalf("evgrep %q: exit 2: %s", args, stderr)
	}
	var occ []string
	files := map[string]bool{}
	var sum termsSummary
	lines := strings.Split(strings.TrimSuffix(res.stdout, "\n"), "\n")
	for i, l := range lines {
		var v struct {
			Type      string `json:"type"`
			TermIndex int    `json:"termIndex"`
			Path      string `json:"path"`
			Line      int    `json:"line"`
			Offset    int64  `json:"offset"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("evgrep %q: line %d %q: %v", args, i+1, l, err)
		}
		switch v.Type {
		case "occurrence":
			occ = append(occ, fmt.Sprintf("%d %s:%d@%d", v.TermIndex, v.Path, v.Line, v.Offset))
			files[v.Path] = true
		case "file":
			files[v.Path] = true
		case "summary":
			if i != len(lines)-1 {
				t.Fatalf("evgrep %q: the summary is not the last object", args)
			}
			if err := json.Unmarshal([]byte(l), &sum); err != nil {
				t.Fatal(err)
			}
		default:
			t.Fatalf("evgrep %q: object of type %q", args, v.Type)
		}
	}
	if sum.Type != "summary" {
		t.Fatalf("evgrep %q: no summary object", args)
	}
	return occ, files, sum
}

// rgCounts parses `rg -H -c` (or --count-matches) output: path → count.
func rgCounts(t *testing.T, out string) map[string]int64 {
	t.Helper()
	m := map[string]int64{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		i := strings.LastIndexByte(l, ':')
		n, err := strconv.ParseInt(l[i+1:], 10, 64)
		if i < 0 || err != nil {
			t.Fatalf("count line %q", l)
		}
		m[l[:i]] = n
	}
	return m
}

func sumCounts(m map[string]int64) (n int64) {
	for _, v := range m {
		n += v
	}
	return n
}

// TestTermsAgainstRG checks the multi-term search on a fixture tree
// against rg run once per term (live, or its recorded answers in
// testdata/golden, so the test also runs without rg): each term's line,
// occurrence and file counts equal `rg -c`, `rg --count-matches` and the
// files of `rg -c` for that term alone (with the same case flag; smart
// case applies to each term alone); the lines printed in match any equal
// `rg -n -F -e t1 … -e tn`'s (case flags -s and -i: rg's -S looks at all
// patterns together); match all keeps the files every term's search
// finds, and match none the files of `rg --files` that none finds. The
// occurrences --json lists add up to the summary's counts.
func TestTermsAgainstRG(t *testing.T) {
	root := writeTree(t, map[string]string{
		".gitignore":    "ignored.txt\n",
		"ignored.txt":   "alpha beta\n",
		".hidden/h.txt": "alpha he\n",
		"a.go":          "alpha beta\nalphabeta ALPHA\nbetabeta Beta\n",
		"b.txt":         "ushers she said\nhe\nhershe\n",
		"c.md":          "nothing here at all\n",
		"d/e.txt":       "Alpha gamma\r\nbeta\r\n",
		"u.txt":         "straße STRASSE STRAẞE \u212a k K\n",
		"bin.dat":       "alpha\x00beta\n",
		"only/g.txt":    "gamma\n",
		"s/long.txt":    strings.Repeat("he", 300) + "\n",
	})
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	ref := newRefRun(t, root, nil)
	sets := [][]string{
		{"alpha", "beta", "he", "she", "hers", "gamma"},
		{"straße", "k", "ALPHA", "Beta"},
		{"alpha", "beta"},
	}
	type config struct {
		caseFlag string
		extra    []string
	}
	configs := []config{
		{"-s", nil}, {"-i", nil}, {"-S", nil},
		{"-s", []string{"--hidden", "-g", "!*.md"}},
		{"-i", []string{"--no-ignore", "-g", "*.txt"}},
	}
	for si, set := range sets {
		for _, cf := range configs {
			name := fmt.Sprintf("set%d %s %q", si, cf.caseFlag, cf.extra)
			t.Run(name, func(t *testing.T) {
				base := append([]string{"--sort", "path", "-H", cf.caseFlag}, cf.extra...)
				base = append(base, ".")
				var termArgs []string
				for _, s := range set {
					termArgs = append(termArgs, "--term", s)
				}
				perTermFiles := make([]map[string]int64, len(set))
				_, _, sum := termsJSON(t, root, append(slices.Clone(base), termArgs...))
				for i, s := range set {
					c := rgCounts(t, mustRG(t, ref, name, append(slices.Clone(base), "-c", "-F", "-e", s)))
					cm := rgCounts(t, mustRG(t, ref, name, append(slices.Clone(base), "--count-matches", "-F", "-e", s)))
					perTermFiles[i] = c
					want := [3]int64{sumCounts(c), sumCounts(cm), int64(len(c))}
					got := sum.Terms[i]
					if [3]int64{got.Lines, got.Occurrences, got.Files} != want {
						t.Errorf("term %q: lines, occurrences, files = %d %d %d; rg: %v", s, got.Lines, got.Occurrences, got.Files, want)
					}
				}
				// The occurrences listed add up to the summary.
				occ, files, _ := termsJSON(t, root, append(slices.Clone(base), termArgs...))
				perTerm := make([]int64, len(set))
				for _, o := range occ {
					n, _ := strconv.Atoi(strings.Fields(o)[0])
					perTerm[n]++
				}
				for i := range set {
					if perTerm[i] != sum.Terms[i].Occurrences {
						t.Errorf("term %q: %d occurrence objects, summary says %d", set[i], perTerm[i], sum.Terms[i].Occurrences)
					}
				}
				if len(slices.Compact(slices.Sorted(slices.Values(occ)))) != len(occ) {
					t.Errorf("an occurrence is listed twice")
				}
				union := map[string]bool{}
				for _, f := range perTermFiles {
					for p := range f {
						union[p] = true
					}
				}
				if !maps.Equal(files, union) || sum.FilesKept != int64(len(union)) {
					t.Errorf("match any kept %v (%d), rg's files %v", slices.Sorted(maps.Keys(files)), sum.FilesKept, slices.Sorted(maps.Keys(union)))
				}
				// match all: the files every term's search finds.
				_, allFiles, _ := termsJSON(t, root, append(slices.Clone(base), append(termArgs, "--match", "all")...))
				want := map[string]bool{}
				for p := range union {
					every := true
					for _, f := range perTermFiles {
						_, ok := f[p]
						every = every && ok
					}
					if every {
						want[p] = true
					}
				}
				if !maps.Equal(allFiles, want) {
					t.Errorf("match all kept %v, want %v", slices.Sorted(maps.Keys(allFiles)), slices.Sorted(maps.Keys(want)))
				}
				// match none: rg's files that no term's search finds.
				_, noneFiles, noneSum := termsJSON(t, root, append(slices.Clone(base), append(termArgs, "--match", "none")...))
				listed := strings.Fields(mustRG(t, ref, name, append(slices.Clone(base), "--files")))
				want = map[string]bool{}
				for _, p := range listed {
					if !union[p] {
						want[p] = true
					}
				}
				if !maps.Equal(noneFiles, want) || noneSum.FilesSearched != int64(len(listed)) {
					t.Errorf("match none kept %v of %d searched, want %v of %d", slices.Sorted(maps.Keys(noneFiles)), noneSum.FilesSearched, slices.Sorted(maps.Keys(want)), len(listed))
				}
				// The lines printed: rg's for the alternation.
				if cf.caseFlag != "-S" {
					args := append(slices.Clone(base), "-n", "-F")
					for _, s := range set {
						args = append(args, "-e", s)
					}
					rgOut := mustRG(t, ref, name, args)
					got, stderr := runEvgrepErr(t, root, append(slices.Clone(base), termArgs...), "")
					lines, _, _ := strings.Cut(got.stdout, "\n\n")
					if got.code != 0 || lines+"\n" != rgOut {
						t.Errorf("evgrep --terms printed (code %d, %s):\n%s\nrg -e … printed:\n%s", got.code, stderr, lines, rgOut)
					}
				}
			})
		}
	}
}

// mustRG runs rg on the tree (live or recorded) and returns its stdout.
func mustRG(t *testing.T, ref refRun, name string, args []string) string {
	t.Helper()
	res, _ := runRG(t, ref, name, ref.root, args, "")
	if res.code == 2 {
		t.Fatalf("rg %q: exit 2", args)
	}
	return res.stdout
}

// TestTermsSummaryText pins the human form: rg's lines, a blank line, the
// rule's file count and one row per term; match none lists paths.
func TestTermsSummaryText(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a.txt": "alpha beta alpha\n",
		"b.txt": "beta\n",
		"c.txt": "none here\n",
	})
	cases := []struct {
		args []string
		want string
		code int
	}{
		{[]string{"--terms", "alpha,beta", "--sort", "path"},
			"a.txt:1:alpha beta alpha\nb.txt:1:beta\n\n2 terms, match any: 2 of 3 files searched hold a term\n\"alpha\": 1 lines, 2 occurrences, 1 files\n\"beta\": 2 lines, 2 occurrences, 2 files\n", 0},
		{[]string{"--terms", "alpha,beta", "--match", "all", "--sort", "path", "-N"},
			"a.txt:alpha beta alpha\n\n2 terms, match all: 1 of 3 files searched hold every term\n\"alpha\": 1 lines, 2 occurrences, 1 files\n\"beta\": 1 lines, 1 occurrences, 1 files\n", 0},
		{[]string{"--terms", "ALPHA", "--term", "b,c", "-i", "--match", "none", "--sort", "path"},
			"b.txt\nc.txt\n\n2 terms, match none: 2 of 3 files searched hold none of the terms\n", 0},
		{[]string{"--terms", "zeta,omega", "--sort", "path"},
			"2 terms, match any: 0 of 3 files searched hold a term\n\"zeta\": 0 lines, 0 occurrences, 0 files\n\"omega\": 0 lines, 0 occurrences, 0 files\n", 1},
		{[]string{"-q", "--terms", "alpha,x"}, "", 0},
	}
	for _, c := range cases {
		got, stderr := runInDir(t, root, c.args)
		if got.code != c.code || got.stdout != c.want {
			t.Errorf("evgrep %q: code %d (%s)\n%s\nwant code %d\n%s", c.args, got.code, stderr, got.stdout, c.code, c.want)
		}
	}
}

// TestTermsHostileInput checks that bad term lists and conflicting flags
// end with exit 2 and one rg-style line on stderr, and nothing on stdout.
func TestTermsHostileInput(t *testing.T) {
	root := writeTree(t, map[string]string{"a.txt": "alpha\n"})
	many := make([]string, 65)
	for i := range many {
		many[i] = fmt.Sprintf("t%d", i)
	}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--terms", "alpha"}, "expected 2-64 terms, got 1"},
		{[]string{"--terms", strings.Join(many, ",")}, "expected 2-64 terms, got 65"},
		{[]string{"--terms", "a,,b"}, "term 2 is empty"},
		{[]string{"--terms", "a,b,"}, "term 3 is empty"},
		{[]string{"--terms", "a,b,a"}, "term 3 \"a\" repeats term 1"},
		{[]string{"--terms", "a", "--term", "x\ny"}, "holds a line break"},
		{[]string{"--terms", "a", "--term", "x\ry"}, "holds a line break"},
		{[]string{"--terms", "a", "--term", "x\x00y"}, "NUL byte"},
		{[]string{"--terms", "a", "--term", "\xff\xfe"}, "not valid UTF-8"},
		{[]string{"--terms", "a", "--term", strings.Repeat("é", 129)}, "term 2 is 258 bytes long: at most 256"},
		{[]string{"--terms", "a,b", "--match", "some"}, "match"},
		{[]string{"--match", "all", "alpha"}, "--match applies to a multi-term search"},
		{[]string{"--terms", "a,b", "-e", "c"}, "cannot be combined with --regexp"},
		{[]string{"--terms", "a,b", "-v"}, "cannot be combined with --invert-match"},
		{[]string{"--terms", "a,b", "-c"}, "cannot be combined with --count"},
		{[]string{"--terms", "a,b", "-P"}, "cannot be combined with --pcre2"},
		{[]string{"--terms", "a,b", "-w"}, "cannot be combined with --word-regexp"},
		{[]string{"--terms", "a,b", "--rev", "HEAD"}, "cannot be combined with --rev"},
		{[]string{"--terms", "a,b", "--changed-since", "HEAD"}, "cannot be combined with --changed-since"},
	}
	for _, c := range cases {
		got, stderr := runInDir(t, root, c.args)
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if got.code != 2 || got.stdout != "" || len(lines) != 1 || !strings.HasPrefix(stderr, "rg: ") || !strings.Contains(stderr, c.want) {
			t.Errorf("evgrep %.80q: code %d, stdout %q, stderr %q; want exit 2 and one line with %q", c.args, got.code, got.stdout, stderr, c.want)
		}
	}
}

// runInDir runs evgrep in dir with stdin on /dev/null (so that no path
// means the current directory).
func runInDir(t *testing.T, dir string, args []string) (result, string) {
	t.Helper()
	t.Setenv("RIPGREP_CONFIG_PATH", "")
	t.Chdir(dir)
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	var out, errb strings.Builder
	code := Main(args, devnull, &out, &errb)
	return result{code, out.String(), errb.Len() > 0}, errb.String()
}

// tailWriter keeps the last bytes written to it (the summary after a
// run's lines).
type tailWriter struct{ b []byte }

func (w *tailWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	if len(w.b) > 64<<10 {
		w.b = append(w.b[:0], w.b[len(w.b)-32<<10:]...)
	}
	return len(p), nil
}

// goTerms64 are 64 terms of Go source: keywords, identifiers, calls and
// punctuation; several overlap (Println/Print, int64/int) or hold one
// another (t.Errorf/Errorf).
var goTerms64 = []string{
	"Reader", "Writer", "buffer", "context", "errors", "strings", "bytes", "fmt.Errorf",
	"return", "nil", "func", "make", "append", "len(", "panic", "copy",
	"close", "defer", "select", "chan", "interface", "struct", "import", "package",
	"const", "var", "type", "range", "break", "continue", "goto", "switch",
	"case", "default", "else", "for", "if", "Mutex", "Lock", "Unlock",
	"sync", "atomic", "unsafe", "Pointer", "uintptr", "int64", "uint32", "float64",
	"string", "byte", "rune", "error", "Println", "Print", "os.Open", "Errorf",
	"json", "Marshal", "Unmarshal", "t.Fatal", "t.Errorf", "Benchmark", "runtime", "TODO",
}

// TestTermsGOROOT is the acceptance check at scale: 64 terms over
// GOROOT/src in one run, each term's line and occurrence counts equal to
// `rg -c -F` and `rg --count-matches -F` for that term alone, summed over
// the files. Live only (the corpus is the machine's Go installation).
func TestTermsGOROOT(t *testing.T) {
	testref.Live(t)
	src := filepath.Join(testref.GoRoot(t), "src")
	if _, err := os.Stat(src); err != nil {
		t.Skip("GOROOT sources not present")
	}
	t.Setenv("RIPGREP_CONFIG_PATH", "")
	args := []string{"--json"}
	for _, s := range goTerms64 {
		args = append(args, "--term", s)
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	var out tailWriter
	var errb strings.Builder
	if code := Main(append(args, src), devnull, &out, &errb); code != 0 {
		t.Fatalf("evgrep --terms: exit %d: %s", code, errb.String())
	}
	tail := strings.TrimSuffix(string(out.b), "\n")
	var sum termsSummary
	if err := json.Unmarshal([]byte(tail[strings.LastIndexByte(tail, '\n')+1:]), &sum); err != nil || len(sum.Terms) != len(goTerms64) {
		t.Fatalf("no summary: %v", err)
	}
	for i, s := range goTerms64 {
		c := rgCounts(t, runLive(t, "-c", "-H", "-F", "-e", s, src))
		cm := rgCounts(t, runLive(t, "--count-matches", "-H", "-F", "-e", s, src))
		want := [3]int64{sumCounts(c), sumCounts(cm), int64(len(c))}
		got := sum.Terms[i]
		if [3]int64{got.Lines, got.Occurrences, got.Files} != want || got.Term != s {
			t.Errorf("term %q (%q): lines, occurrences, files = %d %d %d; rg: %v", s, got.Term, got.Lines, got.Occurrences, got.Files, want)
		}
	}
}

// runLive runs the reference rg and returns its stdout (exit 0 or 1).
func runLive(t *testing.T, args ...string) string {
	t.Helper()
	var g *testref.Golden
	out := g.Run(t, testref.Case{Name: "GOROOT", Args: args, Env: []string{"RIPGREP_CONFIG_PATH="}})
	if out.Code == 2 {
		t.Fatalf("rg %q: exit 2: %s", args, out.Stderr)
	}
	return string(out.Stdout)
}

// TestTermsJSONLongLine: an occurrence in a line longer than
// termsJSONLine carries a window of the line holding it, with the
// window's offset; short lines are carried whole.
func TestTermsJSONLongLine(t *testing.T) {
	long := strings.Repeat("x", 10000) + " foo " + strings.Repeat("y", 10000)
	root := writeTree(t, map[string]string{"a.txt": long + "\nfoo yy\n"})
	got, stderr := runInDir(t, root, []string{"--json", "--terms", "foo,yy", "a.txt"})
	if got.code != 0 {
		t.Fatalf("exit %d: %s", got.code, stderr)
	}
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(got.stdout), "\n") {
		var v struct {
			Type   string `json:"type"`
			Term   string `json:"term"`
			Line   int    `json:"line"`
			Column int    `json:"column"`
			Lines  struct {
				Text    string `json:"text"`
				Excerpt *int   `json:"excerpt"`
			} `json:"lines"`
		}
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatal(err)
		}
		if v.Type != "occurrence" {
			continue
		}
		n++
		at := v.Column - 1
		if v.Line == 1 {
			if v.Lines.Excerpt == nil || len(v.Lines.Text) > termsJSONLine || len(l) > termsJSONLine+512 {
				t.Fatalf("line 1: object of %d bytes, excerpt %v", len(l), v.Lines.Excerpt)
			}
			at -= *v.Lines.Excerpt
		} else if v.Lines.Excerpt != nil || v.Lines.Text != "foo yy" {
			t.Fatalf("line 2 not carried whole: %s", l)
		}
		if at < 0 || !strings.HasPrefix(v.Lines.Text[at:], v.Term) {
			t.Fatalf("the text does not hold %q at the column: %s", v.Term, l[:min(len(l), 200)])
		}
	}
	if n != 1+5000+2 {
		t.Fatalf("%d occurrences, want %d", n, 1+5000+2)
	}
}
