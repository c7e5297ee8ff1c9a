package agent

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpenChecked: what openChecked refuses, and why.
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
		{"link.txt", errLinkNotFollowed},
		{"cfg/credentials", errPathForbidden},
		{"pipe", errNotRegular},
		{".", errNotRegular},
	} {
		done := make(chan error, 1)
		go func() {
			f, err := openChecked(filepath.Join(root, tc.name))
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if (tc.want == nil) != (err == nil) || (tc.want != nil && !errors.Is(err, tc.want)) {
				t.Errorf("openChecked(%s) = %v, want %v", tc.name, err, tc.want)
			}
		case <-time.After(10 * time.Second):
			releaseFIFO(filepath.Join(root, tc.name))
			t.Fatalf("openChecked(%s) hangs", tc.name)
		}
	}
}
