package rank

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// goScanDecls gives goDecls's declarations on every Go file of GOROOT/src
// that both accept, and accepts nearly every file that parses.
func TestGoScanMatchesParser(t *testing.T) {
	root := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(root); err != nil {
		t.Skip("no GOROOT/src")
	}
	var files, same, scanOnly, parseOnly, differ int
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		if testing.Short() && files >= 2000 {
			return filepath.SkipAll
		}
		src, err := os.ReadFile(p)
		if err != nil || len(src) > MaxFileBytes {
			return nil
		}
		files++
		want, pok := goDecls(src)
		got, sok := goScanDecls(src)
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
		return nil
	})
	t.Logf("%d files: %d same, %d differ, %d only scanned, %d only parsed", files, same, differ, scanOnly, parseOnly)
	if differ > 0 {
		t.Errorf("%d files cut differently", differ)
	}
	if parseOnly*100 > files {
		t.Errorf("%d of %d parsed files are not scanned", parseOnly, files)
	}
}
