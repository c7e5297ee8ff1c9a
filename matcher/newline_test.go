package matcher

import "testing"

func TestMatchesMayCross(t *testing.T) {
	cases := map[string]bool{
		`foo`: false, `fo[o]`: false, `a.b`: false, `\w+`: false,
		`a\nb`: true, `\s`: true, `[^a]`: true, `(?s).`: true, `\Afoo`: true, `foo\z`: true, `\p{Any}`: true,
	}
	for p, want := range cases {
		m, err := Compile(Options{Patterns: []string{p}, Multiline: true, LineTerminator: '\n'})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.MatchesMayCross(); got != want {
			t.Errorf("%q: MatchesMayCross = %v, want %v", p, got, want)
		}
	}
}
