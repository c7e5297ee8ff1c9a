package rankindex

import "testing"

// TestVerifiedName: a name is kept only when each of its parts is a whole
// identifier of the source.
func TestVerifiedName(t *testing.T) {
	src := []byte("var a, bb = 1, 2\nfunc Real() {} // RealX\n")
	for _, tc := range []struct{ name, want string }{
		{"Real", "Real"}, {"a, bb", "a, bb"}, {"Rea", ""}, {"RealX", "RealX"}, {"a, b", ""}, {"Renamed", ""}, {"", ""},
	} {
		if got := VerifiedName(src, tc.name); got != tc.want {
			t.Errorf("VerifiedName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}
