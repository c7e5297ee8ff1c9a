//go:build cgo

package syntax

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRolesGolden checks every occurrence of Widget in the fixtures of
// testdata/syntax/roles against the hand-written golden file beside it
// ("LINE:COL ROLE", "+test" when the source marks it as test code).
func TestRolesGolden(t *testing.T) {
	const dir = "../testdata/syntax/roles"
	goldens, err := filepath.Glob(filepath.Join(dir, "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[Language]bool{}
	for _, g := range goldens {
		src := strings.TrimSuffix(g, ".golden")
		t.Run(filepath.Base(src), func(t *testing.T) {
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(g)
			if err != nil {
				t.Fatal(err)
			}
			lang, ok := Detect(src, data)
			if !ok {
				t.Fatalf("no language for %s", src)
			}
			seen[lang] = true
			occs, err := Occurrences(lang, data, "Widget")
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			for _, o := range occs {
				fmt.Fprintf(&got, "%d:%d %s", o.Line, o.Col, o.Role)
				if o.InTest {
					got.WriteString(" +test")
				}
				got.WriteByte('\n')
			}
			wl, gl := strings.Split(string(want), "\n"), strings.Split(got.String(), "\n")
			if len(wl) != len(gl) {
				t.Errorf("%d occurrences, golden has %d", len(gl)-1, len(wl)-1)
			}
			for i := 0; i < min(len(wl), len(gl)); i++ {
				if wl[i] != gl[i] {
					detail := ""
					if i < len(occs) {
						detail = occs[i].Detail
					}
					t.Errorf("got %q (%s), golden %q", gl[i], detail, wl[i])
				}
			}
		})
	}
	n := 0
	for _, l := range Languages() {
		if roleRulesOf(l) == nil {
			continue // no role rules: its occurrences are unclassified
		}
		n++
		if !seen[l] {
			t.Errorf("no roles fixture for %s", l)
		}
	}
	if n < 10 {
		t.Errorf("role rules for %d languages, want the ten of the impact issue", n)
	}
}
