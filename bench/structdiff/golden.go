package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// maxSpans bounds the reference spans kept for a differing case.
const maxSpans = 20000

// answer is ast-grep's recorded answer to one case: the count and digest
// of its match set, and, when evgrep differed at recording time, the
// spans themselves (so that a replay can count what differs).
type answer struct {
	Count  int      `json:"count"`
	Digest string   `json:"sha256"`
	Spans  []string `json:"spans,omitempty"`
	// Error is ast-grep's refusal of the case (an error exit).
	Error string `json:"error,omitempty"`
}

// golden is the recorded answers (testdata/golden/structural/realtrees.json).
type golden struct {
	Reference string            `json:"reference"`
	Answers   map[string]answer `json:"answers"`
}

// loadGolden reads the recorded answers; fresh starts an empty set (a
// full re-recording).
func loadGolden(path string, fresh bool) (*golden, error) {
	g := &golden{Answers: map[string]answer{}}
	if fresh {
		return g, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("no recorded answers (%v): make struct-diff-record", err)
	}
	if err := json.Unmarshal(b, g); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return g, nil
}

// set records ast-grep's answer ref (or its error) to key; evgrep's
// answer decides whether the spans are kept.
func (g *golden) set(key string, ref []span, err error, ev []span, everr error) {
	a := answer{Count: len(ref), Digest: digest(ref)}
	if err != nil {
		a = answer{Error: firstLine(err.Error())}
	} else if (everr != nil || a.Digest != digest(ev)) && len(ref) <= maxSpans {
		a.Spans = []string{}
		for _, s := range ref {
			a.Spans = append(a.Spans, s.String())
		}
	}
	g.Answers[key] = a
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func (g *golden) write(path, bin string) error {
	out, err := exec.Command(bin, "--version").Output()
	if err == nil {
		g.Reference = strings.TrimSpace(string(out))
	}
	b, err := json.MarshalIndent(g, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// difference is one line of DIFFERENCES: a case key and its reason.
type difference struct{ key, reason string }

// loadDifferences reads DIFFERENCES: `pattern<TAB>LANG<TAB>PATTERN<TAB>REASON`,
// `rule<TAB>FILE<TAB>REASON` or
// `rewrite<TAB>LANG<TAB>PATTERN<TAB>TEMPLATE<TAB>REASON` a line.
func loadDifferences(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		var d difference
		switch {
		case f[0] == "pattern" && len(f) == 4:
			d = difference{"pattern\t" + f[1] + "\t" + strings.ReplaceAll(f[2], `\n`, "\n"), f[3]}
		case f[0] == "rule" && len(f) == 3:
			d = difference{"rule\t" + f[1], f[2]}
		case f[0] == "rewrite" && len(f) == 5:
			unesc := func(s string) string { return strings.ReplaceAll(s, `\n`, "\n") }
			d = difference{"rewrite\t" + f[1] + "\t" + unesc(f[2]) + "\t" + unesc(f[3]), f[4]}
		default:
			return nil, fmt.Errorf("DIFFERENCES:%d: not pattern<TAB>LANG<TAB>PATTERN<TAB>REASON, rule<TAB>FILE<TAB>REASON nor rewrite<TAB>LANG<TAB>PATTERN<TAB>TEMPLATE<TAB>REASON", n)
		}
		if strings.TrimSpace(d.reason) == "" {
			return nil, fmt.Errorf("DIFFERENCES:%d: no reason", n)
		}
		out[d.key] = d.reason
	}
	return out, sc.Err()
}
