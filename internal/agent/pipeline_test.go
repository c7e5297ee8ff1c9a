package agent

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/evgrep/evgrep/snapshot"
)

// utf16Bytes encodes s as UTF-16 with a byte-order mark.
func utf16Bytes(s string, bigEndian bool) string {
	var b bytes.Buffer
	if bigEndian {
		b.WriteString("\xfe\xff")
	} else {
		b.WriteString("\xff\xfe")
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if bigEndian {
			b.WriteByte(byte(u >> 8))
			b.WriteByte(byte(u))
		} else {
			b.WriteByte(byte(u))
			b.WriteByte(byte(u >> 8))
		}
	}
	return b.String()
}

// encodingTree is the generated tree of TestAgentTotalsMatchRG: one file
// per way rg decodes (or does not decode) a file.
func encodingTree() map[string]string {
	return map[string]string{
		"utf16le.txt":      utf16Bytes("hello world\nno match\nhello again\nsay hello\n", false),
		"utf16be.txt":      utf16Bytes("hello\r\nbye\r\nhello\r\n", true),
		"utf8bom.txt":      "\xef\xbb\xbfhello at the start\nbye\nhello hello\n",
		"crlf.txt":         "hello\r\nworld\r\nsay hello\r\nhello there\r\n",
		"latin1.txt":       "caf\xe9 hello\n\xe9t\xe9\nhello \xff\xfe\n",
		"lf.txt":           "hello\nhello\nhello\n",
		"binary.bin":       "hello\nhello\n\x00hello\n",
		"sub/deep/mix.txt": "no\r\nhello\nhello\r\n",
		"sub/.hidden":      "hello\n",
	}
}

// encodingExpect are rg 13's `rg --crlf --hidden -c PATTERN .` answers
// over encodingTree (recorded from /usr/bin/rg; checked again whenever rg
// is on PATH).
var encodingExpect = map[string]map[string]int{
	"hello": {
		"utf16le.txt": 3, "utf16be.txt": 2, "utf8bom.txt": 2, "crlf.txt": 3,
		"latin1.txt": 2, "lf.txt": 3, "sub/deep/mix.txt": 2, "sub/.hidden": 1,
	},
	"hello$": {
		"utf16le.txt": 1, "utf16be.txt": 2, "utf8bom.txt": 1, "crlf.txt": 2,
		"latin1.txt": 1, "lf.txt": 3, "sub/deep/mix.txt": 2, "sub/.hidden": 1,
	},
	"^hello": {
		"utf16le.txt": 2, "utf16be.txt": 2, "utf8bom.txt": 2, "crlf.txt": 2,
		"latin1.txt": 1, "lf.txt": 3, "sub/deep/mix.txt": 2, "sub/.hidden": 1,
	},
	`(?-u:\xE9)t`: {"latin1.txt": 1},
	// The walk skips a binary file at its first NUL byte: rg -c does not
	// list it.
	`\x00`: {},
}

// agentCounts returns the agent's matching lines per file for pattern.
func agentCounts(t *testing.T, root, pattern string) map[string]int {
	t.Helper()
	sensitive := false // rg's default, not the agent's smart case
	res, err := runSearch(&Request{Pattern: pattern, IgnoreCase: &sensitive}, Env{}, root, nil)
	if err != nil {
		t.Fatalf("%q: %v", pattern, err)
	}
	got := map[string]int{}
	for _, f := range res.snap.Files() {
		if f.Lines > 0 {
			got[f.Path] = f.Lines
		}
	}
	return got
}

// rgCounts runs the reference rg with the agent's settings (--crlf, hidden
// files) and returns its per-file counts.
func rgCounts(t *testing.T, rg, root, pattern string) map[string]int {
	t.Helper()
	cmd := exec.Command(rg, "--crlf", "--hidden", "--no-config", "-c", "-e", pattern, ".")
	cmd.Dir = root
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); err != nil && !(ok && ee.ExitCode() == 1) {
		t.Fatalf("rg %q: %v", pattern, err)
	}
	got := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		i := strings.LastIndexByte(line, ':')
		n, err := strconv.Atoi(line[i+1:])
		if i < 0 || err != nil {
			t.Fatalf("rg line %q", line)
		}
		got[strings.TrimPrefix(line[:i], "./")] = n
	}
	return got
}

// TestAgentTotalsMatchRG checks that the agent reads files as rg does:
// UTF-16 with either byte order, a UTF-8 BOM, CRLF lines (with `$`), latin1
// bytes and a binary file give the agent the per-file totals of `rg -c`.
// The recorded answers make it run without rg; with rg on PATH they are
// checked against it too.
func TestAgentTotalsMatchRG(t *testing.T) {
	root := tree(t, encodingTree())
	rg, _ := exec.LookPath("rg")
	for pattern, want := range encodingExpect {
		if got := agentCounts(t, root, pattern); !reflect.DeepEqual(got, want) {
			t.Errorf("agent %q:\n got %v\nwant %v", pattern, got, want)
		}
		if rg == "" {
			continue
		}
		if got := rgCounts(t, rg, root, pattern); !reflect.DeepEqual(got, want) {
			t.Errorf("rg %q (the recorded answer is stale):\n got %v\nwant %v", pattern, got, want)
		}
	}
}

// TestAgentTotalsMatchRGOnGoroot compares the agent's per-file totals with
// rg's over GOROOT/src, a large real tree (skipped without rg or go).
func TestAgentTotalsMatchRGOnGoroot(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("rg not on PATH")
	}
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("go env GOROOT:", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	if st, err := os.Stat(src); err != nil || !st.IsDir() {
		t.Skip("no GOROOT/src")
	}
	src, _ = filepath.EvalSymlinks(src)
	for _, pattern := range []string{"func", `err != nil \{$`, `(?i)utf-?16`} {
		got, want := agentCounts(t, src, pattern), rgCounts(t, rg, src, pattern)
		if len(want) == 0 {
			t.Fatalf("rg found nothing for %q", pattern)
		}
		for p, n := range want {
			if got[p] != n {
				t.Errorf("%q: %s: agent %d lines, rg %d", pattern, p, got[p], n)
			}
		}
		for p, n := range got {
			if _, ok := want[p]; !ok {
				t.Errorf("%q: %s: agent %d lines, rg none", pattern, p, n)
			}
		}
	}
}

// TestAgentLinesLoseCR checks rg's --crlf handling of the recorded lines:
// a CRLF line is recorded without its "\r", and a UTF-16 file as UTF-8.
func TestAgentLinesLoseCR(t *testing.T) {
	root := tree(t, encodingTree())
	res, err := runSearch(&Request{Pattern: "hello"}, Env{}, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"crlf.txt":    {"hello", "say hello", "hello there"},
		"utf16be.txt": {"hello", "hello"},
		"utf16le.txt": {"hello world", "hello again", "say hello"},
	}
	for path, lines := range want {
		var got []string
		for _, l := range res.snap.FileLines(path) {
			got = append(got, string(l.Text))
		}
		if !reflect.DeepEqual(got, lines) {
			t.Errorf("%s: got %q, want %q", path, got, lines)
		}
	}
}

// TestContextLinesAreDecoded checks that context lines, read from disk
// after the search, are decoded as the search read the file: a UTF-16 file
// shows its text, not its raw bytes, and CRLF lines lose their "\r".
func TestContextLinesAreDecoded(t *testing.T) {
	root := tree(t, encodingTree())
	env := Env{Store: snapshot.NewMemoryStore(), Cwd: root}
	for path, want := range map[string][]string{
		"utf16le.txt": {"hello world", "no match"},
		"utf16be.txt": {"hello", "bye"},
		"crlf.txt":    {"hello", "world"},
	} {
		a := ask(t, env, `{"pattern":"hello","mode":"matches","context":1,"paths":["`+path+`"]}`)
		if len(a.Details.Context) == 0 {
			t.Fatalf("%s: no context in %s", path, a.Text)
		}
		c := a.Details.Context[0]
		got := append(append(append([]string{}, c.Before...), a.Details.Matches[0].Text), c.After...)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: context %q, want %q", path, got, want)
		}
	}
}
