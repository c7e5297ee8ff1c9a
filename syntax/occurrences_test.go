package syntax

import (
	"errors"
	"reflect"
	"testing"
)

func TestFindWord(t *testing.T) {
	tests := []struct {
		src, name string
		want      []int
	}{
		{"Read ReadRune xReadRune ReadRune_ ReadRune", "ReadRune", []int{5, 34}},
		{"a.ReadRune()", "ReadRune", []int{2}},
		{"éReadRune ReadRuneé", "ReadRune", nil},
		{"", "x", nil},
		{"abc", "", nil},
		{"xxx", "xx", nil},
		{"@size size!", "size", []int{1, 6}},
		{"$x x$", "$x", []int{0}},
	}
	for _, tt := range tests {
		if got := FindWord([]byte(tt.src), tt.name); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("FindWord(%q, %q) = %v, want %v", tt.src, tt.name, got, tt.want)
		}
	}
}

// TestOccurrencesWithoutParser: a language without rules keeps every
// occurrence, unclassified, with the reason.
func TestOccurrencesWithoutParser(t *testing.T) {
	src := []byte("<?php\nfunction Widget() {}\n$w = Widget();\n")
	occs, err := Occurrences(Language("cobol"), src, "Widget")
	if !errors.Is(err, ErrNoParser) {
		t.Fatalf("err = %v, want ErrNoParser", err)
	}
	if len(occs) != 2 {
		t.Fatalf("%d occurrences, want 2", len(occs))
	}
	want := []Occurrence{
		{Start: 15, End: 21, Line: 2, Col: 10, Role: RoleUnclassified, Detail: "no parser"},
		{Start: 32, End: 38, Line: 3, Col: 6, Role: RoleUnclassified, Detail: "no parser"},
	}
	if !reflect.DeepEqual(occs, want) {
		t.Errorf("got %+v, want %+v", occs, want)
	}
}
