package credpolicy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResolutionsAsResolveExisting: the memoized resolution of the
// forbidden places gives what ResolveExisting gives, for existing and
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
		if got, want := rs.resolve(p), ResolveExisting(p); got != want {
			t.Errorf("%s: %s, ResolveExisting says %s", p, got, want)
		}
	}
}

// TestAddHomeAsLookups: a home folder listed once (addHome) forbids, for
// every credential store, the path and the resolution that looking it up
// alone gives, and adds nothing else, for stores that are there, missing,
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
		p := &Set{Prefixes: map[string]bool{}, Homes: map[string]bool{}}
		resolutions{}.addHome(h, map[string]map[string]bool{}, p.Homes, func(x string) { p.Prefixes[x] = true })
		covered := func(x string) bool { return p.Prefixes[x] || p.HomeStore(x) }
		plain := resolutions{}
		want := map[string]bool{}
		for _, e := range stores {
			x := filepath.Join(h, e)
			want[x], want[plain.resolve(x)] = true, true
			for _, y := range []string{x, plain.resolve(x)} {
				if !covered(y) {
					t.Errorf("%s: %s not forbidden", h, y)
				}
			}
		}
		for x := range p.Prefixes {
			if !want[x] {
				t.Errorf("%s: %s added, not a store or a resolution", h, x)
			}
		}
		for x := range p.Homes {
			if x != h && x != plain.resolve(h) {
				t.Errorf("%s: home %s added, neither the folder nor its resolution", h, x)
			}
		}
	}
}

// TestStoreComponents: HomeStore looks MaxStoreComponents components up
// from a path, which must be the most any credential store has.
func TestStoreComponents(t *testing.T) {
	most := 0
	for _, e := range stores {
		most = max(most, len(strings.Split(e, "/")))
	}
	if most != MaxStoreComponents {
		t.Fatalf("the deepest credential store has %d components; MaxStoreComponents is %d", most, MaxStoreComponents)
	}
}

// TestHomeStore: a home folder joined with a credential store is one,
// whatever its depth; a path inside a store (left to the agent's walk
// up its folders), another name, and a store under a folder that is not a home are
// not.
func TestHomeStore(t *testing.T) {
	p := &Set{Homes: map[string]bool{"/h/u": true, "/": true}}
	for path, want := range map[string]bool{
		"/h/u/.ssh": true, "/h/u/.local/share/keyrings": true, "/h/u/.local/share/fish/fish_history": true, "/h/u/.config/gh": true, "/h/u/.netrc": true,
		"/.aws": true, "/h/u/.ssh/id_rsa": false, "/h/u/.config": false, "/h/u/src/.ssh": false,
		"/h/v/.ssh": false, "/h/u/.local/share": false, "/h/u": false, "": false,
	} {
		if got := p.HomeStore(path); got != want {
			t.Errorf("HomeStore(%q) = %v, want %v", path, got, want)
		}
	}
}
