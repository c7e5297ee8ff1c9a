package ignore

// globSet finds the highest-numbered glob that matches a path, the way
// globset's GlobSet does: literal, basename and extension globs through
// maps, the others one by one from the last.
type globSet struct {
	globs  []*Glob
	lits   map[string][]int // whole path → glob indexes, ascending
	bases  map[string][]int // basename → glob indexes, ascending
	exts   map[string][]int // extension → glob indexes, ascending
	others []int            // the remaining glob indexes, descending
}

// newGlobSet builds the set of globs, or, as globset fails to, a
// *NestError when one of them nests too deeply.
func newGlobSet(globs []*Glob) (globSet, error) {
	regexes := 0
	for _, g := range globs {
		if g.tooDeep {
			return globSet{}, &NestError{Index: regexes}
		}
		if g.strategy == stratRegex {
			regexes++
		}
	}
	s := globSet{globs: globs}
	for i, g := range globs {
		switch g.strategy {
		case stratLiteral:
			s.lits = addIndex(s.lits, g.lit, i)
		case stratBasenameLiteral:
			s.bases = addIndex(s.bases, g.lit, i)
		case stratExtension:
			s.exts = addIndex(s.exts, g.lit, i)
		}
	}
	for i := len(globs) - 1; i >= 0; i-- {
		switch globs[i].strategy {
		case stratLiteral, stratBasenameLiteral, stratExtension:
		default:
			s.others = append(s.others, i)
		}
	}
	return s, nil
}

func addIndex(m map[string][]int, key string, i int) map[string][]int {
	if m == nil {
		m = map[string][]int{}
	}
	m[key] = append(m[key], i)
	return m
}

// best returns the highest index of a glob that matches c and is allowed
// (a glob marked in onlyDir is allowed only when isDir), or -1.
func (s *globSet) best(c candidate, onlyDir []bool, isDir bool) int {
	best := -1
	pick := func(idx []int) {
		for j := len(idx) - 1; j >= 0 && idx[j] > best; j-- {
			if isDir || !onlyDir[idx[j]] {
				best = idx[j]
				return
			}
		}
	}
	if s.lits != nil {
		pick(s.lits[c.path])
	}
	if s.bases != nil && c.base != "" {
		pick(s.bases[c.base])
	}
	if s.exts != nil && c.ext != "" {
		pick(s.exts[c.ext])
	}
	for _, i := range s.others {
		if i <= best {
			break
		}
		if (isDir || !onlyDir[i]) && s.globs[i].matchCandidate(c) {
			return i
		}
	}
	return best
}
