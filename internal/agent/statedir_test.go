package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evgrep/evgrep/snapshot"
)

// TestRefusedStateFolder: a state folder other users can write (or that
// another user owns, or is a link) is refused: the search still answers in
// full, only without a cursor, and says why; a cursor made while it was
// good is unavailable.
func TestRefusedStateFolder(t *testing.T) {
	files, total := manyMatches(12)
	root := tree(t, files)
	state := filepath.Join(t.TempDir(), "state")
	req := `{"pattern":"needle","mode":"matches","limit":5}`
	good := ask(t, Env{Store: snapshot.NewStore(state), Cwd: root}, req)
	if good.Details.Cursor == "" {
		t.Fatalf("no cursor from a good folder: %s", good.Text)
	}
	if err := os.Chmod(state, 0o777); err != nil {
		t.Fatal(err)
	}
	env := Env{Store: snapshot.NewStore(state), Cwd: root}
	a := ask(t, env, req)
	if a.Details.Totals.Lines != total || len(a.Details.Matches) != 5 {
		t.Fatalf("search did not answer in full: %d lines, %d shown", a.Details.Totals.Lines, len(a.Details.Matches))
	}
	if a.Details.Cursor != "" || !strings.Contains(strings.Join(a.Details.Problems, "\n"), string(snapshot.CodeUnavailable)) {
		t.Fatalf("cursor %q from a world-writable folder; problems %q", a.Details.Cursor, a.Details.Problems)
	}
	c := HandleJSON(context.Background(), []byte(fmt.Sprintf(`{"cursor":%q}`, good.Details.Cursor)), env)
	if c.Details.Error == nil || c.Details.Error.Code != string(snapshot.CodeUnavailable) {
		t.Fatalf("old cursor in a refused folder: %s", c.Text)
	}
}

// TestStateDirWithoutHome: without HOME the state folder is this user's
// own folder in the temporary directory, not one shared by all users.
func TestStateDirWithoutHome(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv(snapshot.StateDirEnv, "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	t.Setenv("TMPDIR", tmp)
	if got, want := StateDir(), filepath.Join(tmp, fmt.Sprintf("evgrep-%d", os.Geteuid())); got != want {
		t.Fatalf("StateDir %q, want %q", got, want)
	}
}
