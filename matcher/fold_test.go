package matcher

import (
	"slices"
	"testing"
	"unicode"
)

// TestFoldable: the list built from unicode.CaseRanges equals the brute
// force scan of every rune.
func TestFoldable(t *testing.T) {
	var want []rune
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if unicode.SimpleFold(r) != r {
			want = append(want, r)
		}
	}
	if got := foldable(); !slices.Equal(got, want) {
		t.Fatalf("foldable has %d runes, brute force %d", len(got), len(want))
	}
}
