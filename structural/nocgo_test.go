//go:build !cgo

package structural

import (
	"errors"
	"testing"
)

// TestNoCgo: without the grammars every language lookup says why.
func TestNoCgo(t *testing.T) {
	for _, name := range []string{"go", "python", "rust"} {
		if _, err := LookupLang(name); !errors.Is(err, ErrNoCgo) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := ParseRules([]byte("id: a\nlanguage: go\nrule:\n  kind: block\n")); err == nil {
		t.Error("a rule parsed without grammars")
	}
}
