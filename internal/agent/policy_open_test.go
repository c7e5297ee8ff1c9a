package agent

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/evgrep/evgrep/internal/pipeline"
	"github.com/evgrep/evgrep/snapshot"
)

// TestOpenChecked: what openChecked and openCheckedFile (the pipeline's
// bare descriptor) refuse, and why.
func TestOpenChecked(t *testing.T) {
	home := tree(t, map[string]string{".aws/credentials": "secret\n"})
	t.Setenv("HOME", home)
	root := tree(t, map[string]string{"plain.txt": "x\n"})
	symlink(t, filepath.Join(root, "plain.txt"), filepath.Join(root, "link.txt"))
	symlink(t, filepath.Join(home, ".aws"), filepath.Join(root, "cfg"))
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, tc := range []struct {
		name string
		want error // nil: opens
	}{
		{"plain.txt", nil},
		{"link.txt", pipeline.ErrLinkNotFollowed},
		{"cfg/credentials", errPathForbidden},
		{"pipe", pipeline.ErrNotRegular},
		{".", pipeline.ErrNotRegular},
	} {
		for _, op := range []struct {
			name string
			open func(string) (io.Closer, error)
		}{
			{"openChecked", func(p string) (io.Closer, error) { return openChecked(p) }},
			{"openCheckedFile", func(p string) (io.Closer, error) { f, _, err := openCheckedFile(p); return f, err }},
		} {
			done := make(chan error, 1)
			go func() {
				f, err := op.open(filepath.Join(root, tc.name))
				if err == nil {
					f.Close()
				}
				done <- err
			}()
			select {
			case err := <-done:
				if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
					t.Errorf("%s(%s) = %v, want %v", op.name, tc.name, err, tc.want)
				}
			case <-time.After(10 * time.Second):
				releaseFIFO(filepath.Join(root, tc.name))
				t.Fatalf("%s(%s) hangs", op.name, tc.name)
			}
		}
	}
}

// TestBoundLastGuard: whatever a renderer composed, bound cuts the text at
// a line end within the 16 KiB bound and says so, and shortens what the
// details echo without touching the slices it was given.
func TestBoundLastGuard(t *testing.T) {
	long := strings.Repeat("p", 5000)
	paths := []string{long, "short"}
	for _, text := range []string{
		strings.Repeat("a line of the answer\n", 2000),
		strings.Repeat("é", 20000), // one line, no line end to cut at
		"fits\n",
	} {
		a := &Answer{Text: text, Details: Details{Status: "complete", Pattern: long, Paths: paths, Error: &ErrorJSON{Message: long + long}}}
		bound(a)
		if len(a.Text) > snapshot.MaxResponseBytes || !utf8.ValidString(a.Text) {
			t.Errorf("text of %d bytes (valid UTF-8: %v)", len(a.Text), utf8.ValidString(a.Text))
		}
		cut := len(text) > snapshot.MaxResponseBytes
		if cut != strings.Contains(a.Text, "16 KiB bound") || cut != (a.Details.Status == "partial") {
			t.Errorf("cut %v, but text ends %q and status is %s", cut, a.Text[max(0, len(a.Text)-80):], a.Details.Status)
		}
		if !cut && a.Text != text {
			t.Errorf("a text within the bound was changed")
		}
		if len(a.Details.Pattern) > maxEchoBytes || len(a.Details.Paths[0]) > maxEchoBytes || a.Details.Paths[1] != "short" || len(a.Details.Error.Message) > maxErrorBytes {
			t.Errorf("details echo %d, %d, %d bytes", len(a.Details.Pattern), len(a.Details.Paths[0]), len(a.Details.Error.Message))
		}
		if paths[0] != long {
			t.Errorf("bound changed the caller's slice")
		}
	}
}
