package snapshot

import (
	"fmt"
	"testing"
	"time"
)

// TestCursorKeepsPageShape: a cursor keeps the limit and context of the page
// that made it, in memory and across processes; a shape out of bounds is
// refused when the cursor is made.
func TestCursorKeepsPageShape(t *testing.T) {
	for name := range map[string]bool{"memory": true, "disk": true} {
		t.Run(name, func(t *testing.T) {
			ss, clk := stores(t)
			st := ss[name]
			snap := mustSnapshot(t, "shape", 6)
			sel := SelectPaths(snap.Files()[0].Path)
			tok, err := st.NewPageCursor(snap, Page{Kind: KindMatches, Offset: 1, Selection: sel, Limit: 7, Context: 2})
			if err != nil {
				t.Fatal(err)
			}
			reader := st
			if st.dir != "" {
				reader = storeWithClock(st.dir, clk)
			}
			_, c, err := reader.Resolve(tok, snap.Meta.Root, KindMatches, "")
			if err != nil {
				t.Fatal(err)
			}
			if c.Limit != 7 || c.Context != 2 || c.Offset != 1 || !c.Selection.Equal(sel) {
				t.Fatalf("cursor lost its page shape: %+v", c)
			}
			for _, p := range []Page{
				{Kind: KindMatches, Limit: MaxPageLines + 1},
				{Kind: KindMatches, Limit: -1},
				{Kind: KindSummary, Context: MaxContextLines + 1},
				{Kind: KindSummary, Context: -3},
			} {
				_, err := st.NewPageCursor(snap, p)
				wantCode(t, fmt.Sprintf("shape %+v", p), err, CodeOffsetInvalid)
			}
		})
	}
}

// TestAuxSnapshotsNeverEvictSearches: snapshots without match lines (inspect
// continuations) beyond any number never evict one of MaxSnapshots searches
// within their idle expiry; they are evicted among themselves.
func TestAuxSnapshotsNeverEvictSearches(t *testing.T) {
	for name := range map[string]bool{"memory": true, "disk": true} {
		t.Run(name, func(t *testing.T) {
			ss, clk := stores(t)
			st := ss[name]
			reopen := func() *Store {
				if st.dir == "" {
					return st
				}
				return storeWithClock(st.dir, clk)
			}
			var toks []string
			bound := slotsOf(st)
			for i := range bound {
				clk.t = clk.t.Add(time.Second)
				tok, err := st.NewCursor(mustSnapshot(t, fmt.Sprintf("live%d", i), 2), KindSummary, 0, PathSelection{})
				if err != nil {
					t.Fatal(err)
				}
				toks = append(toks, tok)
			}
			var aux []string
			for i := range MaxAuxSnapshots + 10 {
				clk.t = clk.t.Add(time.Second)
				empty := NewBuilder().Build(Meta{Root: "/src", Options: map[string]string{"kind": "source", "n": fmt.Sprint(i)}, Created: clk.t})
				tok, err := st.NewCursor(empty, KindMatches, 0, PathSelection{})
				if err != nil {
					t.Fatal(err)
				}
				aux = append(aux, tok)
			}
			for i, tok := range toks {
				if _, _, err := reopen().Resolve(tok, "", KindSummary, ""); err != nil {
					t.Fatalf("search %d evicted by continuations: %v", i, err)
				}
			}
			for i, tok := range aux {
				_, _, err := reopen().Resolve(tok, "", KindMatches, "")
				if i < 10 {
					wantCode(t, fmt.Sprintf("old continuation %d", i), err, CodeExpired)
				} else if err != nil {
					t.Fatalf("continuation %d: %v", i, err)
				}
			}
			if st.dir != "" {
				live, tombs := countDirs(t, st.dir)
				if live != bound+MaxAuxSnapshots || tombs != 10 {
					t.Errorf("%d live, %d tombstones in the folder", live, tombs)
				}
				// The mark's count of tombstones, which bounds the evictions
				// it makes without a scan, is the folder's.
				if m, ok := st.readEvictMark(); !ok || m.tombs() != tombs {
					t.Errorf("the eviction mark counts %d tombstones (ok %v), the folder holds %d", m.tombs(), ok, tombs)
				}
			}
		})
	}
}
