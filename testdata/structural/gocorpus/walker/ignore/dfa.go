package ignore

import "math/bits"

// dfa is the subset construction of an automaton. A state is identified by
// the positions that may come next and whether it accepts; state 0 is the
// dead state (nothing may come next, not accepting).
type dfa struct {
	start   uint16
	nclass  int
	classOf [256]uint8
	trans   []uint16 // state*nclass + class → state
	accept  []bool
}

type dfaKey struct {
	next   bitset
	accept bool
}

// newDFA builds the DFA of a, or reports false when it would have more than
// maxDFAStates states.
func newDFA(a *automaton) (*dfa, bool) {
	d := &dfa{nclass: len(a.accepts), classOf: a.classOf}
	index := map[dfaKey]uint16{}
	var keys []dfaKey
	state := func(k dfaKey) (uint16, bool) {
		if s, ok := index[k]; ok {
			return s, true
		}
		if len(keys) >= maxDFAStates {
			return 0, false
		}
		s := uint16(len(keys))
		index[k] = s
		keys = append(keys, k)
		d.accept = append(d.accept, k.accept)
		return s, true
	}
	state(dfaKey{}) // the dead state
	start, _ := state(dfaKey{next: a.first, accept: a.nullable})
	d.start = start
	for s := 0; s < len(keys); s++ {
		k := keys[s]
		for c := 0; c < d.nclass; c++ {
			var reached bitset
			for w := range reached {
				reached[w] = k.next[w] & a.accepts[c][w]
			}
			var nk dfaKey
			for w, x := range reached {
				nk.accept = nk.accept || x&a.last[w] != 0
				for ; x != 0; x &= x - 1 {
					nk.next.or(&a.follow[w*64+bits.TrailingZeros64(x)])
				}
			}
			t, ok := state(nk)
			if !ok {
				return nil, false
			}
			d.trans = append(d.trans, t)
		}
	}
	return d, true
}

func (d *dfa) match(s string) bool {
	st := d.start
	for i := 0; i < len(s); i++ {
		st = d.trans[int(st)*d.nclass+int(d.classOf[s[i]])]
		if st == 0 {
			return false
		}
	}
	return d.accept[st]
}
