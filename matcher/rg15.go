package matcher

import "strings"

// This file holds how rg 15 (grep-regex on regex-syntax 0.8) assembles the
// patterns it is given, where that differs from rg 13.

// joinPatterns wraps every pattern in (?:...) and joins them with '|', so
// that neither a flag group like (?i) nor an unbalanced ')(' reaches past
// its own pattern. Errors are reported against this joined text, as rg 15
// prints it. literal reports that every pattern is a plain string (-F, or
// no regex metacharacter at all): rg 15 then skips its NUL-byte ban.
func joinPatterns(o Options) (pat string, literal bool, err error) {
	var b strings.Builder
	literal = true
	for i, p := range o.Patterns {
		if err := invalidPatternUTF8(p); err != nil {
			return "", false, err
		}
		if o.Fixed {
			p = escapeLiteral(p)
		} else if strings.ContainsFunc(p, isMetaChar) {
			literal = false
		}
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString("(?:")
		b.WriteString(p)
		b.WriteByte(')')
	}
	return b.String(), literal, nil
}

// lineWrap applies -x: (?m:^)(?:pat)(?m:$), around the translated
// expression (rg 15 does not show it in error messages).
func lineWrap(h *hir) *hir {
	return &hir{kind: hConcat, subs: []*hir{
		{kind: hAssert, assert: assertStartLine}, h, {kind: hAssert, assert: assertEndLine},
	}}
}

// wordWrap applies -w. The VM runs rg 15's expression,
// \b{start-half}(?:pat)\b{end-half}; RE2, which lacks half boundaries, is
// given (?:^|\W)(?:pat)(?:\W|$), which matches a line exactly when the
// former does and is used only to decide that.
func wordWrap(h *hir, uni, multiline bool, term byte) (vm, exists *hir) {
	vm = &hir{kind: hConcat, subs: []*hir{
		{kind: hAssert, assert: assertWordStartHalf, uniWB: uni},
		h,
		{kind: hAssert, assert: assertWordEndHalf, uniWB: uni},
	}}
	nonWord := perlClass('w', uni)
	nonWord.bytes = !uni
	nonWord.negate()
	if !multiline {
		// Lines handed to the matcher never hold the terminator; keeping
		// it out of \W lets RE2 scan many lines at once.
		nonWord.difference(&charClass{r: []rng{{rune(term), rune(term)}}})
	}
	exists = &hir{kind: hConcat, subs: []*hir{
		{kind: hAlt, subs: []*hir{{kind: hAssert, assert: assertStartLine}, {kind: hClass, cls: nonWord}}},
		h,
		{kind: hAlt, subs: []*hir{{kind: hClass, cls: nonWord.clone()}, {kind: hAssert, assert: assertEndLine}}},
	}}
	return vm, exists
}

const (
	msgNULBanned = `pattern contains "\0" but it is impossible to match`
	hintNULBan   = "Consider enabling text mode with the --text flag (or -a for short). Otherwise,\n" +
		"binary detection is enabled and matching a NUL byte is impossible."
)

// banNUL rejects a NUL literal as rg 15 does with binary detection on. Its
// check sees regex-syntax's simplified expression: a one-member class is a
// literal, an alternation of single characters is one class (so \x00|b
// passes, as its class is not a literal), and x{0} is empty.
func banNUL(h *hir) *parseError {
	if h.kind == hRepeat && h.max == 0 {
		return nil
	}
	if u := singleCharAlt(h); u != nil {
		if len(u.r) == 1 && u.r[0] == (rng{0, 0}) {
			return nulError()
		}
		return nil
	}
	switch h.kind {
	case hLit:
		if h.r == 0 {
			return nulError()
		}
	case hClass:
		if len(h.cls.r) == 1 && h.cls.r[0] == (rng{0, 0}) {
			return nulError()
		}
	}
	for _, s := range h.subs {
		if err := banNUL(s); err != nil {
			return err
		}
	}
	return nil
}

func nulError() *parseError {
	return &parseError{msg: msgNULBanned, sp: span{-1, -1}, hint: hintNULBan}
}
