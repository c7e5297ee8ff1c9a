// Package astgreptest runs the reference ast-grep and compares match
// sets with it: the one place that reads ast-grep's JSON and orders and
// digests match sets, for the differential tests of internal/astsearch
// and the real-code differential (bench/structdiff).
package astgreptest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"sort"
)

// maxLine bounds one line of ast-grep's --json=stream output.
const maxLine = 256 << 20

// Span is one match: a file relative to the searched root ('/'
// separators) and its byte range.
type Span struct {
	File       string
	Start, End int
}

// String is FILE:START-END.
func (s Span) String() string { return fmt.Sprintf("%s:%d-%d", s.File, s.Start, s.End) }

// Sort orders spans by file, start, end.
func Sort(s []Span) {
	sort.Slice(s, func(i, j int) bool {
		if s[i].File != s[j].File {
			return s[i].File < s[j].File
		}
		if s[i].Start != s[j].Start {
			return s[i].Start < s[j].Start
		}
		return s[i].End < s[j].End
	})
}

// Digest sorts s and returns the SHA-256 (hex) of its spans, one a line.
func Digest(s []Span) string {
	Sort(s)
	h := sha256.New()
	for _, x := range s {
		fmt.Fprintln(h, x.String())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Run runs ast-grep (bin) with args and --json=stream in dir and returns
// its matches, files relative to dir. Exit 1 (no match) is no error.
func Run(bin string, args []string, dir string) ([]Span, error) {
	cmd := exec.Command(bin, append(append([]string(nil), args...), "--json=stream")...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			return nil, fmt.Errorf("ast-grep %q: %v: %s", args, err, stderr.String())
		}
	}
	var spans []Span
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, maxLine)
	for sc.Scan() {
		var m struct {
			File  string `json:"file"`
			Range struct {
				ByteOffset struct{ Start, End int } `json:"byteOffset"`
			} `json:"range"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			return nil, fmt.Errorf("ast-grep output: %v", err)
		}
		spans = append(spans, Span{filepath.ToSlash(filepath.Clean(m.File)), m.Range.ByteOffset.Start, m.Range.ByteOffset.End})
	}
	return spans, sc.Err()
}
