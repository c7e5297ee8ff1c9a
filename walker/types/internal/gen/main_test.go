package main

import (
	"os"
	"strings"
	"testing"
)

// TestCheckedInTable regenerates the table from the recorded list and
// compares it with the checked-in default_types.go, so that neither can
// change without the other.
func TestCheckedInTable(t *testing.T) {
	data, err := os.ReadFile("../../testdata/type-list-rg15.2.txt")
	if err != nil {
		t.Fatal(err)
	}
	defs, err := parse(data)
	if err != nil {
		t.Fatal(err)
	}
	got, err := render(defs, "15.2.0")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("../../default_types.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("default_types.go is not what internal/gen makes of testdata/type-list-rg15.2.txt; run go generate in walker/types")
	}
	if len(defs) != 224 {
		t.Errorf("%d types, want ripgrep 15.2's 224", len(defs))
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ in, err string }{
		{"", "no types"},
		{"rust *.rs\n", "line 1: not"},
		{"rust: *.rs\nrust: *.rs\n", "line 2: type \"rust\" repeated"},
		{"rust: *.rs, \n", "line 1: empty glob"},
		{"rust: \n", "line 1: empty glob"},
		{"a b: *.x\n", "line 1: not"},
		{": *.x\n", "line 1: not"},
	}
	for _, tc := range tests {
		_, err := parse([]byte(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("parse(%q) = %v, want an error with %q", tc.in, err, tc.err)
		}
	}
	defs, err := parse([]byte("a: *.x, y\nb: *.{c,d}\n"))
	if err != nil || len(defs) != 2 || strings.Join(defs[0].globs, "|") != "*.x|y" || defs[1].globs[0] != "*.{c,d}" {
		t.Errorf("parse = %+v, %v", defs, err)
	}
}
