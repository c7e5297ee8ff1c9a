package matcher

import "bytes"

// eachSliceMax is the longest line whose occurrences EachOccurrenceIn
// still finds through findAll's slice (RE2's FindAllIndex is the fastest
// iteration there); on a longer line the occurrences are visited one by
// one, so that a huge line with millions of them costs no memory.
const eachSliceMax = 64 << 10

// EachOccurrenceIn calls fn with each occurrence OccurrencesIn(buf, start,
// end) would return, in the same order and relative to start, without
// building the list: a 1 GiB line holding a billion occurrences costs no
// more memory than one. It stops early when fn returns false.
func (m *Matcher) EachOccurrenceIn(buf []byte, start, end int, fn func(Range) bool) {
	if m.none || start < 0 || start > end || end > len(buf) {
		return
	}
	if m.fast != nil && !hasLoneCR(buf, start, end) {
		m.fast.EachOccurrenceIn(buf, start, end, fn)
		return
	}
	h := m.lineHaystack(buf, end)
	if start > len(h) {
		return
	}
	switch {
	case m.plain != nil:
		for at, n := start, len(m.plain); at <= len(h); {
			i := bytes.Index(h[at:], m.plain)
			if i < 0 {
				return
			}
			s := at + i
			if !fn(Range{s - start, s + n - start}) {
				return
			}
			at = s + n
		}
	case m.exact != nil:
		for at, n := start, len(m.exact.l); at+n <= len(h); {
			s, ok := m.exact.find(h, at, len(h))
			if !ok {
				return
			}
			if !fn(Range{s - start, s + n - start}) {
				return
			}
			at = s + n
		}
	case len(h)-start <= eachSliceMax:
		var local [16]Range
		for _, r := range m.findAll(h, start, local[:0]) {
			if !fn(Range{r.Start - start, r.End - start}) {
				return
			}
		}
	default:
		stopped := false
		m.eachMatchUntil(h, start, func(s, e int) bool {
			if !fn(Range{s - start, e - start}) {
				stopped = true
			}
			return !stopped
		})
	}
}

// eachMatchUntil is eachMatch that stops when fn returns false.
func (m *Matcher) eachMatchUntil(h []byte, at int, fn func(s, e int) bool) {
	lastEnd, lastMatch := at, -1
	for lastEnd <= len(h) {
		s, e, ok := m.findAt(h, lastEnd, nil)
		if !ok {
			return
		}
		if s == e {
			lastEnd = e + 1
			if e == lastMatch {
				continue
			}
		} else {
			lastEnd = e
		}
		lastMatch = e
		if !fn(s, e) {
			return
		}
	}
}

// CountOccurrencesIn returns len(OccurrencesIn(buf, start, end, nil))
// without building the list.
func (m *Matcher) CountOccurrencesIn(buf []byte, start, end int) int {
	_, n := m.OccurrencesBounded(buf, start, end, 0, nil)
	return n
}

// OccurrencesBounded is OccurrencesIn that keeps only the first keep
// occurrences: it appends them to dst and returns the exact number of
// occurrences on the line. What it costs in memory is bounded by keep,
// however many occurrences the line holds. A negative keep keeps none.
func (m *Matcher) OccurrencesBounded(buf []byte, start, end, keep int, dst []Range) ([]Range, int) {
	keep = max(keep, 0)
	if m.plain != nil && start >= 0 && start <= end && end <= len(buf) && !m.none {
		// The rest is counted by bytes.Count, which counts the same
		// non-overlapping occurrences, left to right.
		total := 0
		rest := start
		m.EachOccurrenceIn(buf, start, end, func(r Range) bool {
			if total == keep {
				return false
			}
			dst = append(dst, r)
			total++
			rest = start + r.End
			return true
		})
		h := m.trimCR(buf[:end])
		if total == keep && rest <= len(h) {
			total += bytes.Count(h[rest:], m.plain)
		}
		return dst, total
	}
	total := 0
	m.EachOccurrenceIn(buf, start, end, func(r Range) bool {
		if total < keep {
			dst = append(dst, r)
		}
		total++
		return true
	})
	return dst, total
}
