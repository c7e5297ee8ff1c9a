package rank

import (
	"bytes"
	"io/fs"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/textpos"
)

// goScanDecls gives goDecls's declarations on every Go file of GOROOT/src
// that both accept, and accepts nearly every file that parses.
func TestGoScanMatchesParser(t *testing.T) {
	var files, same, scanOnly, parseOnly, differ int
	eachGorootGo(t, func(p string, src []byte) {
		files++
		want, pok := goDecls(src)
		got, sok := goScanDecls(src, textpos.NewLines(src).Starts())
		switch {
		case pok && sok:
			if reflect.DeepEqual(want, got) {
				same++
			} else {
				differ++
				if differ <= 5 {
					for i := range min(len(want), len(got)) {
						if !reflect.DeepEqual(want[i], got[i]) {
							t.Errorf("%s: decl %d\nparser %+v\nscan   %+v", p, i, want[i], got[i])
							break
						}
					}
					if len(want) != len(got) {
						t.Errorf("%s: %d decls, parser %d", p, len(got), len(want))
					}
				}
			}
		case sok:
			scanOnly++
		case pok:
			parseOnly++
		}
	})
	t.Logf("%d files: %d same, %d differ, %d only scanned, %d only parsed", files, same, differ, scanOnly, parseOnly)
	if differ > 0 {
		t.Errorf("%d files cut differently", differ)
	}
	if parseOnly*100 > files {
		t.Errorf("%d of %d parsed files are not scanned", parseOnly, files)
	}
}

// Corrupted Go source never panics the scanner cut, and what it accepts
// is in order and within the source.
func TestGoScanHostile(t *testing.T) {
	src := []byte("package p\n\n// A doc.\nfunc (r *T) A[X any](s string) (int, error) {\n\treturn `raw\n}` + \"}\", nil\n}\n\ntype (\n\tB struct{ x [4]int }\n\tC = map[string]D\n)\n\nvar e, f = 1, /* c */ 2 // t\n\r\nconst G = 'x'\n")
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 5000; i++ {
		b := bytes.Clone(src)
		for k := 0; k < 1+rng.Intn(3) && len(b) > 0; k++ {
			switch rng.Intn(3) {
			case 0:
				b[rng.Intn(len(b))] = "{}()[]`\"'/*\n\r\x00ab;"[rng.Intn(17)]
			case 1:
				n := rng.Intn(len(b))
				b = append(b[:n:n], b[n+1:]...)
			default:
				b = b[:rng.Intn(len(b))]
			}
		}
		decls, ok := goScanDecls(b, textpos.NewLines(b).Starts())
		if !ok {
			continue
		}
		prev := 0
		for _, d := range decls {
			if d.StartByte < prev || d.EndByte > len(b) || d.StartByte >= d.EndByte || d.StartLine > d.EndLine {
				t.Fatalf("%q: decl %+v out of order or bounds", b, d)
			}
			prev = d.EndByte
		}
	}
}

// gorootSrc returns GOROOT/src, or skips the test without it.
func gorootSrc(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip("no go command")
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no GOROOT/src")
	}
	return root
}

// eachGorootGo calls fn with every Go file of GOROOT/src up to
// MaxFileBytes (the first 2,000 with -short), or skips the test.
func eachGorootGo(t *testing.T, fn func(path string, src []byte)) {
	t.Helper()
	n := 0
	filepath.WalkDir(gorootSrc(t), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		if testing.Short() && n >= 2000 {
			return filepath.SkipAll
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) > MaxFileBytes {
			return nil
		}
		n++
		fn(p, src)
		return nil
	})
}
