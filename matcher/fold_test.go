package matcher

import (
	"slices"
	"testing"
	"unicode"
)

// foldNewIn151 are the pairs Unicode 15.1 added to CaseFolding.txt
// between code points that existed before (rg 15.2 folds them; Go's
// Unicode 15.0 tables do not).
var foldNewIn151 = map[rune]bool{0x0390: true, 0x1FD3: true, 0x03B0: true, 0x1FE3: true, 0xFB05: true, 0xFB06: true}

// TestFoldOrbits: the generated Unicode 16.0 case folding orbits agree with
// Go's unicode.SimpleFold (Unicode 15.0) on every code point, except in
// the orbits that hold a code point new in Unicode 15.1 or 16.0 and the
// pairs of foldNewIn151, and those orbits are closed (each member's orbit
// is the same set).
func TestFoldOrbits(t *testing.T) {
	ft := ucdFold()
	old := ucdClass("age/15.0")
	orbitOf := func(r rune) []rune {
		i, ok := slices.BinarySearch(ft.runes, r)
		if !ok {
			return []rune{r}
		}
		return ft.orbits[ft.orbit[i]]
	}
	newer := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		ours := orbitOf(r)
		if !slices.Contains(ours, r) {
			t.Fatalf("orbit of %U does not hold it: %U", r, ours)
		}
		for _, f := range ours {
			if !slices.Equal(orbitOf(f), ours) {
				t.Fatalf("orbit of %U is %U, of its member %U %U", r, ours, f, orbitOf(f))
			}
		}
		isNew := foldNewIn151[r]
		for _, f := range ours {
			if !old.contains(f) {
				isNew = true
			}
		}
		goOrbit := []rune{r}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			goOrbit = append(goOrbit, f)
		}
		slices.Sort(goOrbit)
		if isNew {
			if len(ours) > 1 {
				newer++
			}
			continue
		}
		if !slices.Equal(ours, goOrbit) {
			t.Errorf("orbit of %U: generated %U, Go's %U", r, ours, goOrbit)
		}
	}
	if newer == 0 {
		t.Errorf("no case pair new since Unicode 15.0: are the tables 16.0?")
	}
}
