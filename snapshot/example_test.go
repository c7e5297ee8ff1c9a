package snapshot_test

import (
	"fmt"
	"os"

	"github.com/evgrep/evgrep/revisions"
	"github.com/evgrep/evgrep/snapshot"
)

// An agent call: search, store the snapshot, answer the first page with a
// cursor; the next call (another process) resolves the cursor and pages on.
func ExampleStore() {
	dir, _ := os.MkdirTemp("", "state")
	defer os.RemoveAll(dir)

	// The pipeline feeds a Builder from its workers.
	b := snapshot.NewBuilder()
	for i := 1; i <= 5; i++ {
		b.AddLine("main.go", i*10, []byte("err := run()"), []snapshot.Range{{Start: 0, End: 3, StartUTF16: 0, EndUTF16: 3}})
	}
	b.AddFile("main.go", revisions.Revision{})
	opts := map[string]string{"pattern": "err", "literal": "false"}
	snap := b.Build(snapshot.Meta{Root: "/src", Options: opts})

	st := snapshot.NewStore(dir) // snapshot.DefaultStateDir() in evgrep
	lines, next, done := snap.MatchesPage(snapshot.PathSelection{}, 0, 2, snapshot.MaxResponseBytes, nil)
	fmt.Println(len(lines), "lines, done:", done)
	token, err := st.NewCursor(snap, snapshot.KindMatches, next, snapshot.PathSelection{})
	if err != nil {
		fmt.Println(snapshot.CodeOf(err)) // E_CURSOR_UNAVAILABLE: answer without a cursor
		return
	}

	// The next process.
	st2 := snapshot.NewStore(dir)
	snap2, cur, err := st2.Resolve(token, "/src", snapshot.KindMatches, snapshot.Fingerprint(opts))
	if err != nil {
		fmt.Println(snapshot.CodeOf(err))
		return
	}
	lines, _, done = snap2.MatchesPage(cur.Selection, cur.Offset, 2, snapshot.MaxResponseBytes, nil)
	fmt.Printf("match #%d at line %d, done: %v\n", lines[0].Match, lines[0].Number, done)

	_, _, err = st2.Resolve(token, "/elsewhere", snapshot.KindMatches, "")
	fmt.Println(snapshot.CodeOf(err))
	// Output:
	// 2 lines, done: false
	// match #3 at line 30, done: false
	// E_CURSOR_OPTIONS_CONFLICT
}
