package matcher

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestASCIIVariant: on ASCII text, the RE2 program with every class cut to
// its ASCII members finds exactly what the Unicode program finds (and
// IsMatch agrees line by line).
func TestASCIIVariant(t *testing.T) {
	pats := []string{
		`\w{5}\s+\w{5}`, `(?i)kelvin\s+\d+`, `\bfoo\b`, `[^a-z\n]+x`, `\W+`, `\p{Greek}|abc`,
		`(?i)straße|ss`, `\S+@\S+`, `[[:alpha:]]+\d`, `.+x`, `\D\s\w`, `(?i)[k-s]+`, `\w+\s+Reader\s+\w+`,
		`\B\w\B`, `é|e`, `(?s).{3}z`, `\w*`, `(?i)K\w`,
	}
	rng := rand.New(rand.NewPCG(11, 12))
	alphabet := []byte("abcxyzKSksfoRerd_0129 \t\n@.,-ZAE")
	for _, p := range pats {
		m, err := Compile(Options{Patterns: []string{p}, LineTerminator: '\n'})
		if err != nil {
			t.Fatal(err)
		}
		if m.reASCII == nil {
			continue // no Unicode class, or not run by RE2
		}
		full := m.reLazy()
		if full == nil {
			t.Fatalf("%q: the full program did not compile", p)
		}
		for trial := 0; trial < 300; trial++ {
			chunk := make([]byte, rng.IntN(200))
			for i := range chunk {
				chunk[i] = alphabet[rng.IntN(len(alphabet))]
			}
			want := full.FindIndex(chunk)
			if got := m.reASCII.FindIndex(chunk); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q on %q: ASCII variant %v, Unicode %v", p, chunk, got, want)
			}
		}
	}
	for _, p := range []string{`\w{5}\s+\w{5}`, `\p{Greek}|abc`} {
		m, err := Compile(Options{Patterns: []string{p}, LineTerminator: '\n'})
		if err != nil || m.reASCII == nil {
			t.Fatalf("%q: no ASCII variant (%v)", p, err)
		}
	}
}
