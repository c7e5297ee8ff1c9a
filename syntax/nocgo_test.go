//go:build !cgo

package syntax

import (
	"errors"
	"testing"
)

// TestNoParserWithoutCgo: a build without cgo answers ErrNoParser for every
// language, and does not fail otherwise.
func TestNoParserWithoutCgo(t *testing.T) {
	for _, l := range Languages() {
		if Supported(l) {
			t.Errorf("%s supported without cgo", l)
		}
		if _, err := Enclosing(l, []byte("x\n"), 1); !errors.Is(err, ErrNoParser) {
			t.Errorf("Enclosing(%s): %v, want ErrNoParser", l, err)
		}
		if _, err := Outline(l, []byte("x\n")); !errors.Is(err, ErrNoParser) {
			t.Errorf("Outline(%s): %v, want ErrNoParser", l, err)
		}
		if _, err := HasErrors(l, nil); !errors.Is(err, ErrNoParser) {
			t.Errorf("HasErrors(%s): %v, want ErrNoParser", l, err)
		}
	}
	if ErrNoParser.Error() != "no parser" {
		t.Errorf("ErrNoParser says %q", ErrNoParser.Error())
	}
}
