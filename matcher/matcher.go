package matcher

import (
	"bytes"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	re2 "github.com/wasilibs/go-re2"
	"github.com/wasilibs/go-re2/experimental"

	"github.com/evgrep/evgrep/matcher/internal/litset"
	"github.com/evgrep/evgrep/matcher/internal/vscan"
)

// CaseMode selects how letter case is matched (-s, -i, -S).
type CaseMode int

const (
	// Sensitive matches case exactly (-s, the default).
	Sensitive CaseMode = iota
	// Insensitive ignores case (-i).
	Insensitive
	// Smart ignores case unless a pattern has an uppercase literal (-S).
	Smart
)

// Options configures Compile. They mirror rg's flags; the CLI resolves
// which of -i/-s/-S wins before calling Compile.
type Options struct {
	// Patterns from -e, -f and the positional argument. Several are
	// alternated as rg 15 does: each wrapped in (?:...) (after -F
	// escaping), joined with '|'. No pattern at all matches nothing.
	Patterns []string
	// Fixed treats every pattern as a literal string (-F).
	Fixed bool
	// Case is the case mode (-s, -i, -S).
	Case CaseMode
	// Word wraps the pattern as rg's -w does; Line as -x does.
	Word, Line bool
	// Multiline lets matches span lines (-U); DotAll makes '.' match '\n'
	// in that mode (--multiline-dotall).
	Multiline, DotAll bool
	// CRLF makes '$' match before "\r\n" (--crlf).
	CRLF bool
	// LineTerminator is '\n', or 0 for --null-data.
	LineTerminator byte
	// NoUnicode disables Unicode mode (--no-unicode).
	NoUnicode bool
	// BanNUL rejects a pattern with a NUL literal, as rg 15 does while
	// binary detection is on (no -a): such a pattern could never match.
	BanNUL bool
	// noContext compiles CRLF mode's line anchors the way that needs no
	// view of the bytes around a line (context.go: the fast matcher).
	noContext bool
	// SizeLimit is --regex-size-limit in bytes: patterns whose compiled
	// program rg 15 counts as bigger are rejected with its error. Zero
	// means rg's default, DefaultSizeLimit.
	SizeLimit int
}

// Range is a half-open byte range [Start, End).
type Range struct{ Start, End int }

// Matcher is a compiled set of patterns. It is safe for concurrent use.
type Matcher struct {
	none      bool // no patterns: never matches
	term      byte
	crlf      bool
	multiline bool
	word      bool
	crlfStrip bool // strip a trailing \r from matches ending at '$'

	prog *prog // VM program: the pattern (with -w's half boundaries)
	// wbQuirk: the program has a plain Unicode \b or \B, for which search
	// models rg 13's DFA/NFA mix.
	wbQuirk bool

	re *re2.Regexp // confirmer; nil when only the VM is exact
	// reASCII is re for ASCII text: every class cut to its ASCII members
	// (asciiVariant); nil unless the pattern has Unicode classes. Then re
	// stays nil and the full program is compiled in the background into
	// reFull (reReady is closed when that ends, compiled or not); until
	// then non-ASCII text goes to the VM. hasRE says whether any RE2
	// program exists.
	reASCII    *re2.Regexp
	reFull     atomic.Pointer[re2.Regexp]
	reReady    chan struct{}
	hasRE      bool
	reMode     re2Mode
	re2Once    sync.Once
	re2Init    func() // compiles re, or reASCII and reFull (Compile)
	uniWB      bool   // RE2 is exact only on ASCII text
	canEmpty   bool
	chunked    bool // RE2 may scan many lines in one call
	textAnchor bool // \A or \z present
	byteHigh   bool // raw-byte classes that match non-ASCII bytes

	ncap  int            // capture groups of the user's pattern
	names map[string]int // capture names (user numbering)
	pre   *prefilter
	plain []byte   // the pattern is this literal byte string (see plain.go)
	exact *litScan // or a fixed-length literal of byte sets (plain.go)
	// litMulti scans buffers for plain or exact (vectorised; nil when
	// unavailable).
	litMulti *multiScan
	first    *firstScan // no literal: candidate starts by first byte (firstbyte.go)
	// lits answers alone for a big alternation of plain literals (-f
	// with many words): a multi-literal automaton, no regex engine.
	lits *litset.Set
	// crosses: a match may hold the terminator or anchors on the whole
	// buffer (newline.go).
	crosses bool
	// dfa answers "is there a match, and where does the first end" for
	// programs without assertions (dfa.go); nil otherwise.
	dfa *dfaProg
	// wordLit answers -w for a fixed-length literal (wordlit.go); nil
	// otherwise.
	wordLit *wordLit
	// wordSet and lineSet answer alone for -w and -x of many plain
	// literals (litwords.go); nil otherwise.
	wordSet *wordSet
	lineSet *lineSet
	// nulAnchors: -U --null-data with line anchors, searched record by
	// record within the buffer; ctxAnchors: --crlf with line anchors,
	// line by line within the buffer (context.go).
	nulAnchors, ctxAnchors bool
	// fast answers for ctxAnchors where no lone \r is in sight.
	fast *Matcher
}

// escapeLiteral escapes a -F pattern as Rust's regex::escape does.
func escapeLiteral(s string) string {
	var b strings.Builder
	for _, r := range s {
		if isMetaChar(r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Compile builds a Matcher. Errors carry rg's message text.
func Compile(o Options) (*Matcher, error) {
	m := &Matcher{term: o.LineTerminator, crlf: o.CRLF, multiline: o.Multiline, word: o.Word}
	if len(o.Patterns) == 0 {
		m.none = true
		return m, nil
	}
	if lits, ok := plainLiteralSet(o); ok {
		m.names = map[string]int{}
		m.lits = litset.New(lits)
		return m, nil
	}
	if m, ok, err := compileLitWords(o); ok {
		return m, err
	}
	pat, literal, err := joinPatterns(o)
	if err != nil {
		return nil, err
	}
	tree, perr := parsePattern(pat)
	if perr != nil {
		return nil, formatError(pat, perr)
	}
	f := flags{m: true, u: !o.NoUnicode, s: o.Multiline && o.DotAll}
	switch o.Case {
	case Insensitive:
		f.i = true
	case Smart:
		f.i = smartCaseInsensitive(tree)
	}
	h, perr := translate(tree, f)
	if perr != nil {
		return nil, formatError(pat, perr)
	}
	inner := h // the pattern before -x's anchors
	if o.Line {
		h = lineWrap(h)
	}
	if !o.Multiline {
		var terms []byte
		switch {
		case o.LineTerminator == 0:
			terms = []byte{0}
		case o.CRLF:
			terms = []byte{'\r', '\n'}
		default:
			terms = []byte{o.LineTerminator}
		}
		for _, t := range terms {
			if perr := stripTerm(h, t); perr != nil {
				return nil, formatError(pat, perr)
			}
		}
	}
	if o.BanNUL && !literal {
		if perr := banNUL(h); perr != nil {
			return nil, formatError(pat, perr)
		}
	}
	// With line anchors the VM decides CRLF's ^ and $ exactly, with the
	// bytes around the line in view (ctxAnchors): they hold next to any
	// \r, which \r??$ cannot express; and with -w the half boundaries
	// must see the \r that $ stands before, which \r??$ would have
	// consumed (in multiline mode only that $ is the VM's).
	var crlfVM *hir
	if o.CRLF && (o.Word || !o.Multiline && !o.noContext) {
		if c, ok := crlfAsserts(h, !o.Multiline && !o.noContext); ok {
			crlfVM = c
		}
	}
	m.ctxAnchors = crlfVM != nil && !o.Multiline && !o.noContext
	if o.CRLF {
		h = crlfify(h)
	}
	limit := o.SizeLimit
	if limit <= 0 {
		limit = DefaultSizeLimit
	}
	re2Insts, serr := checkRgSize(h, o.Word, limit)
	if serr != nil {
		return nil, serr
	}
	if ws, ls := setFor(inner, o); ws != nil || ls != nil {
		m.names = map[string]int{}
		m.wordSet, m.lineSet = ws, ls
		return m, nil
	}
	info := analyze(h)
	m.ncap = info.maxCap
	m.names = map[string]int{}
	collectNames(h, m.names)
	m.canEmpty = canMatchEmpty(h)
	if !o.Word {
		if lits, ok := altLiterals(h.subs); ok && h.kind == hAlt && len(lits) >= minLitSet {
			m.lits = litset.New(lits)
			return m, nil
		}
	}
	m.pre = buildPrefilter(h)
	if o.Word && !o.Multiline && !o.CRLF {
		m.wordLit = newWordLit(h, !o.NoUnicode)
	}
	if m.pre == nil && !m.canEmpty {
		m.first = buildFirstScan(h)
	}
	if !o.Word {
		if sets, ok := exactSets(h); ok && len(sets) <= maxLitLen {
			// The scanner looks for the literal's rarest byte, which
			// beats bytes.Index (it keys on the first byte) over big
			// buffers; plain also keeps bytes.Index for short lines.
			m.exact = exactScan(sets)
			m.plain, _ = plainBytes(h)
			m.litMulti = newMultiScan([]lit{sets})
		}
	}

	conf, re2Conf := h, h
	if o.Word {
		// rg 15: \b{start-half}(?:pat)\b{end-half}, Unicode-aware unless
		// --no-unicode. RE2 cannot spell the half boundaries; for whether a
		// line matches, (?:^|\W)(?:pat)(?:\W|$) is the same question.
		conf, re2Conf = wordWrap(h, !o.NoUnicode, o.Multiline, o.LineTerminator)
		if crlfVM != nil {
			conf, _ = wordWrap(crlfVM, !o.NoUnicode, o.Multiline, o.LineTerminator)
		}
	} else if crlfVM != nil {
		conf = crlfVM
	} else {
		m.crlfStrip = o.CRLF && lineAnchoredEnd(h)
	}
	info = analyze(conf)
	m.wbQuirk = info.plainUniWB
	p, err := compileProg(conf, info.maxCap)
	if err != nil {
		return nil, errSizeLimit(limit)
	}
	m.prog = p
	if !o.Multiline && crlfVM == nil {
		m.dfa = newDFA(p, !o.CRLF && o.LineTerminator == '\n')
	}
	info = analyze(re2Conf)
	conf = re2Conf
	m.uniWB = info.uniWB
	m.reMode = chooseRE2Mode(info)
	if crlfVM != nil {
		// RE2 cannot spell CRLF's ^ and $: the VM answers every question.
		m.reMode = re2None
	}
	if m.plain != nil || m.exact != nil || m.wordLit != nil {
		// A plain literal (plain.go), or -w of a fixed-length one
		// (wordlit.go), never needs RE2; not compiling it saves its
		// WebAssembly memory (~10 MB of RSS).
		m.reMode = re2None
	}
	fullRE2 := re2Insts <= re2InstLimit
	if !fullRE2 && !(m.reMode == re2UTF8 && info.nonASCIIUni) {
		m.reMode = re2None
	}
	var av *hir // the ASCII variant, compiled first (see loadRE2)
	if m.reMode == re2UTF8 && info.nonASCIIUni {
		// go-re2 (translated WebAssembly) takes 60-100 ms to compile
		// Unicode classes (\w{5}\s+…: the whole difference between
		// 0.34-0.45 s and 0.22-0.26 s of CPU over 3,000 ASCII files of
		// GOROOT with and without --no-unicode). On ASCII text the classes'
		// ASCII members alone decide, and that program compiles at once;
		// the full one compiles in the background, and until it is ready
		// (or if it fails) the VM answers for non-ASCII text instead of
		// waiting: one short non-ASCII line took 70 ms, an ASCII one 23.
		av = asciiVariant(conf)
		if z := nfaCount(av, false, true, 1<<62); z.re2Insts() > re2InstLimit {
			m.reMode, av = re2None, nil
		}
	}
	// RE2 is compiled when first asked for (re2For): with the DFA a plain
	// search may never need it, which saves its compile time and its
	// WebAssembly memory. Until then hasRE says whether it will exist; a
	// failed compile leaves re2For answering nil, and the VM answers.
	reMode := m.reMode
	m.hasRE = reMode != re2None
	m.re2Init = func() {
		if av != nil {
			if ra, aerr := experimental.CompileLatin1(printRE2(av, re2Latin1)); aerr == nil {
				m.reASCII = ra
				m.reReady = make(chan struct{})
				if !fullRE2 {
					// Too big for RE2: the VM answers non-ASCII text.
					close(m.reReady)
					return
				}
				src := printRE2(conf, re2UTF8)
				go func() {
					if re, err := re2.Compile(src); err == nil {
						m.reFull.Store(re)
					}
					close(m.reReady)
				}()
				return
			} else if !fullRE2 {
				return
			}
		}
		var re *re2.Regexp
		var err error
		switch reMode {
		case re2UTF8:
			re, err = re2.Compile(printRE2(conf, re2UTF8))
		case re2Latin1:
			re, err = experimental.CompileLatin1(printRE2(conf, re2Latin1))
		}
		if err == nil {
			m.re = re
		}
	}
	m.textAnchor = info.textAnchor
	m.crosses = info.textAnchor || canMatchByte(conf, o.LineTerminator)
	m.nulAnchors = o.Multiline && o.LineTerminator != '\n' && !m.crosses && !m.canEmpty && hasLineAnchor(conf)
	m.byteHigh = info.byteHigh
	m.chunked = m.hasRE && !o.Multiline && o.LineTerminator == '\n' && !info.textAnchor
	if m.ctxAnchors {
		// Lines without a lone \r are answered the way they were before
		// CRLF's anchors needed the VM (context.go).
		fo := o
		fo.noContext = true
		fast, err := Compile(fo)
		if err != nil {
			return nil, err
		}
		m.fast = fast
	}
	return m, nil
}

// plainLiteralSet returns the patterns as byte strings when there are at
// least minLitSet of them and each is a plain case-sensitive literal (no
// regex syntax, or -F; no -w or -x; no control characters): then rg's
// answer is the alternation of those strings, which the literal set gives
// without parsing a pattern of (often) megabytes.
func plainLiteralSet(o Options) ([][]byte, bool) {
	if o.Word || o.Line {
		return nil, false
	}
	return plainLiterals(o)
}

// plainLiterals is plainLiteralSet whatever -w and -x say.
func plainLiterals(o Options) ([][]byte, bool) {
	if len(o.Patterns) < minLitSet || o.Case == Insensitive {
		return nil, false
	}
	upper := false
	out := make([][]byte, len(o.Patterns))
	for i, p := range o.Patterns {
		if p == "" || !utf8.ValidString(p) {
			return nil, false
		}
		for _, r := range p {
			if r < 0x20 || r == 0x7F || !o.Fixed && isSyntaxChar(r) || o.NoUnicode && r >= utf8.RuneSelf {
				return nil, false
			}
			if unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r) {
				upper = true
			}
		}
		out[i] = []byte(p)
	}
	if o.Case == Smart && !upper {
		return nil, false // smart case makes them case-insensitive
	}
	return out, true
}

// isSyntaxChar reports whether r means something outside a class in
// rg's regex syntax (the other characters escapeLiteral escapes, such as
// '-' and '#', are literal there).
func isSyntaxChar(r rune) bool {
	switch r {
	case '\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$':
		return true
	}
	return false
}

func collectNames(h *hir, names map[string]int) {
	if h.kind == hCapture && h.name != "" {
		names[h.name] = h.capIdx
	}
	for _, s := range h.subs {
		collectNames(s, names)
	}
}

// NumCaptures returns the number of capture groups in the pattern(s).
func (m *Matcher) NumCaptures() int { return m.ncap }

// CaptureIndex returns the index of a named group, or -1.
func (m *Matcher) CaptureIndex(name string) int {
	if i, ok := m.names[name]; ok {
		return i
	}
	return -1
}

func isASCII(b []byte) bool { return vscan.IndexHigh(b) < 0 }

// loadRE2 compiles the RE2 programs on first use.
func (m *Matcher) loadRE2() {
	if m.hasRE {
		m.re2Once.Do(m.re2Init)
	}
}

// re2For returns the RE2 program for text h: the ASCII variant when h is
// ASCII, else the full program; nil when there is none (yet): the VM
// answers.
func (m *Matcher) re2For(h []byte) *re2.Regexp {
	m.loadRE2()
	if m.reASCII != nil && isASCII(h) {
		return m.reASCII
	}
	if m.reReady != nil {
		return m.reFull.Load()
	}
	return m.re
}

// re2Exact reports whether RE2 answers "is there a match" exactly on h.
func (m *Matcher) re2Exact(h []byte) bool {
	return m.hasRE && (!m.uniWB || isASCII(h))
}

// IsMatch reports whether line (without its terminator; in CRLF mode a
// trailing '\r' may be kept, as rg's buffer search sees it) contains a match.
func (m *Matcher) IsMatch(line []byte) bool {
	if m.none {
		return false
	}
	if m.fast != nil && !hasLoneCR(line, 0, len(line)) {
		return m.fast.IsMatch(line)
	}
	if m.lits != nil {
		return m.lits.Contains(line)
	}
	if m.wordSet != nil || m.lineSet != nil {
		_, _, ok := m.setFind(line, 0, nil)
		return ok
	}
	if m.plain != nil {
		return bytes.Contains(line, m.plain)
	}
	if m.exact != nil {
		_, ok := m.exact.find(line, 0, len(line))
		return ok
	}
	if m.wordLit != nil {
		_, _, ok := m.wordLit.next(line, 0)
		return ok
	}
	if m.dfa != nil {
		if e, ok := m.dfaFirstEnd(line); ok {
			return e >= 0
		}
	}
	if m.re2Exact(line) {
		if re := m.re2For(line); re != nil {
			return re.Match(line)
		}
	}
	var caps [2]int
	md := execMode{earliest: true, asciiPrevAt: -1}
	md.charStep = m.uniWB && !m.byteHigh && !isASCII(line)
	return m.prog.execMode(line, 0, md, caps[:])
}

// NextLine finds the first line in buf[from:] that contains a match (from
// must be at a line start). start/end are the line's bounds; end includes
// the line terminator when there is one. Not for multiline mode.
func (m *Matcher) NextLine(buf []byte, from int) (start, end int, ok bool) {
	if m.none || from < 0 {
		return 0, 0, false
	}
	if m.nulAnchors || m.ctxAnchors {
		return m.contextNextLine(buf, from)
	}
	if m.lits != nil {
		e := m.lits.FirstEnd(buf, from)
		if e < 0 {
			return 0, 0, false
		}
		return m.lineAround(buf, from, e-1)
	}
	if m.wordSet != nil || m.lineSet != nil {
		s, _, ok := m.findAt(buf, from, nil)
		if !ok {
			return 0, 0, false
		}
		return m.lineAround(buf, from, s)
	}
	if m.litMulti != nil && len(buf)-from >= minMultiScan {
		return m.litMultiNextLine(buf, from)
	}
	if m.exact != nil {
		return m.exactNextLine(buf, from)
	}
	if m.plain != nil {
		return m.plainNextLine(buf, from)
	}
	// The DFA exists outside multiline mode only, where a match never
	// holds the terminator: crossing there means line anchors, which it
	// answers itself ('\n' lines), or \A/\z, which it refuses.
	if m.pre == nil && m.first == nil && m.dfa != nil && (!m.crosses || m.term == '\n' && !m.textAnchor) {
		if s, e, found, ok := m.dfaNextLine(buf, from); ok {
			return s, e, found
		}
	}
	for from < len(buf) {
		var ls, le int
		switch {
		case m.pre == nil && m.first != nil:
			p, found := m.first.find(buf, from)
			if !found {
				return 0, 0, false
			}
			ls = from
			if i := bytes.LastIndexByte(buf[from:p], m.term); i >= 0 {
				ls = from + i + 1
			}
		case m.pre != nil:
			p, found := m.pre.find(buf, from)
			if !found {
				return 0, 0, false
			}
			ls = from
			if i := bytes.LastIndexByte(buf[from:p], m.term); i >= 0 {
				ls = from + i + 1
			}
		case m.chunked:
			ls, found := m.chunkSearch(buf, from)
			if !found {
				return 0, 0, false
			}
			return ls, advance(buf, lineEnd(buf, ls, m.term)), true
		default:
			ls = from
		}
		le = lineEnd(buf, ls, m.term)
		if m.IsMatch(buf[ls:le]) {
			return ls, advance(buf, le), true
		}
		from = advance(buf, le)
	}
	return 0, 0, false
}

func lineEnd(buf []byte, from int, term byte) int {
	if i := bytes.IndexByte(buf[from:], term); i >= 0 {
		return from + i
	}
	return len(buf)
}

func advance(buf []byte, le int) int {
	if le < len(buf) {
		return le + 1
	}
	return le
}

// chunkSearch runs RE2 over many lines at once and returns the start of
// the first matching line in buf[from:]. Chunks with non-ASCII text are
// confirmed line by line when the pattern has a Unicode \b.
func (m *Matcher) chunkSearch(buf []byte, from int) (int, bool) {
	size := minChunkSize
	for from < len(buf) {
		end := from + size
		// Each RE2 call copies its input: start small (matches are often
		// near) and grow while nothing matches.
		size = min(2*size, chunkSize)
		if end >= len(buf) {
			end = len(buf)
		} else if i := bytes.IndexByte(buf[end:], '\n'); i >= 0 {
			end += i
		} else {
			end = len(buf)
		}
		if end == len(buf) && end > from && buf[end-1] == '\n' {
			end--
		}
		// The chunk stops before its last '\n' so that no phantom empty
		// line follows it.
		chunk := buf[from:end]
		re := m.re2For(chunk)
		if re == nil || m.uniWB && !isASCII(chunk) {
			for ls := from; ls <= end; {
				le := lineEnd(buf[:end], ls, '\n')
				if m.IsMatch(buf[ls:le]) {
					return ls, true
				}
				ls = le + 1
			}
		} else if loc := re.FindIndex(chunk); loc != nil {
			p := from + loc[0]
			ls := from
			if i := bytes.LastIndexByte(buf[from:p], '\n'); i >= 0 {
				ls = from + i + 1
			}
			return ls, true
		}
		from = end + 1
	}
	return 0, false
}

// findAt finds the leftmost match at or after at in h with rg's matcher
// semantics (word mode, CRLF stripping). caps receives the slots of the
// user's groups when non-nil (len 2*(ncap+1)).
func (m *Matcher) findAt(h []byte, at int, caps []int) (int, int, bool) {
	if m.lits != nil {
		s, e, ok := m.lits.Find(h, at)
		if ok && caps != nil {
			caps[0], caps[1] = s, e
		}
		return s, e, ok
	}
	if m.wordLit != nil && caps == nil {
		return m.wordLit.next(h, at)
	}
	if m.wordSet != nil || m.lineSet != nil {
		return m.setFind(h, at, caps)
	}
	var buf [2]int
	c := buf[:]
	if caps != nil {
		c = caps
	}
	if !m.search(m.prog, h, at, c) {
		return 0, 0, false
	}
	s, e := c[0], c[1]
	if m.crlfStrip && e > s && h[e-1] == '\r' {
		for i := 1; caps != nil && 2*i+1 < len(caps); i++ {
			if caps[2*i+1] == e {
				caps[2*i+1]--
			}
		}
		e--
		if caps != nil {
			caps[1] = e
		}
	}
	return s, e, true
}

// search runs the VM the way Rust's regex 1.5 would search from at. With
// a Unicode \b on non-ASCII text Rust falls back from its DFA to its NFA,
// which steps by characters; its DFA, when it finishes on ASCII bytes,
// judges the byte before at as ASCII.
func (m *Matcher) search(p *prog, h []byte, at int, caps []int) bool {
	md := execMode{asciiPrevAt: -1, realEnd: m.ctxAnchors}
	if m.wbQuirk && !m.byteHigh {
		if at > 0 && h[at-1] >= 0x80 {
			md.asciiPrevAt = at
			if p.execMode(h, at, md, caps) {
				end := min(caps[1]+1, len(h))
				if isASCII(h[at:end]) {
					return true
				}
			} else if isASCII(h[at:]) {
				return false
			}
			md.asciiPrevAt = -1
		}
		md.charStep = !isASCII(h[at:])
	}
	return p.execMode(h, at, md, caps)
}

// decodeLen is the length of the first UTF-8 character of b, or of its
// maximal invalid prefix (at least 1).
func decodeLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	c := b[0]
	var n int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c < 0x80:
		return 1
	case c >= 0xC2 && c <= 0xDF:
		n = 2
	case c >= 0xE0 && c <= 0xEF:
		n = 3
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		n = 4
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	i := 1
	for ; i < n && i < len(b); i++ {
		if b[i] < lo || b[i] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return i
}

// decodeLastLen is the length of the last UTF-8 character of b (1 for an
// invalid tail), as bstr's decode_last_utf8.
func decodeLastLen(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	start := len(b) - 1
	limit := len(b) - 4
	if limit < 0 {
		limit = 0
	}
	for start > limit && b[start]&0xC0 == 0x80 {
		start--
	}
	n := decodeLen(b[start:])
	if start+n != len(b) {
		return 1
	}
	return n
}

// trimCR drops the '\r' of a CRLF terminator in CRLF mode, as rg does
// before finding the occurrences in a line.
func (m *Matcher) trimCR(line []byte) []byte {
	if m.crlf && !m.multiline && len(line) > 0 && line[len(line)-1] == '\r' {
		return line[:len(line)-1]
	}
	return line
}

// Occurrences appends the non-overlapping matches in line (without its
// terminator) in rg's order, including empty matches, with the Rust
// iteration rule: after an empty match the search resumes one byte later,
// and an empty match right where the previous match ended is skipped. The
// line is treated as the start of its buffer; see OccurrencesIn.
func (m *Matcher) Occurrences(line []byte, dst []Range) []Range {
	return m.OccurrencesIn(line, 0, len(line), dst)
}

// OccurrencesIn is Occurrences for the line buf[start:end] (end excludes
// the terminator), searched the way rg's printer does: the bytes before
// start are context, so \A only matches at the start of buf, (?m:^) looks
// at the previous byte, and rg 13's -w fast path trims the first character
// of a word at the start of any line but the buffer's first. Ranges are
// relative to start.
func (m *Matcher) OccurrencesIn(buf []byte, start, end int, dst []Range) []Range {
	if m.none || start < 0 || start > end || end > len(buf) {
		return dst
	}
	if m.fast != nil && !hasLoneCR(buf, start, end) {
		return m.fast.OccurrencesIn(buf, start, end, dst)
	}
	h := m.lineHaystack(buf, end)
	if start > len(h) {
		return dst
	}
	base := len(dst)
	dst = m.findAll(h, start, dst)
	for i := base; i < len(dst); i++ {
		dst[i].Start -= start
		dst[i].End -= start
	}
	return dst
}

// FindAll appends all occurrences in buf, for multiline mode (-U). An
// empty match at the very end of a buffer that ends with a line
// terminator (or is empty) is left out: rg has no line to report there;
// in CRLF mode so is an empty match between '\r' and '\n'.
func (m *Matcher) FindAll(buf []byte, dst []Range) []Range {
	if m.none {
		return dst
	}
	base := len(dst)
	dst = m.findAll(buf, 0, dst)
	if m.crlf {
		// rg reports no empty match between the '\r' and '\n' of a CRLF.
		out := dst[:base]
		for _, r := range dst[base:] {
			if r.Start == r.End && r.Start > 0 && r.Start < len(buf) && buf[r.Start-1] == '\r' && buf[r.Start] == '\n' {
				continue
			}
			out = append(out, r)
		}
		dst = out
	}
	if n := len(dst); n > base && dst[n-1].Start == len(buf) &&
		(len(buf) == 0 || buf[len(buf)-1] == m.term) {
		dst = dst[:n-1]
	}
	return dst
}

// re2IterExact reports whether go-re2's FindAll iteration (Go semantics)
// over h[at:] equals rg's iteration over h from at.
func (m *Matcher) re2IterExact(h []byte, at int) bool {
	if !m.hasRE || m.word || m.crlfStrip {
		return false
	}
	if at > 0 && (h[at-1] != '\n' || m.textAnchor) {
		return false
	}
	if (m.canEmpty || m.uniWB || m.reMode == re2Latin1) && !isASCII(h[at:]) {
		return false
	}
	return true
}

func (m *Matcher) findAll(h []byte, at int, dst []Range) []Range {
	if m.lits != nil {
		for at < len(h) {
			s, e, ok := m.lits.Find(h, at)
			if !ok {
				break
			}
			dst = append(dst, Range{s, e})
			at = e
		}
		return dst
	}
	if m.plain != nil {
		return m.plainFindAll(h, at, dst)
	}
	if m.exact != nil {
		return m.exactFindAll(h, at, dst)
	}
	if m.pre != nil && at < len(h) {
		// Every match holds one of the required literals: without one
		// in sight there is nothing for RE2 to scan (-U over a tree).
		if _, ok := m.pre.find(h, at); !ok {
			return dst
		}
	}
	if m.re2IterExact(h, at) {
		if re := m.re2For(h[at:]); re != nil {
			for _, loc := range re.FindAllIndex(h[at:], -1) {
				dst = append(dst, Range{at + loc[0], at + loc[1]})
			}
			return dst
		}
	}
	m.eachMatch(h, at, nil, func(s, e int) { dst = append(dst, Range{s, e}) })
	return dst
}

// eachMatch calls fn for every match in h from at with Rust's iteration
// rule (rg's find_iter): after an empty match the search resumes one byte
// later, and an empty match where the previous match ended is skipped.
// caps, when not nil, holds the match's capture offsets during fn.
func (m *Matcher) eachMatch(h []byte, at int, caps []int, fn func(s, e int)) {
	lastEnd, lastMatch := at, -1
	for lastEnd <= len(h) {
		for i := range caps {
			caps[i] = -1
		}
		s, e, ok := m.findAt(h, lastEnd, caps)
		if !ok {
			return
		}
		if caps != nil {
			caps[0], caps[1] = s, e
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
		fn(s, e)
	}
}

// Replace appends line (without terminator) to dst with every occurrence
// replaced by the expanded template ($1, ${1}, $name, ${name}, $$), as rg
// 13's -r does. It also appends to ranges the positions in the returned
// slice of each inserted replacement (for coloring).
func (m *Matcher) Replace(dst, line, template []byte, ranges []Range) ([]byte, []Range) {
	if m.fast != nil && !hasLoneCR(line, 0, len(line)) {
		return m.fast.Replace(dst, line, template, ranges)
	}
	h := m.trimCR(line)
	if m.ctxAnchors {
		// The printer hands the line with a final CRLF cut off already:
		// a \r left at its end is a lone one, part of the line.
		h = line
	}
	if m.none {
		return append(dst, h...), ranges
	}
	caps := make([]int, 2*(m.ncap+1))
	copied := 0
	m.eachMatch(h, 0, caps, func(s, e int) {
		dst = append(dst, h[copied:s]...)
		rs := len(dst)
		dst = m.interpolate(dst, template, h, caps)
		ranges = append(ranges, Range{rs, len(dst)})
		copied = e
	})
	return append(dst, h[copied:]...), ranges
}

func isCapLetter(b byte) bool {
	return b == '_' || ('0' <= b && b <= '9') || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z')
}

// interpolate expands a replacement template with grep-matcher's rules.
func (m *Matcher) interpolate(dst, tmpl, h []byte, caps []int) []byte {
	return ExpandTemplate(dst, tmpl, func(name string) (int, bool) {
		i, ok := m.names[name]
		return i, ok
	}, func(dst []byte, i int) []byte {
		if i >= 0 && 2*i+1 < len(caps) && caps[2*i] >= 0 {
			dst = append(dst, h[caps[2*i]:caps[2*i+1]]...)
		}
		return dst
	})
}

// ExpandTemplate appends the replacement template tmpl to dst with
// grep-matcher's rules: "$$" is a '$', "$N", "$name", "${N}" and
// "${name}" are a group's text (nothing for an unknown group), any other
// '$' stands for itself. names maps a group name to its index; group
// appends group i's text to dst. Every engine's -r shares it.
func ExpandTemplate(dst, tmpl []byte, names func(string) (int, bool), group func(dst []byte, i int) []byte) []byte {
	for len(tmpl) > 0 {
		i := bytes.IndexByte(tmpl, '$')
		if i < 0 {
			break
		}
		dst = append(dst, tmpl[:i]...)
		tmpl = tmpl[i:]
		if len(tmpl) > 1 && tmpl[1] == '$' {
			dst = append(dst, '$')
			tmpl = tmpl[2:]
			continue
		}
		name, rest, ok := capRef(tmpl)
		if !ok {
			dst = append(dst, '$')
			tmpl = tmpl[1:]
			continue
		}
		tmpl = rest
		if n, isNum := parseCapNumber(name); isNum {
			dst = group(dst, n)
		} else if idx, found := names(name); found {
			dst = group(dst, idx)
		}
	}
	return append(dst, tmpl...)
}

// capRef parses "$name" or "${name}" at the start of t.
func capRef(t []byte) (string, []byte, bool) {
	if len(t) <= 1 || t[0] != '$' {
		return "", nil, false
	}
	i := 1
	brace := false
	if t[i] == '{' {
		brace = true
		i++
	}
	end := i
	for end < len(t) && isCapLetter(t[end]) {
		end++
	}
	if end == i {
		return "", nil, false
	}
	name := string(t[i:end])
	if brace {
		if end >= len(t) || t[end] != '}' {
			return "", nil, false
		}
		end++
	}
	return name, t[end:], true
}

// parseCapNumber parses a group number like Rust's u32 parse.
func parseCapNumber(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
		if n > 1<<32 {
			return 0, false
		}
	}
	return n, true
}
