package gitrev

import "bytes"

// LineRange is a run of lines, 1-based, both ends included.
type LineRange struct {
	First, Last int
}

// splitLines cuts data after each term byte; a last line without one is
// a line too.
func splitLines(data []byte, term byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, term)
		if i < 0 {
			out = append(out, data)
			break
		}
		out = append(out, data[:i+1])
		data = data[i+1:]
	}
	return out
}

// addedLines returns the lines of new that a line diff from old shows as
// added (inserted, or the new side of a change): the complement of a
// longest common subsequence found by Myers' algorithm, after the common
// head and tail are set aside. Lines compare with their terminators, so a
// last line that gains or loses its terminator counts as changed. When
// the middle part needs more than maxEdits insertions and deletions, or
// holds more than maxLines lines, every line of new's middle part counts
// as added, and approx is set.
func addedLines(old, new []byte, term byte, maxEdits, maxLines int) (ranges []LineRange, approx bool) {
	a, b := splitLines(old, term), splitLines(new, term)
	p := 0
	for p < len(a) && p < len(b) && bytes.Equal(a[p], b[p]) {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && bytes.Equal(a[len(a)-1-s], b[len(b)-1-s]) {
		s++
	}
	a, b = a[p:len(a)-s], b[p:len(b)-s]
	if len(b) == 0 {
		return nil, false
	}
	all := []LineRange{{p + 1, p + len(b)}}
	if len(a) == 0 {
		return all, false
	}
	if len(a) > maxLines || len(b) > maxLines {
		return all, true
	}
	// Lines as numbers: equal lines, equal numbers.
	ids := make(map[string]int32, len(a)+len(b))
	num := func(lines [][]byte) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[string(l)]
			if !ok {
				id = int32(len(ids))
				ids[string(l)] = id
			}
			out[i] = id
		}
		return out
	}
	common, ok := myersCommon(num(a), num(b), maxEdits)
	if !ok {
		return all, true
	}
	for i := 0; i < len(b); i++ {
		if common[i] {
			continue
		}
		j := i
		for j+1 < len(b) && !common[j+1] {
			j++
		}
		ranges = append(ranges, LineRange{p + i + 1, p + j + 1})
		i = j
	}
	return ranges, false
}

// myersCommon marks the elements of b that lie on a shortest edit script
// from a to b's diagonals (a longest common subsequence), or reports
// false when that script has more than maxEdits edits. It keeps the
// frontier of every step for the backtrack: (d+1)² int32s for d edits.
func myersCommon(a, b []int32, maxEdits int) ([]bool, bool) {
	n, m := len(a), len(b)
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int32, 2*limit+3)
	var trace [][]int32
	found := -1
	for d := 0; d <= limit && found < 0; d++ {
		// The frontier before step d, for k in [-d-1, d+1].
		trace = append(trace, append([]int32(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = int(v[off+k+1])
			} else {
				x = int(v[off+k-1]) + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = int32(x)
			if x >= n && y >= m {
				found = d
				break
			}
		}
	}
	if found < 0 {
		return nil, false
	}
	common := make([]bool, m)
	x, y := n, m
	for d := found; d > 0; d-- {
		tv := trace[d]
		at := func(k int) int { return int(tv[k+d+1]) }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		// The diagonal after the edit of step d.
		sx := px
		if pk == k-1 {
			sx = px + 1
		}
		for x > sx {
			x--
			y--
			common[y] = true
		}
		x, y = px, py
	}
	for x > 0 && y > 0 {
		x--
		y--
		common[y] = true
	}
	return common, true
}
