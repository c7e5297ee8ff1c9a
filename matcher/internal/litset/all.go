package litset

// All reports every occurrence of every literal of a set in one pass,
// overlapping ones included (the multi-term search needs each term's own
// occurrences, not the alternation's leftmost-first choice). It is the
// same automaton as Set, with, per node, the literals that end there and
// a link to the next node of its failure chain where a literal ends. It
// is safe for concurrent use.
type All struct {
	s *Set
	// ends[n] lists the literals that end at node n (its spelling equals
	// them); dict[n] is the nearest node of n's failure chain (n itself
	// excluded) with literals, or -1.
	ends [][]int32
	dict []int32
	// rowNode maps a dense row (its offset / nc) back to its node.
	rowNode []int32
	fold    *[256]byte
}

// asciiFold maps ASCII capitals to small letters and every other byte to
// itself.
var asciiFold = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// NewAll compiles lits (non-empty strings; equal ones are all reported).
// With fold, ASCII letters match either case (the literals are compared
// with their capitals made small; other bytes exactly).
func NewAll(lits [][]byte, fold bool) *All {
	a := &All{}
	src := lits
	if fold {
		a.fold = &asciiFold
		src = make([][]byte, len(lits))
		for i, l := range lits {
			f := make([]byte, len(l))
			for j, b := range l {
				f[j] = asciiFold[b]
			}
			src[i] = f
		}
	}
	s := New(src)
	a.s = s
	nn := len(s.best)
	a.ends = make([][]int32, nn)
	for i, l := range src {
		n := int32(0)
		for _, b := range l {
			n = s.child(n, b)
		}
		a.ends[n] = append(a.ends[n], int32(i))
	}
	// Breadth first, so that a node's failure target has its link.
	a.dict = make([]int32, nn)
	a.dict[0] = none
	queue := []int32{0}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range s.children(n) {
			f := s.fail[e.to]
			if len(a.ends[f]) > 0 {
				a.dict[e.to] = f
			} else {
				a.dict[e.to] = a.dict[f]
			}
			queue = append(queue, e.to)
		}
	}
	a.rowNode = make([]int32, len(s.dense)/int(s.nc))
	for n, r := range s.rowAt {
		if r >= 0 {
			a.rowNode[r/s.nc] = int32(n)
		}
	}
	return a
}

// Each calls fn(lit, end) for every occurrence of every literal in buf,
// in the order of their ends (occurrences ending at the same byte: the
// longest literal first); end is the index just past the occurrence. It
// stops when fn returns false.
func (a *All) Each(buf []byte, fn func(lit, end int) bool) {
	s := a.s
	fold := a.fold
	if fold == nil {
		fold = &identity
	}
	v := s.enc[0]
	for i := 0; i < len(buf); i++ {
		b := fold[buf[i]]
		if v >= 0 {
			v = s.scan[v>>1+s.cls[b]]
		} else {
			v = s.enc[s.next((^v)>>1, b)]
		}
		if (v^v>>31)&1 == 0 {
			continue
		}
		var n int32
		if v >= 0 {
			n = a.rowNode[(v>>1)/s.nc]
		} else {
			n = (^v) >> 1
		}
		if len(a.ends[n]) == 0 {
			n = a.dict[n]
		}
		for ; n != none; n = a.dict[n] {
			for _, l := range a.ends[n] {
				if !fn(int(l), i+1) {
					return
				}
			}
		}
	}
}

// identity maps every byte to itself.
var identity = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
	}
	return t
}()
