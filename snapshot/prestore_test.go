package snapshot

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPrestoreAsPut: a snapshot stored by Prestore is on disk by the time
// its cursor is handed out (another process's store resolves the cursor),
// and Flush finds nothing left to wait for.
func TestPrestoreAsPut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	st := NewStore(dir)
	snap := mustSnapshot(t, "pre", 12)
	st.Prestore(snap)
	if snap.ID == "" {
		t.Fatal("Prestore gave no ID")
	}
	tok, err := st.NewCursor(snap, KindSummary, 0, PathSelection{})
	if err != nil {
		t.Fatalf("NewCursor: %v", err)
	}
	if _, err := os.Stat(filepath.Join(st.snapDir(snap.ID), snapFileName)); err != nil {
		t.Fatalf("snapshot not on disk when its cursor was made: %v", err)
	}
	other := NewStore(dir)
	got, _, err := other.Resolve(tok, "", KindSummary, "")
	if err != nil {
		t.Fatalf("another store resolves: %v", err)
	}
	if got.ID != snap.ID || got.Totals != snap.Totals {
		t.Fatalf("resolved %s %+v, want %s %+v", got.ID, got.Totals, snap.ID, snap.Totals)
	}
	if err := st.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
}

// TestPrestoreFlush: Flush waits for a write no cursor asked for.
func TestPrestoreFlush(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	st := NewStore(dir)
	snap := mustSnapshot(t, "flush", 5)
	st.Prestore(snap)
	if err := st.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	if _, err := os.Stat(filepath.Join(st.snapDir(snap.ID), snapFileName)); err != nil {
		t.Fatalf("snapshot not on disk after Flush: %v", err)
	}
}

// TestPrestoreUnwritable: when the state folder cannot be written, the
// cursor of a prestored snapshot fails as after Put (CodeUnavailable),
// the snapshot stays usable in memory, and Flush reports the failure of a
// write no cursor waited for.
func TestPrestoreUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	st := NewStore(filepath.Join(file, "state"))
	snap := mustSnapshot(t, "uw", 3)
	st.Prestore(snap)
	_, err := st.NewCursor(snap, KindMatches, 0, PathSelection{})
	wantCode(t, "NewCursor", err, CodeUnavailable)
	if lines, _, _ := snap.MatchesPage(PathSelection{}, 0, 2, MaxResponseBytes, nil); len(lines) != 2 {
		t.Fatalf("page of %d lines", len(lines))
	}
	again := mustSnapshot(t, "uw2", 3)
	st.Prestore(again)
	wantCode(t, "Flush", st.Flush(), CodeUnavailable)
}

// TestPrestoreMemory: a memory-only store keeps the snapshot and writes
// nothing.
func TestPrestoreMemory(t *testing.T) {
	st := NewMemoryStore()
	snap := mustSnapshot(t, "mem", 4)
	st.Prestore(snap)
	if _, err := st.NewCursor(snap, KindSummary, 0, PathSelection{}); err != nil {
		t.Fatalf("NewCursor: %v", err)
	}
	if err := st.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
}
