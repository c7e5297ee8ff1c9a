package rank

import (
	"math/rand"
	"sort"
	"testing"
)

// nthSmallest gives what a sort leaves at each index, with ties and
// sorted, reversed and constant inputs.
func TestNthSmallest(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.Intn(200)
		xs := make([]float64, n)
		for i := range xs {
			switch trial % 4 {
			case 0:
				xs[i] = r.Float64()
			case 1:
				xs[i] = float64(r.Intn(5))
			case 2:
				xs[i] = float64(i)
			default:
				xs[i] = float64(n - i)
			}
		}
		want := append([]float64(nil), xs...)
		sort.Float64s(want)
		for _, k := range []int{0, n / 2, n - 1, r.Intn(n)} {
			if got := nthSmallest(append([]float64(nil), xs...), k); got != want[k] {
				t.Fatalf("trial %d, k %d of %d: %v, want %v", trial, k, n, got, want[k])
			}
		}
	}
}
