package matcher

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/internal/testref"
)

// A randomized comparison with rg (Unicode \b and \B are left to the
// table tests: rg 13 mixes its DFA's and NFA's answers for them next to
// non-ASCII text, see the package's known differences): patterns from a small grammar that
// exercises the dialect's corners, inputs with ASCII, non-ASCII and invalid
// UTF-8, and random option sets. The seed is fixed so failures reproduce.

var randAtoms = []string{
	"a", "b", "A", "é", "É", "π", "_", " ", "-", "0", "7", ".", `\w`, `\W`, `\d`, `\s`, `\S`,
	"^", "$", "[ab]", "[^a]", "[a-cé]", `[[:alpha:]]`, `\pL`, `\p{Greek}`, `(?-u:\w)`,
	`\x61`, `[a-z&&[^b]]`, "ß", "k", "s",
}

func randPattern(r *rand.Rand, depth int) string {
	if depth > 2 || r.Intn(3) == 0 {
		return randAtoms[r.Intn(len(randAtoms))]
	}
	switch r.Intn(9) {
	case 0, 1, 2:
		n := 2 + r.Intn(3)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = randPattern(r, depth+1)
		}
		return strings.Join(parts, "")
	case 3:
		return randPattern(r, depth+1) + "|" + randPattern(r, depth+1)
	case 4:
		return "(" + nonEmpty(r, depth+1) + ")" + []string{"*", "+", "?", "*?", "+?", "{1,2}", "{2}"}[r.Intn(7)]
	case 5:
		return "(?:" + nonEmpty(r, depth+1) + ")" + []string{"*", "+", "?", ""}[r.Intn(4)]
	case 6:
		return "(?i)" + randPattern(r, depth+1)
	case 7:
		return "(?i:" + randPattern(r, depth+1) + ")"
	default:
		return "(?:" + nonEmpty(r, depth+1) + ")" + []string{"*", "+", "?"}[r.Intn(3)]
	}
}

// nonEmpty generates a pattern that cannot match the empty string and has
// no repetition inside: rg 13's DFA and NFA disagree on repetitions of
// empty-matching or nested repetitions (see the package's known
// differences), so those are left out here.
func nonEmpty(r *rand.Rand, depth int) string {
	for {
		p := randPattern(r, depth)
		tree, err := parsePattern(p)
		if err != nil {
			return p
		}
		h, err := translate(tree, flags{m: true, u: true})
		if err != nil || (!canMatchEmpty(h) && !strings.ContainsAny(p, "*+?{")) {
			return p
		}
	}
}

var randPieces = []string{"a", "b", "ab", "A", "B", "é", "É", "π", "ß", "ẞ", "K", "\u212a", "ſ", "_", " ", "  ",
	"-", "0", "42", ".", "aé", "\xff", "\xc3", "\t", "x", "foo", "bar"}

func randInput(r *rand.Rand, crlf bool) string {
	var b strings.Builder
	lines := 1 + r.Intn(6)
	for i := 0; i < lines; i++ {
		n := r.Intn(8)
		for j := 0; j < n; j++ {
			b.WriteString(randPieces[r.Intn(len(randPieces))])
		}
		if crlf && r.Intn(2) == 0 {
			b.WriteByte('\r')
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func TestRandomAgainstRG(t *testing.T) {
	g := testref.Open(t)
	n := 200
	if testing.Short() {
		n = 60
	}
	r := rand.New(rand.NewSource(13))
	for i := 0; i < n; i++ {
		o := Options{LineTerminator: '\n'}
		np := 1 + r.Intn(2)
		for j := 0; j < np; j++ {
			o.Patterns = append(o.Patterns, randPattern(r, 0))
		}
		switch r.Intn(6) {
		case 0:
			o.Case = Insensitive
		case 1:
			o.Case = Smart
		}
		o.Word = r.Intn(4) == 0
		o.Line = !o.Word && r.Intn(6) == 0
		o.CRLF = r.Intn(6) == 0
		// rg's printer re-finds -U occurrences per matched range, which
		// changes rg 13's -w fast path; FindAll is a plain scan.
		o.Multiline = !o.Word && r.Intn(8) == 0
		input := randInput(r, o.CRLF)
		compareWithRG(t, g, o, input)
		if t.Failed() && !testref.Updating() { // recording goes on: every case gets its answer
			break
		}
	}
}
