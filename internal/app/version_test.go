package app

import (
	"strings"
	"testing"
)

func TestVersionText(t *testing.T) {
	if v := versionText("rg"); !strings.HasPrefix(v, "ripgrep 15.2.0 ") {
		t.Errorf("as rg: %q", v)
	}
	if v := versionText("evgrep"); !strings.HasPrefix(v, "evgrep ") {
		t.Errorf("as evgrep: %q", v)
	}
}
