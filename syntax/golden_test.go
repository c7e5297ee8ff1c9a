//go:build cgo

package syntax

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/syntax/golden")

const fixtureDir = "../testdata/syntax"

// fixtures lists the fixture sources with their detected languages.
func fixtures(t *testing.T) map[string]Language {
	t.Helper()
	ents, err := os.ReadDir(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Language{}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		src, err := os.ReadFile(filepath.Join(fixtureDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if l, ok := Detect(e.Name(), src); ok {
			out[e.Name()] = l
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d fixtures found", len(out))
	}
	return out
}

// render prints the outline and, for every line, the enclosing answer.
func render(t *testing.T, lang Language, src []byte) string {
	t.Helper()
	var sb strings.Builder
	ol, err := Outline(lang, src)
	if err != nil {
		t.Fatalf("Outline: %v", err)
	}
	he, _ := HasErrors(lang, src)
	fmt.Fprintf(&sb, "# language %s, syntax errors: %v\n# outline\n", lang, he)
	for _, d := range ol {
		fmt.Fprintf(&sb, "%d-%d %s %q: %s\n", d.StartLine, d.EndLine, d.Kind, d.Name, d.Signature)
		for _, c := range d.Children {
			fmt.Fprintf(&sb, "    %d-%d %s %q: %s\n", c.StartLine, c.EndLine, c.Kind, c.Name, c.Signature)
		}
	}
	sb.WriteString("# enclosing, by line\n")
	lines := bytes.Count(src, []byte("\n"))
	if len(src) > 0 && src[len(src)-1] != '\n' {
		lines++
	}
	for l := 1; l <= lines; l++ {
		d, err := Enclosing(lang, src, l)
		switch {
		case errors.Is(err, ErrNoDecl):
			fmt.Fprintf(&sb, "%d: -\n", l)
		case err != nil:
			fmt.Fprintf(&sb, "%d: error: %v\n", l, err)
		default:
			fmt.Fprintf(&sb, "%d: %s %q %d-%d", l, d.Kind, d.Name, d.StartLine, d.EndLine)
			if d.Header != nil {
				fmt.Fprintf(&sb, " in %s %q %d-%d", d.Header.Kind, d.Header.Name, d.Header.StartLine, d.Header.EndLine)
			}
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}

// TestGolden compares the outline and the per-line enclosing answer of
// every fixture with its golden file (go test ./syntax -run Golden -update
// rewrites them; review the diff).
func TestGolden(t *testing.T) {
	for name, lang := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(fixtureDir, name))
			if err != nil {
				t.Fatal(err)
			}
			got := render(t, lang, src)
			path := filepath.Join(fixtureDir, "golden", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s:\n%s", name, path, diffLines(string(want), got))
			}
		})
	}
}

// diffLines lists the lines that differ, by position.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var sb strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			fmt.Fprintf(&sb, "-%s\n+%s\n", a, b)
		}
	}
	return sb.String()
}
