package app

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestAgentAndRGFormsAgree checks that the two forms of evgrep read files
// through one pipeline: `--agent` finds, per file, the lines that
// `evgrep -c` counts, UTF-16 and UTF-8 byte-order marks and CRLF lines
// included (the agent matches with rg's --crlf, so `$` is compared with
// `--crlf -c`).
func TestAgentAndRGFormsAgree(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"u16le.txt": "\xff\xfeh\x00e\x00l\x00l\x00o\x00\n\x00",
		"u16be.txt": "\xfe\xff\x00h\x00e\x00l\x00l\x00o\x00\r\x00\n\x00h\x00i\x00\n",
		"bom8.txt":  "\xef\xbb\xbfhello\nhello there\n",
		"crlf.txt":  "hello\r\nno\r\nsay hello\r\n",
		"plain.txt": "hello\n",
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("EVGREP_STATE_DIR", t.TempDir())
	t.Setenv("RIPGREP_CONFIG_PATH", "")
	for _, pattern := range []string{"hello", "hello$", "^hello"} {
		rgForm := map[string]int{}
		out := runMain(t, "--crlf", "-c", "-e", pattern, dir)
		for _, line := range strings.Fields(out) { // --crlf ends them in \r\n
			i := strings.LastIndexByte(line, ':')
			n, err := strconv.Atoi(line[i+1:])
			if i < 0 || err != nil {
				t.Fatalf("-c line %q", line)
			}
			rgForm[filepath.Base(line[:i])] = n
		}
		req, _ := json.Marshal(map[string]any{"pattern": pattern, "path": dir, "mode": "summary"})
		var ans struct {
			Details struct {
				Files []struct {
					Path  string `json:"path"`
					Lines int    `json:"lines"`
				} `json:"files"`
			} `json:"details"`
		}
		if err := json.Unmarshal([]byte(runMain(t, "--agent", string(req), "--agent-format", "json")), &ans); err != nil {
			t.Fatal(err)
		}
		agentForm := map[string]int{}
		for _, f := range ans.Details.Files {
			agentForm[f.Path] = f.Lines
		}
		if len(rgForm) < 4 || !reflect.DeepEqual(agentForm, rgForm) {
			t.Errorf("%q: --agent found %v, -c counted %v", pattern, agentForm, rgForm)
		}
	}
}

// runMain runs evgrep with args and returns its stdout.
func runMain(t *testing.T, args ...string) string {
	t.Helper()
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devnull.Close()
	var out, errb bytes.Buffer
	if code := Main(args, devnull, &out, &errb); code != 0 {
		t.Fatalf("evgrep %q: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}
