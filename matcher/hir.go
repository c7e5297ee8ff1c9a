package matcher

import (
	"unicode"
	"unicode/utf8"
)

// The high-level intermediate representation: the pattern with flags
// applied (case folding done, classes resolved to ranges), from which the
// RE2 pattern, the VM program and the prefilter literals are produced.

type hirKind uint8

const (
	hEmpty hirKind = iota
	hLit           // one character (Unicode) or one raw byte
	hClass
	hAssert
	hRepeat
	hCapture
	hConcat
	hAlt
)

type hir struct {
	kind   hirKind
	r      rune // literal value
	isByte bool // literal is a raw byte (from \xHH with Unicode off)
	cls    *charClass
	assert assertKind
	uniWB  bool // word boundary assertion is Unicode-aware
	min    int
	max    int // -1 unbounded
	greedy bool
	plus   bool // '+': Rust compiles it as a loop, unlike {1,}
	capIdx int
	name   string
	subs   []*hir
}

type flags struct {
	i, m, s, U, u bool
}

func (f *flags) apply(items []flagItem) {
	for _, it := range items {
		v := !it.neg
		switch it.c {
		case 'i':
			f.i = v
		case 'm':
			f.m = v
		case 's':
			f.s = v
		case 'U':
			f.U = v
		case 'u':
			f.u = v
		}
	}
}

const msgUnicodeNotAllowed = "Unicode not allowed here"

type translator struct{}

// translate converts the syntax tree into the HIR under the given flags.
func translate(a *ast, f flags) (*hir, *parseError) {
	t := &translator{}
	fl := f
	return t.node(a, &fl)
}

func (t *translator) node(a *ast, f *flags) (*hir, *parseError) {
	switch a.kind {
	case astEmpty, astFlags:
		if a.kind == astFlags {
			f.apply(a.flags)
		}
		return &hir{kind: hEmpty}, nil
	case astLiteral:
		return t.literal(a.c, a.lk, a.sp, f)
	case astDot:
		if f.u {
			c := &charClass{}
			if f.s {
				c.r = []rng{{0, surrLo - 1}, {surrHi + 1, unicode.MaxRune}}
			} else {
				c.r = []rng{{0, '\n' - 1}, {'\n' + 1, surrLo - 1}, {surrHi + 1, unicode.MaxRune}}
			}
			return &hir{kind: hClass, cls: c}, nil
		}
		c := &charClass{bytes: true}
		if f.s {
			c.r = []rng{{0, 0xFF}}
		} else {
			c.r = []rng{{0, '\n' - 1}, {'\n' + 1, 0xFF}}
		}
		return &hir{kind: hClass, cls: c}, nil
	case astAssert:
		h := &hir{kind: hAssert, assert: a.assert}
		switch a.assert {
		case assertStartLine:
			if !f.m {
				h.assert = assertStartText
			}
		case assertEndLine:
			if !f.m {
				h.assert = assertEndText
			}
		case assertWordB, assertNotWordB, assertWordStart, assertWordEnd, assertWordStartHalf, assertWordEndHalf:
			h.uniWB = f.u
		}
		return h, nil
	case astUnicodeClass:
		if !f.u {
			return nil, errAt(a.sp, msgUnicodeNotAllowed)
		}
		c, msg := unicodeProperty(a.name, a.value, a.hasVal)
		if c == nil {
			return nil, errAt(a.sp, msg)
		}
		if f.i {
			c.caseFold()
		}
		if a.negated {
			c.negate()
		}
		return &hir{kind: hClass, cls: c}, nil
	case astPerlClass:
		c := perlClass(a.perl, f.u)
		c.bytes = !f.u
		if a.negated {
			c.negate()
		}
		return &hir{kind: hClass, cls: c}, nil
	case astBracket:
		c, err := t.classSet(a.set, f)
		if err != nil {
			return nil, err
		}
		if f.i {
			c.caseFold()
		}
		if a.negated {
			c.negate()
		}
		// regex-syntax 0.8 accepts an empty class: it never matches.
		return &hir{kind: hClass, cls: c}, nil
	case astRepeat:
		sub, err := t.node(a.subs[0], f)
		if err != nil {
			return nil, err
		}
		return &hir{kind: hRepeat, min: a.min, max: a.max, greedy: a.greedy != f.U, plus: a.plus, subs: []*hir{sub}}, nil
	case astGroup:
		inner := *f
		inner.apply(a.flags)
		sub, err := t.node(a.subs[0], &inner)
		if err != nil {
			return nil, err
		}
		if a.capIdx == 0 {
			return sub, nil
		}
		return &hir{kind: hCapture, capIdx: a.capIdx, name: a.name, subs: []*hir{sub}}, nil
	case astConcat:
		h := &hir{kind: hConcat}
		for _, s := range a.subs {
			x, err := t.node(s, f)
			if err != nil {
				return nil, err
			}
			h.subs = append(h.subs, x)
		}
		return simplifyConcat(h), nil
	case astAlt:
		h := &hir{kind: hAlt}
		for _, s := range a.subs {
			x, err := t.node(s, f)
			if err != nil {
				return nil, err
			}
			h.subs = append(h.subs, x)
		}
		return h, nil
	}
	return &hir{kind: hEmpty}, nil
}

func simplifyConcat(h *hir) *hir {
	var out []*hir
	for _, s := range h.subs {
		if s.kind == hEmpty {
			continue
		}
		if s.kind == hConcat {
			out = append(out, s.subs...)
			continue
		}
		out = append(out, s)
	}
	switch len(out) {
	case 0:
		return &hir{kind: hEmpty}
	case 1:
		return out[0]
	}
	h.subs = out
	return h
}

// literal translates one literal character under the flags.
func (t *translator) literal(c rune, lk litKind, sp span, f *flags) (*hir, *parseError) {
	if !f.u && lk == litHexShort && c <= 0xFF && c > 0x7F {
		return &hir{kind: hLit, r: c, isByte: true}, nil
	}
	if !f.u && c > 0x7F {
		// rg 15 (regex-syntax 0.8, UTF-8 mode off) matches a non-ASCII
		// literal outside a class as its UTF-8 bytes, never case folded.
		var buf [utf8.UTFMax]byte
		n := utf8.EncodeRune(buf[:], c)
		h := &hir{kind: hConcat}
		for _, b := range buf[:n] {
			h.subs = append(h.subs, &hir{kind: hLit, r: rune(b), isByte: true})
		}
		return h, nil
	}
	if f.i {
		if f.u {
			if hasSimpleFold(c) {
				cls := &charClass{r: []rng{{c, c}}}
				cls.caseFold()
				return &hir{kind: hClass, cls: cls}, nil
			}
		} else if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
			cls := &charClass{bytes: true, r: []rng{{c, c}}}
			cls.caseFold()
			return &hir{kind: hClass, cls: cls}, nil
		}
	}
	return &hir{kind: hLit, r: c}, nil
}

// classLiteralValue returns a class member for a literal under the flags.
func classLiteralValue(c rune, lk litKind, sp span, f *flags) (rune, *parseError) {
	if f.u {
		return c, nil
	}
	if lk == litHexShort && c <= 0xFF {
		return c, nil
	}
	if c > 0x7F {
		return 0, errAt(sp, msgUnicodeNotAllowed)
	}
	return c, nil
}

// classSet evaluates the inside of a bracketed class (without the
// bracket's own folding and negation).
func (t *translator) classSet(cs *classSet, f *flags) (*charClass, *parseError) {
	out := &charClass{bytes: !f.u}
	switch cs.kind {
	case csUnion:
		for _, it := range cs.items {
			c, err := t.classSet(it, f)
			if err != nil {
				return nil, err
			}
			out.r = append(out.r, c.r...)
		}
		out.canon()
	case csLiteral:
		v, err := classLiteralValue(cs.lo, cs.lk, cs.loSp, f)
		if err != nil {
			return nil, err
		}
		out.add(v, v)
	case csRange:
		lo, err := classLiteralValue(cs.lo, cs.lk, cs.loSp, f)
		if err != nil {
			return nil, err
		}
		hi, err := classLiteralValue(cs.hi, cs.hk, cs.hiSp, f)
		if err != nil {
			return nil, err
		}
		out.add(lo, hi)
	case csASCII:
		c := asciiClass(cs.name)
		c.bytes = !f.u
		if f.i {
			c.caseFold()
		}
		if cs.negated {
			c.negate()
		}
		out = c
	case csUnicode:
		if !f.u {
			return nil, errAt(cs.sp, msgUnicodeNotAllowed)
		}
		c, msg := unicodeProperty(cs.name, cs.value, cs.hasVal)
		if c == nil {
			return nil, errAt(cs.sp, msg)
		}
		if f.i {
			c.caseFold()
		}
		if cs.negated {
			c.negate()
		}
		out = c
	case csPerl:
		c := perlClass(cs.perl, f.u)
		c.bytes = !f.u
		if cs.negated {
			c.negate()
		}
		out = c
	case csBracket:
		c, err := t.classSet(cs.items[0], f)
		if err != nil {
			return nil, err
		}
		if f.i {
			c.caseFold()
		}
		if cs.negated {
			c.negate()
		}
		out = c
	case csAnd, csDiff, csXor:
		lhs, err := t.classSet(cs.items[0], f)
		if err != nil {
			return nil, err
		}
		rhs, err := t.classSet(cs.items[1], f)
		if err != nil {
			return nil, err
		}
		if f.i {
			lhs.caseFold()
			rhs.caseFold()
		}
		rhs.canon()
		switch cs.kind {
		case csAnd:
			lhs.intersect(rhs)
		case csDiff:
			lhs.difference(rhs)
		default:
			lhs.symDiff(rhs)
		}
		out = lhs
	}
	out.bytes = !f.u
	return out, nil
}

// smartCaseInsensitive implements rg's smart case: insensitive when the
// pattern has a literal character and none of its literals is uppercase.
func smartCaseInsensitive(a *ast) bool {
	anyLit, anyUpper := false, false
	lit := func(c rune) {
		anyLit = true
		if uniUpperClass().contains(c) {
			anyUpper = true
		}
	}
	var walkSet func(c *classSet)
	walkSet = func(c *classSet) {
		switch c.kind {
		case csLiteral:
			lit(c.lo)
		case csRange:
			lit(c.lo)
			lit(c.hi)
		}
		for _, s := range c.items {
			walkSet(s)
		}
	}
	var walk func(a *ast)
	walk = func(a *ast) {
		switch a.kind {
		case astLiteral:
			lit(a.c)
		case astBracket:
			walkSet(a.set)
		}
		for _, s := range a.subs {
			walk(s)
		}
	}
	walk(a)
	return anyLit && !anyUpper
}

// ---- line terminator handling ----

// stripTerm removes the line terminator byte from every class and rejects
// literals equal to it, as rg does for line-oriented search.
func stripTerm(h *hir, term byte) *parseError {
	if u := singleCharAlt(h); u != nil {
		// regex-syntax 0.8 makes an alternation of single characters one
		// class, from which the terminator is removed like any class's.
		*h = hir{kind: hClass, cls: u}
	}
	switch h.kind {
	case hLit:
		if h.r == rune(term) {
			return termError(term)
		}
	case hClass:
		wasEmpty := len(h.cls.r) == 0
		h.cls.difference(&charClass{r: []rng{{rune(term), rune(term)}}})
		if len(h.cls.r) == 0 && !wasEmpty {
			return termError(term)
		}
	}
	for _, s := range h.subs {
		if err := stripTerm(s, term); err != nil {
			return err
		}
	}
	return nil
}

// singleCharAlt returns the union of an alternation whose branches are all
// single characters (literals or classes of one kind), or nil.
func singleCharAlt(h *hir) *charClass {
	if h.kind != hAlt || len(h.subs) == 0 {
		return nil
	}
	u := &charClass{}
	for i, s := range h.subs {
		var bytes bool
		switch s.kind {
		case hLit:
			bytes = s.isByte
			u.add(s.r, s.r)
		case hClass:
			bytes = s.cls.bytes
			u.r = append(u.r, s.cls.r...)
		default:
			return nil
		}
		if i == 0 {
			u.bytes = bytes
		} else if bytes != u.bytes {
			return nil
		}
	}
	u.canon()
	return u
}

func termError(term byte) *parseError {
	var lit string
	switch term {
	case '\n':
		lit = `"\n"`
	case '\r':
		lit = `"\r"`
	case 0:
		lit = `"\0"`
	default:
		lit = `"` + string(rune(term)) + `"`
	}
	return &parseError{msg: "the literal " + lit + " is not allowed in a regex",
		sp: span{-1, -1},
		hint: "Consider enabling multiline mode with the --multiline flag (or -U for short).\n" +
			"When multiline mode is enabled, new line characters can be matched."}
}

// crlfify replaces every end-of-line assertion with (?:\r??$).
func crlfify(h *hir) *hir {
	if h.kind == hAssert && h.assert == assertEndLine {
		return &hir{kind: hConcat, subs: []*hir{
			{kind: hRepeat, min: 0, max: 1, greedy: false, subs: []*hir{{kind: hLit, r: '\r'}}},
			{kind: hAssert, assert: assertEndLine},
		}}
	}
	for i, s := range h.subs {
		h.subs[i] = crlfify(s)
	}
	return h
}

// crlfAsserts returns a copy of h with every end-of-line anchor made
// assertEndLineCRLF (and with start, every start-of-line anchor
// assertStartLineCRLF), and whether it had one.
func crlfAsserts(h *hir, start bool) (*hir, bool) {
	c := *h
	if c.kind == hAssert && c.assert == assertEndLine {
		c.assert = assertEndLineCRLF
		return &c, true
	}
	if c.kind == hAssert && c.assert == assertStartLine && start {
		c.assert = assertStartLineCRLF
		return &c, true
	}
	found := false
	if len(h.subs) > 0 {
		c.subs = make([]*hir, len(h.subs))
		for i, s := range h.subs {
			var f bool
			c.subs[i], f = crlfAsserts(s, start)
			found = found || f
		}
	}
	return &c, found
}

// lineAnchoredEnd reports whether every match ends with an end-of-line
// assertion (then rg strips a trailing \r from matches in CRLF mode).
func lineAnchoredEnd(h *hir) bool {
	switch h.kind {
	case hAssert:
		return h.assert == assertEndLine
	case hConcat:
		return len(h.subs) > 0 && lineAnchoredEnd(h.subs[len(h.subs)-1])
	case hAlt:
		for _, s := range h.subs {
			if !lineAnchoredEnd(s) {
				return false
			}
		}
		return len(h.subs) > 0
	case hCapture:
		return lineAnchoredEnd(h.subs[0])
	case hRepeat:
		return lineAnchoredEnd(h.subs[0])
	}
	return false
}

// ---- properties used to choose engines ----

type hirInfo struct {
	uniWB       bool // has a Unicode word boundary
	asciiWB     bool
	textAnchor  bool // \A or \z
	nonASCIIUni bool // Unicode literal or class member >= 0x80
	byteHigh    bool // byte literal or byte class member >= 0x80
	bigRepeat   bool // a repetition RE2 cannot take
	specialWB   bool // \b{start} and kin: RE2 has no spelling for them
	plainUniWB  bool // a Unicode \b or \B (not one of the special kinds)
	maxCap      int
}

func analyze(h *hir) hirInfo {
	var in hirInfo
	var walk func(h *hir, mult int)
	walk = func(h *hir, mult int) {
		switch h.kind {
		case hLit:
			if h.isByte {
				in.byteHigh = true
			} else if h.r >= utf8.RuneSelf {
				in.nonASCIIUni = true
			}
		case hClass:
			if len(h.cls.r) > 0 && h.cls.r[len(h.cls.r)-1].hi >= 0x80 {
				if h.cls.bytes {
					in.byteHigh = true
				} else {
					in.nonASCIIUni = true
				}
			}
		case hAssert:
			switch h.assert {
			case assertWordStart, assertWordEnd, assertWordStartHalf, assertWordEndHalf:
				in.specialWB = true
				fallthrough
			case assertWordB, assertNotWordB:
				if h.assert <= assertNotWordB && h.uniWB {
					in.plainUniWB = true
				}
				if h.uniWB {
					in.uniWB = true
				} else {
					in.asciiWB = true
				}
			case assertStartText, assertEndText:
				in.textAnchor = true
			}
		case hRepeat:
			n := h.max
			if n < 0 {
				n = h.min
			}
			if n < 1 {
				n = 1
			}
			mult *= n
			if mult > re2RepeatLimit || h.min > re2RepeatLimit {
				in.bigRepeat = true
				mult = re2RepeatLimit + 1
			}
		case hCapture:
			if h.capIdx > in.maxCap {
				in.maxCap = h.capIdx
			}
		}
		for _, s := range h.subs {
			walk(s, mult)
		}
	}
	walk(h, 1)
	return in
}

// canMatchEmpty reports whether the expression can match the empty string.
func canMatchEmpty(h *hir) bool {
	switch h.kind {
	case hEmpty, hAssert:
		return true
	case hLit, hClass:
		return false
	case hRepeat:
		return h.min == 0 || canMatchEmpty(h.subs[0])
	case hCapture:
		return canMatchEmpty(h.subs[0])
	case hConcat:
		for _, s := range h.subs {
			if !canMatchEmpty(s) {
				return false
			}
		}
		return true
	case hAlt:
		for _, s := range h.subs {
			if canMatchEmpty(s) {
				return true
			}
		}
		return false
	}
	return true
}
