package pcre2

import (
	"strings"
	"testing"

	"github.com/evgrep/evgrep/matcher"
)

// TestHeapLimit: a match that needs a backtracking frame per byte of a
// 4 MiB line stops at heapLimitKiB with PCRE2's heap-limit error instead
// of growing (PCRE2's own default allows 20 GB). The line ends in a digit,
// so that the prefilter (which needs one) hands it to PCRE2.
func TestHeapLimit(t *testing.T) {
	m := compile(t, matcher.Options{Patterns: []string{`(?:(a)|b)*\d`}})
	line := []byte(strings.Repeat("a", 4<<20) + "1")
	var got any
	func() {
		defer func() { got = recover() }()
		m.IsMatch(line)
	}()
	if e, ok := got.(*MatchError); !ok || e.Error() != "PCRE2: error matching: heap limit exceeded" {
		t.Fatalf("recovered %v", got)
	}
}
