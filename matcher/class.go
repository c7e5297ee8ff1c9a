package matcher

import (
	"slices"
	"sort"
	"sync"
	"unicode"
)

// rng is an inclusive range of code points (or of bytes, in a byte class).
type rng struct{ lo, hi rune }

// charClass is a canonical (sorted, non-overlapping, non-adjacent) set of
// ranges. A byte class holds values 0..255 that stand for raw bytes; a
// Unicode class holds scalar values.
type charClass struct {
	bytes bool
	r     []rng
}

const (
	surrLo = 0xD800
	surrHi = 0xDFFF
)

func (c *charClass) maxValue() rune {
	if c.bytes {
		return 0xFF
	}
	return unicode.MaxRune
}

func (c *charClass) add(lo, hi rune) { c.r = append(c.r, rng{lo, hi}) }

// canon sorts and merges the ranges.
func (c *charClass) canon() {
	if len(c.r) < 2 {
		return
	}
	sort.Slice(c.r, func(i, j int) bool { return c.r[i].lo < c.r[j].lo })
	out := c.r[:1]
	for _, x := range c.r[1:] {
		last := &out[len(out)-1]
		if x.lo <= last.hi+1 {
			if x.hi > last.hi {
				last.hi = x.hi
			}
			continue
		}
		out = append(out, x)
	}
	c.r = out
}

func (c *charClass) union(o *charClass) {
	c.r = append(c.r, o.r...)
	c.canon()
}

// negate complements the class; Unicode classes never contain surrogates.
func (c *charClass) negate() {
	c.canon()
	var out []rng
	next := rune(0)
	for _, x := range c.r {
		if x.lo > next {
			out = append(out, rng{next, x.lo - 1})
		}
		next = x.hi + 1
	}
	if next <= c.maxValue() {
		out = append(out, rng{next, c.maxValue()})
	}
	c.r = out
	if !c.bytes {
		c.difference(&charClass{r: []rng{{surrLo, surrHi}}})
	}
}

func (c *charClass) intersect(o *charClass) {
	c.canon()
	var out []rng
	i, j := 0, 0
	for i < len(c.r) && j < len(o.r) {
		lo := max(c.r[i].lo, o.r[j].lo)
		hi := min(c.r[i].hi, o.r[j].hi)
		if lo <= hi {
			out = append(out, rng{lo, hi})
		}
		if c.r[i].hi < o.r[j].hi {
			i++
		} else {
			j++
		}
	}
	c.r = out
}

func (c *charClass) difference(o *charClass) {
	neg := &charClass{bytes: c.bytes, r: append([]rng(nil), o.r...)}
	neg.canon()
	// Complement without the surrogate rule, then intersect.
	var comp []rng
	next := rune(0)
	for _, x := range neg.r {
		if x.lo > next {
			comp = append(comp, rng{next, x.lo - 1})
		}
		next = x.hi + 1
	}
	if next <= unicode.MaxRune {
		comp = append(comp, rng{next, unicode.MaxRune})
	}
	c.intersect(&charClass{r: comp})
}

func (c *charClass) symDiff(o *charClass) {
	a := &charClass{bytes: c.bytes, r: append([]rng(nil), c.r...)}
	a.difference(o)
	b := &charClass{bytes: c.bytes, r: append([]rng(nil), o.r...)}
	b.canon()
	b.difference(c)
	a.union(b)
	c.r = a.r
}

func (c *charClass) contains(r rune) bool {
	i := sort.Search(len(c.r), func(i int) bool { return c.r[i].hi >= r })
	return i < len(c.r) && c.r[i].lo <= r
}

// size is the number of members (saturating).
func (c *charClass) size() int {
	n := 0
	for _, x := range c.r {
		n += int(x.hi-x.lo) + 1
		if n > 1<<20 {
			return n
		}
	}
	return n
}

func (c *charClass) clone() *charClass {
	return &charClass{bytes: c.bytes, r: append([]rng(nil), c.r...)}
}

// caseFold adds the simple case folding orbit of every member (Unicode
// classes) or the other ASCII case (byte classes).
func (c *charClass) caseFold() {
	c.canon()
	if c.bytes {
		var add []rng
		for _, x := range c.r {
			if lo, hi := max(x.lo, 'a'), min(x.hi, 'z'); lo <= hi {
				add = append(add, rng{lo - 32, hi - 32})
			}
			if lo, hi := max(x.lo, 'A'), min(x.hi, 'Z'); lo <= hi {
				add = append(add, rng{lo + 32, hi + 32})
			}
		}
		c.r = append(c.r, add...)
		c.canon()
		return
	}
	ft := ucdFold()
	var add []rng
	for _, x := range c.r {
		i := sort.Search(len(ft.runes), func(i int) bool { return ft.runes[i] >= x.lo })
		for ; i < len(ft.runes) && ft.runes[i] <= x.hi; i++ {
			for _, f := range ft.orbits[ft.orbit[i]] {
				add = append(add, rng{f, f})
			}
		}
	}
	c.r = append(c.r, add...)
	c.canon()
}

// hasSimpleFold reports whether r has case variants.
func hasSimpleFold(r rune) bool {
	ft := ucdFold()
	_, ok := slices.BinarySearch(ft.runes, r)
	return ok
}

var (
	// uniWordClass is Rust's Unicode \w: Alphabetic, marks, decimal
	// numbers, connector punctuation and Join_Control.
	uniWordClass = sync.OnceValue(func() *charClass {
		c := ucdClass("bool/Alphabetic")
		for _, k := range []string{"gc/Mark", "gc/Decimal_Number", "gc/Connector_Punctuation", "bool/Join_Control"} {
			c.union(ucdClass(k))
		}
		return c
	})
	uniDigitClass = sync.OnceValue(func() *charClass { return ucdClass("gc/Decimal_Number") })
	uniSpaceClass = sync.OnceValue(func() *charClass { return ucdClass("bool/White_Space") })
	// uniUpperClass is the Uppercase property, which smart case (-S) asks
	// of each literal as rg does (Rust's char::is_uppercase).
	uniUpperClass = sync.OnceValue(func() *charClass { return ucdClass("bool/Uppercase") })
)

// isUniWord reports whether r is a Unicode word character (Rust's \w).
func isUniWord(r rune) bool {
	if r < 0x80 {
		return isASCIIWord(byte(r))
	}
	return uniWordClass().contains(r)
}

func isASCIIWord(b byte) bool {
	return b == '_' || ('0' <= b && b <= '9') || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z')
}

// perlClass returns \d, \s or \w, Unicode-aware or ASCII.
func perlClass(kind byte, uni bool) *charClass {
	if uni {
		switch kind {
		case 'd':
			return uniDigitClass().clone()
		case 's':
			return uniSpaceClass().clone()
		default:
			return uniWordClass().clone()
		}
	}
	switch kind {
	case 'd':
		return asciiClass("digit")
	case 's':
		return asciiClass("space")
	default:
		return asciiClass("word")
	}
}

// asciiClass returns a POSIX class like [[:alpha:]] (ASCII only).
func asciiClass(name string) *charClass {
	c := &charClass{}
	switch name {
	case "alnum":
		c.add('0', '9')
		c.add('A', 'Z')
		c.add('a', 'z')
	case "alpha":
		c.add('A', 'Z')
		c.add('a', 'z')
	case "ascii":
		c.add(0, 0x7F)
	case "blank":
		c.add('\t', '\t')
		c.add(' ', ' ')
	case "cntrl":
		c.add(0, 0x1F)
		c.add(0x7F, 0x7F)
	case "digit":
		c.add('0', '9')
	case "graph":
		c.add('!', '~')
	case "lower":
		c.add('a', 'z')
	case "print":
		c.add(' ', '~')
	case "punct":
		c.add('!', '/')
		c.add(':', '@')
		c.add('[', '`')
		c.add('{', '~')
	case "space":
		c.add('\t', '\r')
		c.add(' ', ' ')
	case "upper":
		c.add('A', 'Z')
	case "word":
		c.add('0', '9')
		c.add('A', 'Z')
		c.add('_', '_')
		c.add('a', 'z')
	case "xdigit":
		c.add('0', '9')
		c.add('A', 'F')
		c.add('a', 'f')
	}
	c.canon()
	return c
}

const (
	msgPropNotFound      = "Unicode property not found"
	msgPropValueNotFound = "Unicode property value not found"
)
