package agent

import (
	"os"
	"path/filepath"
	"testing"
)

// TestResolutionsAsResolveExisting: the memoized resolution of the
// forbidden places gives what resolveExisting gives, for existing and
// missing paths, through folder links and dangling links.
func TestResolutionsAsResolveExisting(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(base, "real", ".ssh"), 0o700)
	os.Symlink(filepath.Join(base, "real"), filepath.Join(base, "home"))
	os.Symlink(filepath.Join(base, "nowhere"), filepath.Join(base, "real", ".aws"))
	os.MkdirAll(filepath.Join(base, "other", "x"), 0o755)
	os.Symlink(filepath.Join(base, "other"), filepath.Join(base, "real", ".config"))
	rs := resolutions{}
	for _, p := range []string{
		base, filepath.Join(base, "home"), filepath.Join(base, "home", ".ssh"), filepath.Join(base, "home", ".ssh", "id_rsa"),
		filepath.Join(base, "home", ".aws", "credentials"), filepath.Join(base, "home", ".config", "x", "y"),
		filepath.Join(base, "home", ".config", "gh", "hosts.yml"), filepath.Join(base, "missing", "a", "b"), "/", "/nonexistent/.ssh",
	} {
		if got, want := rs.resolve(p), resolveExisting(p); got != want {
			t.Errorf("%s: %s, resolveExisting says %s", p, got, want)
		}
	}
}

// TestAddHomeAsLookups: a home folder listed once (addHome) adds, for
// every credential store, the path and the resolution that looking it up
// alone gives, and nothing else, for stores that are there, missing,
// linked and nested, and for a home named through a link or missing.
func TestAddHomeAsLookups(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	real := filepath.Join(base, "real")
	os.MkdirAll(filepath.Join(real, ".ssh"), 0o700)
	os.MkdirAll(filepath.Join(real, ".config", "gh"), 0o700)
	os.MkdirAll(filepath.Join(base, "dots", "gcloud"), 0o700)
	os.Symlink(filepath.Join(base, "dots"), filepath.Join(real, ".local"))
	os.Symlink(filepath.Join(base, "nowhere"), filepath.Join(real, ".aws"))
	os.WriteFile(filepath.Join(real, ".netrc"), nil, 0o600)
	os.Symlink(real, filepath.Join(base, "home"))
	for _, h := range []string{real, filepath.Join(base, "home"), filepath.Join(base, "missing")} {
		got, want := map[string]bool{}, map[string]bool{}
		resolutions{}.addHome(h, map[string]map[string]bool{}, func(p string) { got[p] = true })
		plain := resolutions{}
		for _, e := range credentialStores {
			p := filepath.Join(h, e)
			want[p], want[plain.resolve(p)] = true, true
		}
		for p := range want {
			if !got[p] {
				t.Errorf("%s: %s not added", h, p)
			}
		}
		for p := range got {
			if !want[p] {
				t.Errorf("%s: %s added, not a store or a resolution", h, p)
			}
		}
	}
}
