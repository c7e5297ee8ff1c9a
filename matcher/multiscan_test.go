package matcher

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/matcher/internal/vscan"
)

// TestVectorScans: with the vectorised scans (Teddy, Trio) a matcher finds
// exactly the lines the byte scanners find, over long buffers (so the
// 32-position blocks, the scalar tail and every candidate path run) with
// literals planted at random places, in other cases and next to their
// Unicode case folds.
func TestVectorScans(t *testing.T) {
	if !vscan.Available() {
		t.Skip("no vectorised scan on this machine")
	}
	pats := []struct {
		pat string
		cs  CaseMode
	}{
		{"NewReader", Sensitive},
		{"NewReader", Insensitive},
		{"Reader", Insensitive},
		{"ab", Sensitive},
		{"a", Sensitive},
		{"Фицпатрик", Sensitive},
		{"Фицпатрик", Insensitive},
		{"kelvin|stress", Insensitive}, // K and ſ fold to non-ASCII
		{"NewReader|NewWriter|ReadAll|WriteString|ErrUnexpectedEOF", Sensitive},
		{"ErrUnexpectedEOF|ErrShortWrite|ErrClosedPipe|ErrNoProgress", Insensitive},
		{"al|be|ga|de|ep|ze|et|th|io", Sensitive},                         // more literals than buckets
		{"a1|b2|c3|d4|e5|f6|g7|h8|i9|j0|k1|l2|m3|n4|o5|p6|q7", Sensitive}, // over the limit
		{`\w+\s+Reader\s+\w+`, Sensitive},
		{`[A-Z][a-z]+Error`, Sensitive},
		{`foo[0-9]bar|baz\d`, Sensitive},
		{`(?i)ſtraße|STRASSE`, Sensitive},
	}
	words := []string{"NewReader", "newreader", "NEWREADER", "NewReplacer", "NewWriter", "ReadAll", "readall",
		"WriteString", "ErrUnexpectedEOF", "errunexpectedeof", "ErrShortWrite", "ErrClosedPipe", "ErrNoProgress",
		"Фицпатрик", "ФИЦПАТРИК", "фицпатрик", "kelvin", "\u212aelvin", "ſtress", "stre\u017fs", "ab", "a", "b",
		"al", "be", "th", "io", "q7", "p6", "foo1bar", "baz9", "baz٣", "ſtraße", "STRASSE", "Straße",
		"TimeoutError", "Error", "x", "the", "return", "err", "if", "N", "R", "e", "\t", "  ", "é", "\xff"}
	rng := rand.New(rand.NewPCG(7, 8))
	gen := func(n int) []byte {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(words[rng.IntN(len(words))])
			switch rng.IntN(6) {
			case 0:
				b.WriteByte('\n')
			case 1:
			default:
				b.WriteByte(' ')
			}
		}
		return []byte(b.String())
	}
	defer func(v bool) { vectorScans = v }(vectorScans)
	for _, p := range pats {
		o := Options{Patterns: []string{p.pat}, LineTerminator: '\n', Case: p.cs}
		vectorScans = true
		fast, err := Compile(o)
		if err != nil {
			t.Fatal(err)
		}
		vectorScans = false
		slow, err := Compile(o)
		if err != nil {
			t.Fatal(err)
		}
		for trial := 0; trial < 30; trial++ {
			buf := gen(100 + rng.IntN(6000))
			fs, ss := fast.NewLineScanner(), slow.NewLineScanner()
			for from := 0; from < len(buf); {
				s1, e1, ok1 := fs.NextLine(buf, from)
				s2, e2, ok2 := ss.NextLine(buf, from)
				if s1 != s2 || e1 != e2 || ok1 != ok2 {
					t.Fatalf("%q (case %v) from %d: vector (%d,%d,%v), bytes (%d,%d,%v)\nline: %q",
						p.pat, p.cs, from, s1, e1, ok1, s2, e2, ok2, buf[min(s1, s2):max(e1, e2)])
				}
				if !ok1 {
					break
				}
				from = e1
			}
		}
	}
}
