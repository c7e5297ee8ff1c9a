package matcher

import (
	"strconv"
	"strings"
	"unicode"
)

// re2Mode tells how (and whether) an HIR can be handed to RE2 exactly.
type re2Mode uint8

const (
	re2None   re2Mode = iota // only the VM is exact
	re2UTF8                  // RE2 in UTF-8 mode
	re2Latin1                // RE2 in Latin-1 mode: every byte is a character
)

// chooseRE2Mode picks the RE2 mode in which the HIR means the same as in
// Rust's byte-oriented regex engine.
func chooseRE2Mode(in hirInfo) re2Mode {
	if in.bigRepeat || in.specialWB {
		return re2None
	}
	switch {
	case !in.byteHigh:
		// Byte classes, if any, are ASCII-only: the same in UTF-8 mode.
		return re2UTF8
	case !in.nonASCIIUni:
		return re2Latin1
	}
	return re2None
}

// printRE2 renders the HIR as an RE2 pattern. Captures keep their indexes
// (all groups are printed unnamed and in order).
func printRE2(h *hir, mode re2Mode) string {
	var b strings.Builder
	writeRE2(&b, h, mode)
	return b.String()
}

func writeHex(b *strings.Builder, r rune) {
	b.WriteString(`\x{`)
	b.WriteString(strconv.FormatInt(int64(r), 16))
	b.WriteByte('}')
}

func writeRE2Char(b *strings.Builder, r rune) {
	if r < 0x80 && (('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') || r == '_' || r == ' ') {
		b.WriteRune(r)
		return
	}
	writeHex(b, r)
}

func writeRE2(b *strings.Builder, h *hir, mode re2Mode) {
	switch h.kind {
	case hEmpty:
		b.WriteString("(?:)")
	case hLit:
		writeRE2Char(b, h.r)
	case hClass:
		writeRE2Class(b, h.cls, mode)
	case hAssert:
		switch h.assert {
		case assertStartLine:
			b.WriteString("(?m:^)")
		case assertEndLine:
			b.WriteString("(?m:$)")
		case assertStartText:
			b.WriteString(`\A`)
		case assertEndText:
			b.WriteString(`\z`)
		case assertWordB:
			b.WriteString(`\b`)
		case assertNotWordB:
			b.WriteString(`\B`)
		}
	case hCapture:
		b.WriteByte('(')
		writeRE2(b, h.subs[0], mode)
		b.WriteByte(')')
	case hConcat:
		for _, s := range h.subs {
			if s.kind == hAlt {
				b.WriteString("(?:")
				writeRE2(b, s, mode)
				b.WriteByte(')')
			} else {
				writeRE2(b, s, mode)
			}
		}
	case hAlt:
		for i, s := range h.subs {
			if i > 0 {
				b.WriteByte('|')
			}
			writeRE2(b, s, mode)
		}
	case hRepeat:
		b.WriteString("(?:")
		writeRE2(b, h.subs[0], mode)
		b.WriteByte(')')
		switch {
		case h.min == 0 && h.max < 0:
			b.WriteByte('*')
		case h.min == 1 && h.max < 0 && h.plus:
			b.WriteByte('+')
		case h.max < 0:
			// e{n,} is n copies then e*, as Rust compiles it (RE2 would
			// turn {1,} into a loop like '+').
			b.WriteString("{" + strconv.Itoa(h.min) + "}")
			if !h.greedy {
				b.WriteByte('?')
			}
			b.WriteString("(?:")
			writeRE2(b, h.subs[0], mode)
			b.WriteString(")*")
		case h.min == 0 && h.max == 1:
			b.WriteByte('?')
		case h.min == h.max:
			b.WriteString("{" + strconv.Itoa(h.min) + "}")
		default:
			b.WriteString("{" + strconv.Itoa(h.min) + "," + strconv.Itoa(h.max) + "}")
		}
		if !h.greedy {
			b.WriteByte('?')
		}
	}
}

func writeRE2Class(b *strings.Builder, c *charClass, mode re2Mode) {
	if len(c.r) == 0 {
		// Matches nothing (asciiVariant's cut of a non-ASCII class).
		if mode == re2Latin1 {
			b.WriteString(`[^\x00-\xff]`)
		} else {
			b.WriteString(`[^\x00-\x{10ffff}]`)
		}
		return
	}
	if !c.bytes && len(c.r) == 2 && c.r[0] == (rng{0, surrLo - 1}) && c.r[1] == (rng{surrHi + 1, unicode.MaxRune}) {
		b.WriteString("(?s:.)")
		return
	}
	b.WriteByte('[')
	for _, r := range c.r {
		if !c.bytes && r.lo <= surrHi && r.hi >= surrLo {
			if r.lo < surrLo {
				writeHex(b, r.lo)
				b.WriteByte('-')
				writeHex(b, surrLo-1)
			}
			if r.hi <= surrHi {
				continue
			}
			r.lo = surrHi + 1
		}
		writeHex(b, r.lo)
		if r.hi != r.lo {
			b.WriteByte('-')
			writeHex(b, r.hi)
		}
	}
	b.WriteByte(']')
}

// asciiVariant copies h for ASCII-only text: every class keeps only its
// ASCII members and a non-ASCII literal matches nothing. On a haystack of
// ASCII bytes it matches exactly where h does (Unicode \w, \s, \d, case
// folds and \b all agree with their ASCII parts there) with a far smaller
// automaton; it is printed for RE2's Latin-1 mode.
func asciiVariant(h *hir) *hir {
	c := *h
	switch h.kind {
	case hLit:
		if h.r >= 0x80 {
			return &hir{kind: hClass, cls: &charClass{bytes: h.isByte}}
		}
	case hClass:
		cls := h.cls.clone()
		cls.intersect(&charClass{r: []rng{{0, 0x7f}}})
		c.cls = cls
	}
	if len(h.subs) > 0 {
		c.subs = make([]*hir, len(h.subs))
		for i, s := range h.subs {
			c.subs[i] = asciiVariant(s)
		}
	}
	return &c
}
