package matcher

import (
	"encoding/binary"
	"sort"
	"strings"
	"sync"
)

// This file resolves \p{...} names the way rg 15's regex (regex-syntax 0.8)
// does, over the tables ucdgen generated from the Unicode Character
// Database (ucd_tables.go, Unicode 16.0.0).

// ucdClass decodes a generated table; nil when there is none.
func ucdClass(key string) *charClass {
	enc, ok := ucdTables()[key]
	if !ok {
		return nil
	}
	c := &charClass{}
	b := []byte(enc)
	prev := rune(0)
	for len(b) > 0 {
		gap, n := binary.Uvarint(b)
		b = b[n:]
		length, m := binary.Uvarint(b)
		b = b[m:]
		if n <= 0 || m <= 0 {
			break
		}
		lo := prev + rune(gap)
		c.r = append(c.r, rng{lo, lo + rune(length)})
		prev = lo + rune(length)
	}
	return c
}

// normalizeProp is UAX44-LM3 loose matching as regex-syntax applies it:
// ASCII letters lowercased, ' ', '_' and '-' dropped, non-ASCII bytes
// dropped, an "is" prefix ignored (except that "isc" stays, ISO_Comment's
// alias).
func normalizeProp(s string) string {
	isPrefix := len(s) >= 2 && strings.EqualFold(s[:2], "is")
	if isPrefix {
		s = s[2:]
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '_' || c == '-':
		case 'A' <= c && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c < 0x80:
			b.WriteByte(c)
		}
	}
	if isPrefix && b.String() == "c" {
		return "isc"
	}
	return b.String()
}

func canonicalGencat(norm string) (string, bool) {
	switch norm {
	case "any":
		return "Any", true
	case "assigned":
		return "Assigned", true
	case "ascii":
		return "ASCII", true
	}
	v, ok := ucdValueNames()["General_Category"][norm]
	return v, ok
}

func gencatClass(canon string) (*charClass, string) {
	switch canon {
	case "Any":
		return &charClass{r: []rng{{0, surrLo - 1}, {surrHi + 1, 0x10FFFF}}}, ""
	case "ASCII":
		return &charClass{r: []rng{{0, 0x7F}}}, ""
	case "Assigned":
		c := ucdClass("gc/Unassigned")
		c.negate()
		return c, ""
	}
	if c := ucdClass("gc/" + canon); c != nil {
		return c, ""
	}
	return nil, msgPropValueNotFound
}

func found(c *charClass) (*charClass, string) {
	if c == nil {
		return nil, msgPropValueNotFound
	}
	return c, ""
}

// unicodeProperty resolves \p{name} or \p{name=value} (also name:value and
// name!=value, which the parser splits) to its class, or returns rg's
// error message.
func unicodeProperty(name, value string, hasVal bool) (*charClass, string) {
	if !hasVal {
		norm := normalizeProp(name)
		// cf, sc and lc are general categories here, not the properties
		// Case_Folding, Script and Lowercase_Mapping.
		if norm != "cf" && norm != "sc" && norm != "lc" {
			if canon, ok := ucdPropNames()[norm]; ok {
				if c := ucdClass("bool/" + canon); c != nil {
					return c, ""
				}
				return nil, msgPropNotFound
			}
		}
		if canon, ok := canonicalGencat(norm); ok {
			return gencatClass(canon)
		}
		if canon, ok := ucdValueNames()["Script"][norm]; ok {
			return found(ucdClass("sc/" + canon))
		}
		return nil, msgPropNotFound
	}
	canon, ok := ucdPropNames()[normalizeProp(name)]
	if !ok {
		return nil, msgPropNotFound
	}
	pv := normalizeProp(value)
	if canon == "General_Category" {
		g, ok := canonicalGencat(pv)
		if !ok {
			return nil, msgPropValueNotFound
		}
		return gencatClass(g)
	}
	v, ok := ucdValueNames()[canon][pv]
	if !ok {
		return nil, msgPropValueNotFound
	}
	prefix := map[string]string{
		"Script": "sc/", "Script_Extensions": "scx/", "Age": "age/",
		"Grapheme_Cluster_Break": "gcb/", "Word_Break": "wb/", "Sentence_Break": "sb/",
	}[canon]
	return found(ucdClass(prefix + v))
}

// foldTable is the simple case folding of Unicode 16.0 (ucdFoldOrbits):
// runes lists every code point with case variants, in order; orbit[i]
// indexes the orbit (all its variants, itself included) of runes[i].
type foldTable struct {
	runes  []rune
	orbit  []int
	orbits [][]rune
}

var ucdFold = sync.OnceValue(func() *foldTable {
	ft := &foldTable{}
	b := []byte(ucdFoldOrbits)
	next := func() rune {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			b = nil
			return 0
		}
		b = b[n:]
		return rune(v)
	}
	first := rune(0)
	type member struct {
		r     rune
		orbit int
	}
	var ms []member
	for len(b) > 0 {
		size := int(next())
		first += next()
		o := []rune{first}
		for k := 1; k < size; k++ {
			o = append(o, o[k-1]+next())
		}
		for _, r := range o {
			ms = append(ms, member{r, len(ft.orbits)})
		}
		ft.orbits = append(ft.orbits, o)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].r < ms[j].r })
	for _, m := range ms {
		ft.runes = append(ft.runes, m.r)
		ft.orbit = append(ft.orbit, m.orbit)
	}
	return ft
})
