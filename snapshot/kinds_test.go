package snapshot

import (
	"errors"
	"testing"
	"time"
)

// TestContinuationKinds: source and outline cursors hold offset 0 only,
// ignore selections, and are refused where another kind is asked for.
func TestContinuationKinds(t *testing.T) {
	s := NewMemoryStore()
	snap := NewBuilder().Build(Meta{Root: "/r", Created: time.Now(), Options: map[string]string{"kind": "source"}})
	for _, k := range []Kind{KindSource, KindOutline} {
		if _, err := s.NewCursor(snap, k, 1, PathSelection{}); !isCode(err, CodeOffsetInvalid) {
			t.Errorf("%s cursor at offset 1: %v", k, err)
		}
		tok, err := s.NewCursor(snap, k, 0, SelectPaths("a"))
		if err != nil {
			t.Fatalf("%s cursor: %v", k, err)
		}
		_, c, err := s.Resolve(tok, "", k, "")
		if err != nil || c.Kind != k || !c.Selection.All() {
			t.Fatalf("%s cursor resolves to %+v, %v", k, c, err)
		}
		if _, _, err := s.Resolve(tok, "", KindMatches, ""); !isCode(err, CodeWrongKind) {
			t.Errorf("%s cursor paged as matches: %v", k, err)
		}
	}
}

func isCode(err error, code Code) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}
