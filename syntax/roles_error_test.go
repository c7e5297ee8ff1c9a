//go:build cgo

package syntax

import "testing"

// TestOccurrencesSyntaxError: an occurrence inside a syntax error is kept
// as unclassified; one in a well-formed part of the file is classified.
func TestOccurrencesSyntaxError(t *testing.T) {
	src := []byte("package p\n\nfunc Widget() {}\n\nfunc broken( { Widget( }\n")
	occs, err := Occurrences(Go, src, "Widget")
	if err != nil {
		t.Fatal(err)
	}
	if len(occs) != 2 {
		t.Fatalf("%d occurrences, want 2", len(occs))
	}
	if occs[0].Role != RoleDefinition {
		t.Errorf("line 3: %s (%s), want definition", occs[0].Role, occs[0].Detail)
	}
	if occs[1].Role != RoleUnclassified {
		t.Errorf("line 5: %s (%s), want unclassified", occs[1].Role, occs[1].Detail)
	}
}

// TestOccurrencesNoRoleRules: a language with a parser but no role rules
// keeps its occurrences, unclassified, and says why.
func TestOccurrencesNoRoleRules(t *testing.T) {
	if !Supported(Language("php")) {
		t.Skip("no PHP grammar")
	}
	occs, err := Occurrences(Language("php"), []byte("<?php\nfunction Widget() {}\n"), "Widget")
	if err != ErrNoRoleRules || len(occs) != 1 || occs[0].Role != RoleUnclassified || occs[0].Detail != ErrNoRoleRules.Error() {
		t.Fatalf("err %v, occurrences %+v", err, occs)
	}
}
