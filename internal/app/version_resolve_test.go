package app

import (
	"runtime/debug"
	"testing"
)

func TestResolveVersion(t *testing.T) {
	info := func(v string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Path: "github.com/evgrep/evgrep", Version: v}}, true
		}
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	tests := []struct {
		name    string
		stamped string
		read    func() (*debug.BuildInfo, bool)
		want    string
	}{
		{"stamped by make release", "v0.2.0-3-g5faa22b-dirty", info("v0.1.0"), "v0.2.0-3-g5faa22b-dirty"},
		{"stamped, no tags", "5faa22b", none, "5faa22b"},
		{"go install at a tag", defaultVersion, info("v0.2.0"), "v0.2.0"},
		{"go build in a checkout", defaultVersion, info("v0.0.0-20261201101731-5faa22b1c2d3+dirty"), "v0.0.0-20261201101731-5faa22b1c2d3+dirty"},
		{"devel module", defaultVersion, info("(devel)"), defaultVersion},
		{"empty module version", defaultVersion, info(""), defaultVersion},
		{"no build info", defaultVersion, none, defaultVersion},
	}
	for _, tc := range tests {
		if got := resolveVersion(tc.stamped, tc.read); got != tc.want {
			t.Errorf("%s: resolveVersion(%q) = %q, want %q", tc.name, tc.stamped, got, tc.want)
		}
	}
}
