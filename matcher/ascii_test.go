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
		m.loadRE2()
		if m.reASCII == nil {
			continue // no Unicode class, or not run by RE2
		}
		<-m.reReady
		full := m.reFull.Load()
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
		if err == nil {
			m.loadRE2()
		}
		if err != nil || m.reASCII == nil {
			t.Fatalf("%q: no ASCII variant (%v)", p, err)
		}
	}
}

// TestBeforeFullProgram: while the full Unicode program is still compiling
// (or if it failed), non-ASCII text goes to the VM; the answers must be
// the same as with the program.
func TestBeforeFullProgram(t *testing.T) {
	pats := []string{`\w{3}\s+\w+`, `\wAh`, `(?i)straße\s\d`, `\bé\w*`, `[^\s]+x`, `\p{Greek}+|ab`}
	words := []string{"héllo", "wörld", "straße", "STRASSE ٣", "Ahh", "éAh", "αβγ", "ab", "x", "xx", "3", " ", "\n", "\t", "Kelvin", "\u212a"}
	rng := rand.New(rand.NewPCG(21, 22))
	for _, p := range pats {
		o := Options{Patterns: []string{p}, LineTerminator: '\n'}
		with, err := Compile(o)
		if err != nil {
			t.Fatal(err)
		}
		without, err := Compile(o)
		if err != nil {
			t.Fatal(err)
		}
		with.loadRE2()
		without.loadRE2()
		if with.reReady == nil {
			t.Fatalf("%q: no background program", p)
		}
		<-with.reReady
		<-without.reReady
		if with.reFull.Load() == nil {
			t.Fatalf("%q: the full program did not compile", p)
		}
		without.reFull.Store(nil) // as if still compiling
		for trial := 0; trial < 100; trial++ {
			var buf []byte
			for n := rng.IntN(60); n > 0; n-- {
				buf = append(buf, words[rng.IntN(len(words))]...)
				buf = append(buf, ' ')
			}
			if a, b := with.FindAll(buf, nil), without.FindAll(buf, nil); !reflect.DeepEqual(a, b) {
				t.Fatalf("%q FindAll on %q: %v with the program, %v without", p, buf, a, b)
			}
			for from := 0; from < len(buf); {
				s1, e1, ok1 := with.NextLine(buf, from)
				s2, e2, ok2 := without.NextLine(buf, from)
				if s1 != s2 || e1 != e2 || ok1 != ok2 {
					t.Fatalf("%q NextLine(%q, %d): (%d,%d,%v) vs (%d,%d,%v)", p, buf, from, s1, e1, ok1, s2, e2, ok2)
				}
				if !ok1 {
					break
				}
				from = e1
			}
		}
	}
}
