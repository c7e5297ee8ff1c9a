package snapshot

import (
	"fmt"
	"testing"
	"time"
)

// slotsOf is how many searches st keeps: a state folder's bound, shared by
// every process, or one memory store's.
func slotsOf(st *Store) int {
	if st.Dir() != "" {
		return MaxDiskSnapshots
	}
	return MaxSnapshots
}

// TestConcurrentAgentsKeepCursors (finding 16 of the seam issue): agents
// in separate processes share one state folder; eight of them searching
// 30 times each, interleaved, keep every cursor (each call is a new
// process: a new Store over the same folder).
func TestConcurrentAgentsKeepCursors(t *testing.T) {
	dir := t.TempDir() + "/state"
	clk := &clock{t: time.Now()}
	type made struct {
		tok  string
		root string
	}
	var all []made
	for round := 0; round < 30; round++ {
		for agent := 0; agent < 8; agent++ {
			clk.t = clk.t.Add(time.Second)
			st := storeWithClock(dir, clk)
			snap := mustSnapshot(t, fmt.Sprintf("agent%d-round%d", agent, round), 3)
			tok, err := st.NewCursor(snap, KindSummary, 0, PathSelection{})
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, made{tok, snap.Meta.Root})
		}
	}
	for i, m := range all {
		if _, _, err := storeWithClock(dir, clk).Resolve(m.tok, m.root, KindSummary, ""); err != nil {
			t.Fatalf("cursor %d of %d (agent %d, round %d): %v", i, len(all), i%8, i/8, err)
		}
	}
}
