package snapshot

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// Kind is what a cursor pages through.
type Kind string

// The cursor kinds.
const (
	// KindSummary pages through the count-ranked files.
	KindSummary Kind = "summary"
	// KindMatches pages through the match lines of a path selection.
	KindMatches Kind = "matches"
	// KindSource continues a range of source lines (inspect); the range
	// is in the snapshot's options and the cursor's offset is 0.
	KindSource Kind = "source"
	// KindOutline continues an outline of files; the file list and the
	// position are in the snapshot's options and the cursor's offset is 0.
	KindOutline Kind = "outline"
	// KindItems pages through the items of an analysis (see Item).
	KindItems Kind = "items"
)

// Valid reports whether k is one of the cursor kinds.
func (k Kind) Valid() bool {
	return k == KindSummary || k == KindMatches || k == KindSource || k == KindOutline || k == KindItems
}

// continuation reports whether k is a kind whose position lives in its
// snapshot's options (its offset is always 0).
func (k Kind) continuation() bool { return k == KindSource || k == KindOutline }

// Cursor is what a cursor token stands for: where the next page of a stored
// snapshot starts.
type Cursor struct {
	// Token is the opaque token given to the agent: 128 random bits as
	// 32 lowercase hex digits.
	Token string
	// Snapshot is the ID of the snapshot it pages.
	Snapshot string
	Kind     Kind
	// Offset is the position of the next page: a file index of the
	// ranked list (summary) or a line index within the selection
	// (matches).
	Offset int
	// Selection is the path selection a matches cursor is bound to
	// (empty for summary cursors).
	Selection PathSelection
	// Limit and Context shape the pages the cursor continues: match lines
	// per page (1..MaxPageLines) and lines of context around each
	// (0..MaxContextLines). Limit 0 means the caller's default.
	Limit, Context int
	// Fingerprint and Root are those of the snapshot's search.
	Fingerprint string
	Root        string
	Created     time.Time
}

// Page is where a new cursor starts and how the pages it continues are
// shaped (see Store.NewPageCursor).
type Page struct {
	Kind Kind
	// Offset is a file index of the ranked list (KindSummary) or a line
	// index within Selection (KindMatches).
	Offset int
	// Selection binds a matches cursor to some files; it is ignored for
	// summary cursors.
	Selection PathSelection
	// Limit (0, or 1..MaxPageLines) and Context (0..MaxContextLines) are
	// kept with the cursor so that following it keeps the page shape.
	Limit, Context int
}

// validShape reports whether limit and context are within their bounds.
func validShape(limit, context int) bool {
	return limit >= 0 && limit <= MaxPageLines && context >= 0 && context <= MaxContextLines
}

// tokenLen is the length of a token or snapshot ID: 128 bits in hex.
const tokenLen = 32

// newToken returns 128 random bits as 32 lowercase hex digits.
func newToken() string {
	var b [tokenLen / 2]byte
	rand.Read(b[:]) // never fails (crypto/rand since Go 1.24)
	return hex.EncodeToString(b[:])
}

// validToken reports whether s has the form of a token: 32 lowercase hex
// digits.
func validToken(s string) bool {
	if len(s) != tokenLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
