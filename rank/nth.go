package rank

// nthSmallest returns the value sort.Float64s would leave at index k of
// xs (0 <= k < len(xs)), reordering xs: a selection in linear time on
// average instead of a sort (top cuts at the n-th best of tens of
// thousands of candidate scores). The scores are never NaN.
func nthSmallest(xs []float64, k int) float64 {
	lo, hi := 0, len(xs)-1
	for lo < hi {
		// Median of three as the pivot, then Hoare's partition.
		mid := lo + (hi-lo)/2
		a, b, c := xs[lo], xs[mid], xs[hi]
		p := c
		switch {
		case (a <= b) == (b <= c):
			p = b
		case (b <= a) == (a <= c):
			p = a
		}
		i, j := lo, hi
		for i <= j {
			for xs[i] < p {
				i++
			}
			for xs[j] > p {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return xs[k]
		}
	}
	return xs[k]
}
