//go:build linux

// Package e2e tests the built evgrep binary as a child process. It holds
// only tests, and imports nothing of evgrep: this process stays small, as
// measuring a child's peak RSS needs (see run).
package e2e

// Memory tests: the binary searches one 16 MiB line with millions of
// occurrences, and its peak RSS (the child's, from rusage) and its output
// are checked.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// hugeLine is the length of the test lines (the figure).
const hugeLine = 16 << 20

// maxHugeRSS is the peak RSS allowed to every search of such a line.
const maxHugeRSS = 64 << 20

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// binary builds evgrep once per test run and returns its path.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		// go test caches a result by the files the test looked at: look
		// at every source file, so that a change to any reruns this.
		filepath.WalkDir("../..", func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() && (strings.HasSuffix(p, ".go") || strings.HasPrefix(e.Name(), "go.")) {
				os.Stat(p)
			}
			return nil
		})
		dir, err := os.MkdirTemp("", "evgrep-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "evgrep")
		out, err := exec.Command("go", "build", "-o", builtBin, "github.com/evgrep/evgrep/cmd/evgrep").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return builtBin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if builtBin != "" {
		os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

// hugeFiles writes, in a new folder, a.txt (one line of hugeLine 'a') and
// words.txt (one line of "foo bar baz " repeated to hugeLine bytes). They
// are written in pieces: this process must stay small, since a child's
// peak RSS starts at its parent's (see run).
func hugeFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, unit := range map[string]string{"a.txt": "a", "words.txt": "foo bar baz "} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		writeRepeat(f, []byte(unit), hugeLine/len(unit))
		f.Write([]byte("\n"))
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// writeRepeat writes n copies of unit to w, a piece at a time.
func writeRepeat(w io.Writer, unit []byte, n int) {
	per := max(1, (64<<10)/len(unit))
	piece := bytes.Repeat(unit, per)
	for ; n >= per; n -= per {
		w.Write(piece)
	}
	w.Write(piece[:n*len(unit)])
}

// selfRSS is the peak RSS of this process's memory since it started
// (VmHWM): what a child starts from. getrusage would not do: its figure
// also holds the peak of the process that started this one (go test).
func selfRSS(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skipf("no /proc/self/status: %v", err)
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				return kb << 10
			}
		}
	}
	t.Skip("no VmHWM in /proc/self/status")
	return 0
}

// digest takes a command's output a piece at a time (never the whole of
// it): a hash of it with the timings of JSON lines cut off (normElapsed,
// on lines shorter than maxShort), its length, and the last short lines.
type digest struct {
	h     hash.Hash
	n     int64
	line  []byte // the current line, while short
	long  bool   // the current line is long: hashed as it comes
	short [keptShort][]byte
	k     int    // short lines seen
	head  []byte // the first maxShort bytes
}

const maxShort = 64 << 10

// keptShort is how many of the last short lines a digest keeps (a
// --stats block is 9).
const keptShort = 12

func newDigest() *digest { return &digest{h: sha256.New()} }

func (d *digest) Write(p []byte) (int, error) {
	d.n += int64(len(p))
	n := len(p)
	if len(d.head) < maxShort {
		d.head = append(d.head, p[:min(len(p), maxShort-len(d.head))]...)
	}
	for len(p) > 0 {
		chunk := p
		i := bytes.IndexByte(p, '\n')
		if i >= 0 {
			chunk = p[:i+1]
		}
		p = p[len(chunk):]
		if d.long {
			d.h.Write(chunk)
		} else {
			d.line = append(d.line, chunk...)
			if len(d.line) > maxShort {
				d.h.Write(d.line)
				d.line, d.long = d.line[:0], true
			}
		}
		if i >= 0 {
			if !d.long {
				d.short[d.k%keptShort] = append(d.short[d.k%keptShort][:0], d.line...)
				d.k++
				d.h.Write(normElapsed(d.line))
			}
			d.line, d.long = d.line[:0], false
		}
	}
	return n, nil
}

// sum finishes the digest: the hash of what was written, timings cut.
func (d *digest) sum() string {
	if len(d.line) > 0 && !d.long {
		d.h.Write(normElapsed(d.line))
	}
	return fmt.Sprintf("%x", d.h.Sum(nil))
}

// lastShort returns the i-th short line from the end (0: the last).
func (d *digest) lastShort(i int) []byte {
	if i >= d.k || i >= keptShort {
		return nil
	}
	return d.short[(d.k-1-i)%keptShort]
}

// run runs bin with args in dir, stdout to a pipe read by a digest, and
// returns the digest, the exit code and the child's peak RSS in bytes.
// Linux reports a child's peak RSS as at least this process's peak (the
// child starts as its copy), so this process is checked to stay small.
func run(t *testing.T, dir string, env []string, bin string, args ...string) (*digest, int, int64) {
	t.Helper()
	if self := selfRSS(t); self > maxHugeRSS/2 {
		t.Fatalf("the test process itself peaked at %d bytes: its children's RSS would not be theirs", self)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	d := newDigest()
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = d, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	if stderr.Len() > 0 {
		t.Logf("%s %q stderr: %.500s", filepath.Base(bin), args, stderr.Bytes())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Skip("no rusage on this system")
	}
	return d, code, ru.Maxrss << 10 // Linux: KiB
}

// TestAgentHugeLineMemory: the agent counts the 16 M occurrences of a
// 16 MiB line of one character without listing them, under 64 MiB.
func TestAgentHugeLineMemory(t *testing.T) {
	bin := binary(t)
	dir := hugeFiles(t)
	os.Remove(filepath.Join(dir, "words.txt"))
	req := fmt.Sprintf(`{"pattern":"a","path":%q}`, dir)
	d, code, rss := run(t, dir, []string{"EVGREP_STATE_DIR=" + t.TempDir()}, bin, "--agent", req)
	out := d.head
	t.Logf("agent, 16 MiB line of 'a': peak RSS %.1f MiB", float64(rss)/(1<<20))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	for _, want := range []string{
		fmt.Sprintf("1 matching lines (%d occurrences)", hugeLine),
		fmt.Sprintf("(+%d more)", hugeLine-20), // 20 ranges shown
		"(excerpt)",
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("answer lacks %q:\n%.2000s", want, out)
		}
	}
	if d.n > 16<<10 {
		t.Errorf("answer of %d bytes", d.n)
	}
	if rss >= maxHugeRSS {
		t.Errorf("peak RSS %d bytes, want < %d", rss, maxHugeRSS)
	}
}

// TestHugeLineOutputMemory: -o and --json on a 16 MiB line with millions
// of occurrences print exactly what is expected (and what rg prints, when
// rg is on PATH) under 64 MiB (and within 1.3x rg's peak RSS).
func TestHugeLineOutputMemory(t *testing.T) {
	bin := binary(t)
	dir := hugeFiles(t)
	rg, _ := exec.LookPath("rg")
	nWords := hugeLine / 12
	cases := []struct {
		name string
		args []string
		want func(w io.Writer) // the expected output
	}{
		{"-o a", []string{"-o", "a", "a.txt"}, func(w io.Writer) { writeRepeat(w, []byte("a\n"), hugeLine) }},
		{"-o bar", []string{"-o", "bar", "words.txt"}, func(w io.Writer) { writeRepeat(w, []byte("bar\n"), nWords) }},
		{"-on bar", []string{"-on", "bar", "words.txt"}, func(w io.Writer) { writeRepeat(w, []byte("1:bar\n"), nWords) }},
		{"--json bar", []string{"--json", "bar", "words.txt"}, func(w io.Writer) { wantJSON(w, "words.txt", []byte("foo bar baz "), nWords, 4) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, code, rss := run(t, dir, nil, bin, tc.args...)
			t.Logf("evgrep %s: peak RSS %.1f MiB, %d bytes out", tc.name, float64(rss)/(1<<20), d.n)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			want := newDigest()
			tc.want(want)
			if d.sum() != want.sum() {
				t.Errorf("output (%d bytes) differs from the expected (%d bytes); it starts %.300q", d.n, want.n, d.head)
			}
			if tc.args[0] == "--json" {
				checkJSONEnd(t, d, nWords, hugeLine/12*12+1)
			}
			if rss >= maxHugeRSS {
				t.Errorf("peak RSS %d bytes, want < %d", rss, maxHugeRSS)
			}
			if rg == "" {
				return
			}
			rgd, rgCode, rgRSS := run(t, dir, nil, rg, tc.args...)
			t.Logf("rg %s: peak RSS %.1f MiB", tc.name, float64(rgRSS)/(1<<20))
			if rgCode != code || rgd.sum() != d.sum() {
				t.Errorf("output differs from rg's (exit %d/%d, %d/%d bytes)", code, rgCode, d.n, rgd.n)
			}
			if float64(rss) > 1.3*float64(rgRSS) {
				t.Errorf("peak RSS %d bytes, more than 1.3x rg's %d", rss, rgRSS)
			}
		})
	}
}

// normElapsed cuts a JSON line at its timings ("elapsed…").
func normElapsed(l []byte) []byte {
	if i := bytes.Index(l, []byte(`"elapsed`)); i >= 0 {
		return l[:i]
	}
	return l
}

// wantJSON writes the --json output expected for path, a file of one line
// made of n copies of unit where "bar" is at offset at of each copy, up
// to the timings of the end and summary messages (cut by normElapsed).
func wantJSON(w io.Writer, path string, unit []byte, n, at int) {
	fmt.Fprintf(w, `{"type":"begin","data":{"path":{"text":%q}}}`+"\n", path)
	fmt.Fprintf(w, `{"type":"match","data":{"path":{"text":%q},"lines":{"text":"`, path)
	writeRepeat(w, unit, n)
	fmt.Fprint(w, `\n"},"line_number":1,"absolute_offset":0,"submatches":[`)
	bw := bufio.NewWriter(w)
	for i := 0; i < n; i++ {
		if i > 0 {
			bw.WriteByte(',')
		}
		s := i*len(unit) + at
		fmt.Fprintf(bw, `{"match":{"text":"bar"},"start":%d,"end":%d}`, s, s+3)
	}
	bw.WriteString("]}}\n")
	bw.Flush()
	fmt.Fprintf(w, `{"type":"end","data":{"path":{"text":%q},"binary_offset":null,"stats":{"elapsed`+"\n", path)
	fmt.Fprint(w, `{"data":{"elapsed`+"\n")
}

// checkJSONEnd checks the counts of --json's end message (the summary's
// are rg's sum of them).
func checkJSONEnd(t *testing.T, d *digest, matches, searched int) {
	t.Helper()
	var end struct {
		Type string
		Data struct {
			Stats struct {
				BytesSearched int64 `json:"bytes_searched"`
				BytesPrinted  int64 `json:"bytes_printed"`
				MatchedLines  int64 `json:"matched_lines"`
				Matches       int64
			}
		}
	}
	line := d.lastShort(1)
	if err := json.Unmarshal(line, &end); err != nil || end.Type != "end" {
		t.Fatalf("end message %.300s: %v", line, err)
	}
	st := end.Data.Stats
	printed := d.n - int64(len(line)) - int64(len(d.lastShort(0)))
	if st.Matches != int64(matches) || st.MatchedLines != 1 || st.BytesSearched != int64(searched) || st.BytesPrinted != printed {
		t.Errorf("end stats %+v, want %d matches, 1 line, %d bytes searched, %d printed", st, matches, searched, printed)
	}
}

// TestSpilledFilesKeepSeparators: with one search at a time (-j1) a
// file's output goes out as it is made once it passes the printer's hold;
// the separators between files stay rg's.
func TestSpilledFilesKeepSeparators(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	const n = 200000 // about 2 MB of output per file: past the 1 MiB hold
	body := func(w io.Writer, prefix string) {
		bw := bufio.NewWriter(w)
		for i := 1; i <= n; i++ {
			fmt.Fprintf(bw, "%sbar %d\n", prefix, i)
		}
		bw.Flush()
	}
	for _, name := range []string{"p1.txt", "p2.txt"} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		body(f, "")
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	rg, _ := exec.LookPath("rg")
	cases := []struct {
		args []string
		want func(io.Writer)
	}{
		{[]string{"-j1", "-C1", "bar", "p1.txt", "p2.txt"}, func(w io.Writer) {
			body(w, "p1.txt:")
			fmt.Fprint(w, "--\n")
			body(w, "p2.txt:")
		}},
		{[]string{"-j1", "--heading", "-C1", "bar", "p1.txt", "p2.txt"}, func(w io.Writer) {
			fmt.Fprint(w, "p1.txt\n")
			body(w, "")
			fmt.Fprint(w, "\np2.txt\n")
			body(w, "")
		}},
	}
	for _, tc := range cases {
		d, code, _ := run(t, dir, nil, bin, tc.args...)
		want := newDigest()
		tc.want(want)
		if code != 0 || d.sum() != want.sum() {
			t.Errorf("%q: exit %d, %d bytes differ from the expected %d", tc.args, code, d.n, want.n)
		}
		if rg != "" {
			if rgd, rgCode, _ := run(t, dir, nil, rg, tc.args...); rgCode != code || rgd.sum() != d.sum() {
				t.Errorf("%q: differs from rg (exit %d/%d, %d/%d bytes)", tc.args, code, rgCode, d.n, rgd.n)
			}
		}
	}
}
